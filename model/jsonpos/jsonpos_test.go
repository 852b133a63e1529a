package jsonpos

import (
	"bytes"
	"testing"
)

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

// FuzzLines: any input gives lines or an error, never a panic, and every line is within the
// input.
func FuzzLines(f *testing.F) {
	f.Add([]byte(`{"a": [1, {"b": "c"}], "d": null}`))
	f.Add([]byte("[\n1,\n2\n]"))
	f.Add([]byte(`{"a":`))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines, err := Lines(data)
		if err != nil {
			return
		}
		n := 1 + bytes.Count(data, []byte("\n"))
		for path, l := range lines {
			if l < 1 || l > n {
				t.Fatalf("%q: line %d of %d", path, l, n)
			}
		}
	})
}
