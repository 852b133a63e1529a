package roles

import (
	"strings"
	"testing"
)

// FuzzParseProfiles: any input either fails with an error or gives valid profiles whose
// vocabulary renders; it never panics.
func FuzzParseProfiles(f *testing.F) {
	names, _ := profileFiles.ReadDir("profiles")
	for _, n := range names {
		data, err := profileFiles.ReadFile("profiles/" + n.Name())
		if err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`[{"name":"a","scope":["a."],"vocabulary":[{"layer":"Step","words":["turn"]}],"rules":[{"role":"model_call","object":"a.M.call","not":true}]}]`))
	f.Add([]byte(`{"name":""}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ps, err := ParseProfiles(data)
		if err != nil {
			return
		}
		for _, p := range ps {
			if err := p.Validate(); err != nil {
				t.Fatalf("parsed profile does not validate: %v", err)
			}
			for _, w := range p.Vocabulary {
				if !strings.Contains(w.Text(), " = "+w.Layer) {
					t.Fatalf("word text %q lacks its layer %q", w.Text(), w.Layer)
				}
			}
		}
		tab := NewTable(ps...)
		_ = tab.Terms([]string{"a.x", ""})
	})
}
