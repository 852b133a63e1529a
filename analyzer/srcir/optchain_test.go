package srcir

import "testing"

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
