package srcir

import (
	"math/rand"
	"strings"
	"testing"
)

// The matchers written out by hand for speed (issue 11) say what the regexps or the search
// they replace said, on random names and texts made of the pieces they look for.
func TestFastMatchersAgree(t *testing.T) {
	pieces := []string{"a", "aa", "x", "K", "s", "ſ", ".", "[", "]", `"`, "'", "(", " ", "_", "name", "Name", "tool",
		"Tool", "tool_name", "toolName", "function", "functionName", "func", "call", "Call", "exec", "execute", "ute",
		"invoke", "run", "Run", "dispatch", "perform", "fc", "tc", "use", "step", "cmd", "command", "request", "action",
		"invocation", ".length", "len(", ".size", "size", "length", "===", "== ", "0", "1", "not", "!", "?"}
	rng := rand.New(rand.NewSource(11))
	gen := func(n int) string {
		var sb strings.Builder
		for range rng.Intn(n) {
			sb.WriteString(pieces[rng.Intn(len(pieces))])
		}
		return sb.String()
	}
	// readsNameOf's search as it was: the first place of each spelling decides
	slow := func(txt, v string) bool {
		for _, w := range nameFields {
			for _, f := range []string{v + "." + w, v + `["` + w + `"]`, v + `['` + w + `']`} {
				if i := strings.Index(txt, f); i >= 0 {
					if j := i + len(f); j >= len(txt) || !isIdentByte(txt[j]) {
						return true
					}
				}
			}
		}
		return false
	}
	for range 200000 {
		s := gen(6)
		if got, want := isRunVerb(s), runVerb.MatchString(s); got != want {
			t.Fatalf("isRunVerb(%q) = %v, runVerb says %v", s, got, want)
		}
		if got, want := isNameParam(s), nameParam.MatchString(s); got != want {
			t.Fatalf("isNameParam(%q) = %v, nameParam says %v", s, got, want)
		}
		c := gen(8)
		if got, want := nonEmptyTest(c), lengthRe.MatchString(c) && !emptyRe.MatchString(c); got != want {
			t.Fatalf("nonEmptyTest(%q) = %v, the regexps say %v", c, got, want)
		}
		txt, v := gen(14), []string{"a", "aa", "x", "tool", "a.x"}[rng.Intn(5)]
		if got, want := readsNameIn(txt, v), slow(txt, v); got != want {
			t.Fatalf("readsNameIn(%q, %q) = %v, the search says %v", txt, v, got, want)
		}
	}
}
