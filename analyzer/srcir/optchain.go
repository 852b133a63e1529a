package srcir

import (
	"bytes"
	"regexp"
	"strings"
)

// tsc compiles optional chains below ES2020 into tests of a temporary (or of the receiver
// itself when it is a plain name):
//
//	(_a = reply.choices[0]) === null || _a === void 0 ? void 0 : _a.message     reply.choices[0]?.message
//	options === null || options === void 0 ? void 0 : options.signal            options?.signal
//
// desugarOptional rewrites them back, on the source text and line for line (a form spread over
// several lines is left as it is), so that the lowering follows the chain as the one member
// read it stands for: what the reply's message holds is tested and iterated. The rewritten
// text of the alternative that follows (_a.message.tool_calls) is the chain's own rest.

// optName matches "NAME === null || NAME === void 0 ? void 0 : NAME" followed by a member or
// an index, NAME a plain identifier (group 1); group 2 is the alternative's repetition.
var optName = regexp.MustCompile(`\b([A-Za-z_$][A-Za-z0-9_$]*) === null \|\| ([A-Za-z_$][A-Za-z0-9_$]*) === void 0 \? void 0 : ([A-Za-z_$][A-Za-z0-9_$]*)([.\[])`)

// optTail matches what follows the parenthesized assignment of a temporary: ") === null ||
// _a === void 0 ? void 0 : _a" and a member or an index.
var optTail = regexp.MustCompile(`^\) === null \|\| ([A-Za-z_$][A-Za-z0-9_$]*) === void 0 \? void 0 : ([A-Za-z_$][A-Za-z0-9_$]*)([.\[])`)

// desugarOptional returns src with tsc's optional-chain tests rewritten, and whether anything
// was.
func desugarOptional(src []byte) ([]byte, bool) {
	if !bytes.Contains(src, []byte(" === void 0 ? void 0 : ")) {
		return src, false
	}
	out, changed := optText(string(src), 0)
	return []byte(out), changed
}

func optText(s string, depth int) (string, bool) {
	if depth > 8 || !strings.Contains(s, " === void 0 ? void 0 : ") {
		return s, false
	}
	changed := false
	// the temporaries first: (_a = EXPR) === null || _a === void 0 ? void 0 : _a.rest
	var b strings.Builder
	i := 0
	for {
		j := strings.Index(s[i:], "(_")
		if j < 0 {
			break
		}
		j += i
		name := identAt(s, j+1)
		eq := j + 1 + len(name)
		if name == "" || !strings.HasPrefix(s[eq:], " = ") {
			b.WriteString(s[i : j+2])
			i = j + 2
			continue
		}
		args, end, ok := splitArgs(s, j)
		if !ok || len(args) != 1 {
			b.WriteString(s[i : j+2])
			i = j + 2
			continue
		}
		m := optTail.FindStringSubmatch(s[end-1:])
		if m == nil || m[1] != name || m[2] != name || strings.Contains(m[0], "\n") {
			b.WriteString(s[i : j+2])
			i = j + 2
			continue
		}
		expr := strings.TrimPrefix(strings.TrimSpace(args[0]), name+" = ")
		if strings.Contains(expr, "\n") {
			b.WriteString(s[i : j+2])
			i = j + 2
			continue
		}
		expr, _ = optText(expr, depth+1)
		b.WriteString(s[i:j])
		b.WriteString(expr)
		b.WriteString("?.")
		if m[3] == "[" {
			b.WriteString("[")
		}
		changed = true
		i = end - 1 + len(m[0])
	}
	b.WriteString(s[i:])
	s = b.String()
	// a plain name: x === null || x === void 0 ? void 0 : x.rest
	s2 := optName.ReplaceAllStringFunc(s, func(x string) string {
		m := optName.FindStringSubmatch(x)
		if m[1] != m[2] || m[1] != m[3] {
			return x
		}
		changed = true
		if m[4] == "[" {
			return m[1] + "?.["
		}
		return m[1] + "?."
	})
	return s2, changed
}
