//go:build cgo

package srcir

import (
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/syntax"
)

// TestDesugarAsyncGen: the compiled forms of async generators read back as their sources,
// line for line; what only looks like them is left as written.
func TestDesugarAsyncGen(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"esbuild method",
			"class A {\n  run(_0) {\n    return __asyncGenerator(this, arguments, function* (input, n = 1) {\n      yield* __yieldStar(this.step(input));\n    });\n  }\n}",
			"class A {\n  async *run(input, n = 1) {\n    \n      yield* (this.step(input));\n    \n  }\n}"},
		{"esbuild method without parameters of its own",
			"class A {\n  step(opts) {\n    return __asyncGenerator(this, null, function* () {\n      const r = yield new __await(this.call(opts));\n      yield r;\n    });\n  }\n}",
			"class A {\n  async *step(opts) {\n    \n      const r = await (this.call(opts));\n      yield r;\n    \n  }\n}"},
		{"tsc function",
			"function gen(a_1) {\n    return tslib_1.__asyncGenerator(this, arguments, function* gen_1(a) {\n        yield __await(yield* __asyncDelegator(__asyncValues(other(a))));\n    });\n}",
			"async function* gen(a) {\n    \n        await (yield* ((other(a))));\n    \n}"},
		{"esbuild for await",
			"for (var iter = __forAwait(stream), more, temp, error; more = !(temp = yield new __await(iter.next())).done; more = false) {\n  const chunk = temp.value;\n  use(chunk);\n}",
			"for await (const chunk of stream) {\n  \n  use(chunk);\n}"},
		{"tsc for await",
			"for (var _f = true, s_1 = __asyncValues(s), s_1_1; s_1_1 = yield __await(s_1.next()), _a = s_1_1.done, !_a; _f = true) {\n    _c = s_1_1.value;\n    _f = false;\n    const c = _c;\n    use(c);\n}",
			"for await (const c of s) {\n    \n    \n    \n    use(c);\n}"},
		{"nullish and optional",
			"x = (_b = chunk.delta.calls) != null ? _b : [];\ny = (_e = a.b) !== null && _e !== void 0 ? _e : [];\nz = (_a = opts.signal) == null ? void 0 : _a.aborted;\n__asyncValues;",
			"x = (chunk.delta.calls) ?? [];\ny = (a.b) ?? [];\nz = (opts.signal)?.aborted;\n__asyncValues;"},
		{"not the wrapper's return", "const g = __asyncGenerator(this, null, function* () {});", "const g = __asyncGenerator(this, null, function* () {});"},
		{"another temporary", "x = (_b = a.b) != null ? _c : [];\n__forAwait;", "x = (_b = a.b) != null ? _c : [];\n__forAwait;"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, _ := desugarAsyncGen([]byte(c.in), tableOf(syntax.JavaScript))
			if string(got) != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
			if strings.Count(string(got), "\n") != strings.Count(c.in, "\n") {
				t.Errorf("lines changed")
			}
		})
	}
}
