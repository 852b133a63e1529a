package model

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestJSONText(t *testing.T) {
	pad := strings.Repeat("x", minJSONText)
	for _, tt := range []struct {
		lit  string
		keep bool
	}{
		{`"` + pad + `"`, true},
		{`"short"`, false},
		{`"` + pad + `\"q\" \\ \n \r \t"`, true},
		{`"` + pad + `\u0001 \u001f \u003c\u003e\u0026 \u2028\u2029"`, true},
		{`"` + pad + `\/"`, false}, // encoding/json writes / as is
		{`"` + pad + `\b"`, false}, // encoding/json and the renderers differ on \b and \f
		{`"` + pad + `\u0008"`, false},
		{`"` + pad + `\u000a"`, false},   // … and a newline as \n
		{`"` + pad + `\u0041"`, false},   // … and A as is
		{`"` + pad + `\u001F"`, false},   // … in lower-case hex
		{`"` + pad + `<"`, false},        // … and < escaped
		{"\"" + pad + "\u2028\"", false}, // … and U+2028 escaped
		{`"` + pad + `\ud83d\ude00"`, false},
		{`"` + pad, false}, // unterminated
	} {
		p := fastParser{b: []byte(tt.lit + ",")}
		got, ok := p.jsonText()
		if ok != tt.keep {
			t.Errorf("%s: kept %v, want %v", tt.lit, ok, tt.keep)
			continue
		}
		if !ok {
			if p.i != 0 {
				t.Errorf("%s: not kept but moved to %d", tt.lit, p.i)
			}
			continue
		}
		if string(got) != tt.lit || p.i != len(tt.lit) {
			t.Errorf("%s: got %s, at %d", tt.lit, got, p.i)
		}
		if enc, _ := json.Marshal(got.String()); string(enc) != tt.lit {
			t.Errorf("%s: encoding/json writes its text as %s", tt.lit, enc)
		}
	}
	if s, ok := AttrString(JSONText(`"a\nb"`)); !ok || s != "a\nb" {
		t.Errorf("AttrString(JSONText) = %q, %v", s, ok)
	}
}

// FuzzJSONText: a literal is kept exactly when encoding/json writes its text the same way.
func FuzzJSONText(f *testing.F) {
	f.Add("plain")
	f.Add(`"quoted" <b> & \ é` + "\n\t\r\x01\u2028")
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // lines are valid UTF-8 before they are decoded
		}
		s = strings.Repeat("x", minJSONText) + s
		enc, _ := json.Marshal(s)
		p := fastParser{b: enc}
		got, ok := p.jsonText()
		if ok != !strings.ContainsAny(s, "\b\f") || ok && string(got) != string(enc) {
			t.Fatalf("encoding/json's literal %s: kept %v as %s", enc, ok, got)
		}
		// Any other literal of the same text is either refused or identical.
		var plain fastParser
		plain.b = []byte(strings.ReplaceAll(string(enc), `\u003c`, `<`))
		if got, ok := plain.jsonText(); ok && string(got) != string(enc) {
			t.Fatalf("non-canonical literal %s kept", plain.b)
		}
	})
}

// TestTextSpecial: every byte jsonText looks at is flagged, wherever it sits in a word.
func TestTextSpecial(t *testing.T) {
	for _, fill := range []byte{'a', 0x00, 0x1f, 0x20, '"', 0x7f, 0x80, 0xe1, 0xe3, 0xff} {
		for pos := range 8 {
			for c := range 256 {
				w := bytes.Repeat([]byte{fill}, 8)
				w[pos] = byte(c)
				want := false
				for _, b := range w {
					want = want || strings.IndexByte("\"\\<>&\xe2", b) >= 0 || b < 0x20
				}
				if want && !textSpecial(binary.LittleEndian.Uint64(w)) {
					t.Fatalf("%q: not flagged", w)
				}
			}
		}
	}
}
