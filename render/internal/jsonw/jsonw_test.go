package jsonw

import "testing"

func TestAppendString(t *testing.T) {
	in := "a<b>&c\u2028\u2029\x7f\r\n\t\x01\"\\\xffé"
	for _, tt := range []struct {
		name string
		esc  *Escapes
		want string
	}{
		{"HTMLSafe", HTMLSafe, `"a\u003cb\u003e\u0026c\u2028\u2029` + "\x7f" + `\r\n\t\u0001\"\\\ufffdé"`},
		{"Minimal", Minimal, `"a<b>&c` + "\u2028\u2029" + `\u007f\u000d\n\t\u0001\"\\\ufffdé"`},
	} {
		if got := string(AppendString([]byte("x"), in, tt.esc)); got != "x"+tt.want {
			t.Errorf("%s: got %s, want x%s", tt.name, got, tt.want)
		}
	}
}
