package srcir

import (
	"strings"
	"testing"
)

// TestDesugarOptional: tsc's compiled optional chains read back as the chains they stand for,
// a temporary's (nested too) and a plain name's, members and indexes; what is not exactly
// tsc's form (another name in the test, a form over two lines) is left alone.
func TestDesugarOptional(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`const m = (_a = reply.choices[0]) === null || _a === void 0 ? void 0 : _a.message;`, `const m = reply.choices[0]?.message;`},
		{`if (!((_b = m.tool_calls) === null || _b === void 0 ? void 0 : _b.length)) {`, `if (!(m.tool_calls?.length)) {`},
		{`if ((_c = options === null || options === void 0 ? void 0 : options.signal) === null || _c === void 0 ? void 0 : _c.aborted) {`,
			`if (options?.signal?.aborted) {`},
		{`x = o === null || o === void 0 ? void 0 : o[0];`, `x = o?.[0];`},
		{`x = (_a = f(a, b)) === null || _a === void 0 ? void 0 : _a.y.z;`, `x = f(a, b)?.y.z;`},
		{`x = o === null || p === void 0 ? void 0 : o.y;`, `x = o === null || p === void 0 ? void 0 : o.y;`},
		{`x = (_a = o) === null || _b === void 0 ? void 0 : _a.y;`, `x = (_a = o) === null || _b === void 0 ? void 0 : _a.y;`},
		{"x = (_a = o\n  .p) === null || _a === void 0 ? void 0 : _a.y;", "x = (_a = o\n  .p) === null || _a === void 0 ? void 0 : _a.y;"},
		{`x = a ?? b;`, `x = a ?? b;`},
	} {
		got, changed := desugarOptional([]byte(tt.in))
		if string(got) != tt.want || changed != (tt.in != tt.want) {
			t.Errorf("desugarOptional(%q) = %q, %v; want %q", tt.in, got, changed, tt.want)
		}
	}
}

// TestDesugarLooseOptional: esbuild's lowered optional chains (a temporary's, and a plain
// name's member, call and index: ai@6.0.325 dist/index.js:4860 signal == null ? void 0 :
// signal.throwIfAborted()) read back as the chains, in place (same length); another name in
// the test, or a member of another value tested (o.x == null ? … : x.y), is left alone.
func TestDesugarLooseOptional(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`s == null ? void 0 : s.throwIfAborted();`, `s?.throwIfAborted();`},
		{`await (prepareStep == null ? void 0 : prepareStep({ steps }));`, `await (prepareStep?.({ steps }));`},
		{`x = o == null ? void 0 : o[k];`, `x = o?.[k];`},
		{`x = (_a = r.toolCalls) == null ? void 0 : _a.length;`, `x = r.toolCalls?.length;`},
		{`x = o == null ? void 0 : p.y;`, `x = o == null ? void 0 : p.y;`},
		{`x = o.x == null ? void 0 : x.y;`, `x = o.x == null ? void 0 : x.y;`},
	} {
		got, changed := desugarLooseOptional([]byte(tt.in))
		if nospace := func(s string) string { return strings.ReplaceAll(s, " ", "") }; nospace(string(got)) != nospace(tt.want) {
			t.Errorf("desugarLooseOptional(%q) = %q; want %q", tt.in, got, tt.want)
		}
		if len(got) != len(tt.in) || changed != (tt.in != tt.want) {
			t.Errorf("desugarLooseOptional(%q) = %q (%d bytes), changed %v; want %d bytes, changed %v", tt.in, got, len(got), changed, len(tt.in), tt.in != tt.want)
		}
	}
}
