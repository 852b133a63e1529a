package jsonpos

import "testing"

func TestLines(t *testing.T) {
	doc := "{\n  \"a\": [\n    1,\n    {\"b/c\": 2}\n  ],\n  \"d\":\n    \"x\"\n}\n"
	got, err := Lines([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]int{"": 1, "/a": 2, "/a/0": 3, "/a/1": 4, "/a/1/b~1c": 4, "/d": 7} {
		if got[path] != want {
			t.Errorf("%q: line %d, want %d", path, got[path], want)
		}
	}
	if _, err := Lines([]byte("{\n\"a\": [1,\n}")); err == nil {
		t.Error("a broken document gave no error")
	}
}
