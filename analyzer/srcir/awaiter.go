package srcir

import (
	"bytes"
	"regexp"
	"strings"
)

// Below ES2017 tsc compiles an async function into a generator run by its helper, and esbuild
// does the same with its own:
//
//	f(x) { return __awaiter(this, void 0, void 0, function* () { const r = yield g(x); … }); }
//	f(x) { return __async(this, null, function* () { const r = yield g(x); … }); }
//
// desugarAwaiter rewrites each such call back into the async function it stands for, called
// in place — (async () => { const r = await g(x); … })() — on the source text and line for
// line ("yield" and "await" have the same length), so that the lowering reads the body as an
// async body: its yields are awaits, not values handed to a consumer. A generator holding a
// generator of its own (a yield that may be the inner one's) is left as it is. The helpers'
// names are language knowledge of the JS/TS tables (awaiters).

var yieldWord = regexp.MustCompile(`\byield\b`)

// desugarAwaiter returns src with the compiler's async helper calls rewritten, and whether
// anything was.
func desugarAwaiter(src []byte, t *table) ([]byte, bool) {
	if len(t.awaiters) == 0 || !bytes.Contains(src, []byte("function* (")) && !bytes.Contains(src, []byte("function*(")) {
		return src, false
	}
	out, changed := awaiterText(string(src), t, 0)
	return []byte(out), changed
}

func awaiterText(s string, t *table, depth int) (string, bool) {
	if depth > 8 {
		return s, false
	}
	var b strings.Builder
	changed := false
	i := 0
	for {
		j := strings.Index(s[i:], "__a")
		if j < 0 {
			break
		}
		j += i
		name := identAt(s, j)
		open := j + len(name)
		if !t.awaiters[name] || j > 0 && isIdentByte(s[j-1]) || open >= len(s) || s[open] != '(' {
			b.WriteString(s[i : j+3])
			i = j + 3
			continue
		}
		start := j
		// an optional module prefix: tslib_1.__awaiter
		if k := j - 1; k >= 0 && s[k] == '.' {
			p := k
			for p > 0 && isIdentByte(s[p-1]) {
				p--
			}
			if p < k {
				start = p
			}
		}
		args, end, ok := splitArgs(s, open)
		repl := ""
		if ok && len(args) >= 3 && len(args) <= 4 && strings.TrimSpace(args[0]) == "this" {
			repl = asyncOf(args[len(args)-1], t, depth)
		}
		if repl == "" {
			b.WriteString(s[i : j+3])
			i = j + 3
			continue
		}
		b.WriteString(s[i:start])
		b.WriteString(repl)
		changed = true
		i = end
	}
	b.WriteString(s[i:])
	return b.String(), changed
}

// asyncOf rewrites the generator argument gen (function* (params) { body }) into the async
// arrow function it stands for, called in place; "" when gen is no such generator.
func asyncOf(gen string, t *table, depth int) string {
	if strings.Contains(gen[:len(gen)-len(strings.TrimLeft(gen, " \t\n"))], "\n") ||
		strings.Contains(gen[len(strings.TrimRight(gen, " \t\n")):], "\n") {
		return "" // (a generator on lines of its own: their newlines would be lost)
	}
	g := strings.TrimSpace(gen)
	rest, ok := strings.CutPrefix(g, "function*")
	if !ok {
		return ""
	}
	rest = strings.TrimLeft(rest, " ")
	if !strings.HasPrefix(rest, "(") {
		return ""
	}
	params, pend, ok := splitArgs(rest, 0)
	if !ok {
		return ""
	}
	body := strings.TrimLeft(rest[pend:], " ")
	if !strings.HasPrefix(body, "{") || !strings.HasSuffix(body, "}") {
		return ""
	}
	inner, _ := awaiterText(body[1:len(body)-1], t, depth+1)
	if strings.Contains(inner, "function*") {
		return "" // a generator of its own inside: its yields are not this body's awaits
	}
	inner = yieldWord.ReplaceAllString(inner, "await")
	return "(async (" + strings.Join(params, ",") + ") => {" + inner + "})()"
}
