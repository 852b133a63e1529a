package srcir

import "testing"

// TestDesugarAwaiter: a compiled async function (tsc's __awaiter, esbuild's __async, with or
// without a module prefix) reads back as the async arrow it stands for, called in place, its
// yields awaits, line for line; a generator holding one of its own, a helper not handed a
// generator and a name that only ends like a helper's are left alone.
func TestDesugarAwaiter(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"return tslib_1.__awaiter(this, void 0, void 0, function* () {\n    const r = yield f(x);\n    return r;\n});",
			"return (async () => {\n    const r = await f(x);\n    return r;\n})();"},
		{"return __async(this, null, function* () {\n  yield g();\n});", "return (async () => {\n  await g();\n})();"},
		{"return __awaiter(this, arguments, void 0, function* (a = 1) { yield h(a); });", "return (async (a = 1) => { await h(a); })();"},
		{"return __awaiter(this, void 0, void 0, function* () { const g = function* () { yield 1; }; yield g; });",
			"return __awaiter(this, void 0, void 0, function* () { const g = function* () { yield 1; }; yield g; });"},
		{"return __awaiter(this, void 0, void 0, () => 1);", "return __awaiter(this, void 0, void 0, () => 1);"},
		{"return my__awaiter(this, void 0, void 0, function* () { yield 1; });", "return my__awaiter(this, void 0, void 0, function* () { yield 1; });"},
	} {
		got, changed := desugarAwaiter([]byte(tt.in), typescript)
		if string(got) != tt.want || changed != (tt.in != tt.want) {
			t.Errorf("desugarAwaiter(%q) = %q, %v; want %q", tt.in, got, changed, tt.want)
		}
	}
}
