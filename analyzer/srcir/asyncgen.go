package srcir

import (
	"regexp"
	"sort"
	"strings"
)

// Compilers targeting JavaScript before ES2018 (esbuild --target=es2017, tsc --target
// es2017 and below) write an async generator method as a plain method handing a generator
// to a runtime helper, its awaits as yields of a marker, its yield* through a delegating
// helper and its for await as a loop over the helper's iterator:
//
//	esbuild                                             tsc
//	m(x) { return __asyncGenerator(this, null,          m(x) { return __asyncGenerator(this, arguments,
//	    function* () { … }); }                              function* m_1() { … }); }
//	yield new __await(p)                                 yield __await(p)
//	yield* __yieldStar(g)                                yield* __asyncDelegator(__asyncValues(g))
//	for (var it = __forAwait(s), more, temp, error;      for (var _f = true, s_1 = __asyncValues(s), s_1_1;
//	    more = !(temp = yield new __await(it.next()))        s_1_1 = yield __await(s_1.next()), _a = s_1_1.done,
//	    .done; more = false) { const c = temp.value; …       !_a; _f = true) { _c = s_1_1.value; _f = false;
//	                                                         const c = _c; …
//	(_a = x.y) != null ? _a : d                          (_a = x.y) !== null && _a !== void 0 ? _a : d
//	(_a = x.y) == null ? void 0 : _a.z                   (tsc's: desugarOptional)
//
// desugarAsyncGen rewrites these back into the source forms they stand for (async *m(x) { … },
// await p, yield* g, for await (const c of s), x.y ?? d, x.y?.z), on the source text and line
// for line, as desugarPrivate does for private members: the lowering then reads the compiled
// file as it reads the TypeScript source. The helpers' names are the compilers' runtime names.

var (
	// the header of a method or function whose body is the wrapper's return
	asyncHeader = regexp.MustCompile(`(?:^|[\s;{}])((?:(?:static|public|private|protected|override)\s+)*)(function\s+)?([A-Za-z_$#][\w$]*|\[[^\]\n]+\])\s*\(([^()]*)\)\s*$`)
	forAwaitEsb = regexp.MustCompile(`for \(var ([\w$]+) = __forAwait\(([^\n]+?)\), ([\w$]+), ([\w$]+), ([\w$]+); ` +
		`([\w$]+) = !\(([\w$]+) = yield new __await\(([\w$]+)\.next\(\)\)\)\.done; ([\w$]+) = false\) \{(\s*)(?:const|let|var) ([\w$]+) = ([\w$]+)\.value;`)
	forAwaitTsc = regexp.MustCompile(`for \(var ([\w$]+) = true, ([\w$]+) = __asyncValues\(([^\n]+?)\), ([\w$]+); ([\w$]+) = yield __await\(([\w$]+)\.next\(\)\), ` +
		`([\w$]+) = ([\w$]+)\.done, !([\w$]+); ([\w$]+) = true\) \{(\s*)([\w$]+) = ([\w$]+)\.value;(\s*)([\w$]+) = false;(\s*)(?:const|let|var) ([\w$]+) = ([\w$]+);`)
	nullishEsb  = regexp.MustCompile(`\((_[\w$]*) = ([^()?:\n]+?)\) != null \? ([\w$]+) : `)
	nullishTsc  = regexp.MustCompile(`\((_[\w$]*) = ([^()?:\n]+?)\) !== null && ([\w$]+) !== void 0 \? ([\w$]+) : `)
	optionalEsb = regexp.MustCompile(`\((_[\w$]*) = ([^()?:\n]+?)\) == null \? void 0 : ([\w$]+)\.`)
)

// desugarAsyncGen returns src with the compiled async generators rewritten, and whether
// anything was.
func desugarAsyncGen(src []byte, t *table) ([]byte, bool) {
	s := string(src)
	if t == nil || t.self != "this" || !strings.Contains(s, "__asyncGenerator") && !strings.Contains(s, "__forAwait") && !strings.Contains(s, "__asyncValues") {
		return src, false
	}
	out := unwrapAsyncGenerators(s)
	out = forAwaitEsb.ReplaceAllStringFunc(out, func(m string) string {
		g := forAwaitEsb.FindStringSubmatch(m)
		// (it, more, temp, error; more = !(temp = …(it.next())).done; more = false) { const c = temp.value;
		if g[6] != g[3] || g[7] != g[4] || g[8] != g[1] || g[9] != g[3] || g[12] != g[4] {
			return m
		}
		return "for await (const " + g[11] + " of " + g[2] + ") {" + g[10]
	})
	out = forAwaitTsc.ReplaceAllStringFunc(out, func(m string) string {
		g := forAwaitTsc.FindStringSubmatch(m)
		if g[5] != g[4] || g[6] != g[2] || g[8] != g[4] || g[9] != g[7] || g[10] != g[1] || g[13] != g[4] || g[15] != g[1] || g[18] != g[12] {
			return m
		}
		return "for await (const " + g[17] + " of " + g[3] + ") {" + g[11] + g[14] + g[16]
	})
	out = nullishEsb.ReplaceAllStringFunc(out, func(m string) string {
		g := nullishEsb.FindStringSubmatch(m)
		if g[3] != g[1] {
			return m
		}
		return "(" + g[2] + ") ?? "
	})
	out = nullishTsc.ReplaceAllStringFunc(out, func(m string) string {
		g := nullishTsc.FindStringSubmatch(m)
		if g[3] != g[1] || g[4] != g[1] {
			return m
		}
		return "(" + g[2] + ") ?? "
	})
	out = optionalEsb.ReplaceAllStringFunc(out, func(m string) string {
		g := optionalEsb.FindStringSubmatch(m)
		if g[3] != g[1] {
			return m
		}
		return "(" + g[2] + ")?."
	})
	r := strings.NewReplacer("yield new __await(", "await (", "yield __await(", "await (",
		"yield* __yieldStar(", "yield* (", "yield* __asyncDelegator(__asyncValues(", "yield* ((")
	out = r.Replace(out)
	return []byte(out), out != s
}

// keepLines is the newlines of s (what a rewrite removes of several lines).
func keepLines(s string) string { return strings.Repeat("\n", strings.Count(s, "\n")) }

// unwrapAsyncGenerators rewrites each method or function whose body is "return
// __asyncGenerator(this, args, function* (params) { body });" into "async *m(params) { body
// }" (an async generator function for a function declaration), the generator's parameters
// taking the method's place when it has any (esbuild moves them there).
func unwrapAsyncGenerators(s string) string {
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	from := 0
	for {
		j := strings.Index(s[from:], "__asyncGenerator(")
		if j < 0 {
			break
		}
		j += from
		from = j + len("__asyncGenerator(")
		call := j
		if k := j - 1; k >= 0 && s[k] == '.' { // tslib_1.__asyncGenerator
			p := k
			for p > 0 && isIdentByte(s[p-1]) {
				p--
			}
			call = p
		}
		before := strings.TrimRight(s[:call], " \t")
		if !strings.HasSuffix(before, "return") {
			continue
		}
		ret := len(before) - len("return")
		open := strings.TrimRight(s[:ret], " \t\r\n")
		if !strings.HasSuffix(open, "{") {
			continue
		}
		brace := len(open) - 1
		lineStart := strings.LastIndexByte(s[:brace], '\n') + 1
		hm := asyncHeader.FindStringSubmatchIndex(s[lineStart:brace])
		if hm == nil {
			continue
		}
		args, end, ok := splitArgs(s, j+len("__asyncGenerator"))
		if !ok || len(args) != 3 {
			continue
		}
		gen := args[2]
		genAt := end - 1 - len(gen) // where the third argument starts in s
		g := strings.TrimLeft(gen, " \t\r\n")
		if !strings.HasPrefix(g, "function*") && !strings.HasPrefix(g, "function *") {
			continue
		}
		pOpen := strings.IndexByte(gen, '(')
		if pOpen < 0 {
			continue
		}
		params, pEnd, ok := splitArgs(s, genAt+pOpen)
		if !ok {
			continue
		}
		bodyOpen := strings.IndexByte(s[pEnd:end], '{')
		bodyClose := strings.LastIndexByte(s[:end], '}')
		if bodyOpen < 0 || bodyClose < pEnd+bodyOpen {
			continue
		}
		bodyOpen += pEnd
		stop := end
		if rest := strings.TrimLeft(s[end:], " \t"); strings.HasPrefix(rest, ";") {
			stop = len(s) - len(rest) + 1
		}
		// the header: modifiers, "function", the name and its parameters
		mods := s[lineStart+hm[2] : lineStart+hm[3]]
		name := s[lineStart+hm[6] : lineStart+hm[7]]
		ps := s[lineStart+hm[8] : lineStart+hm[9]]
		if strings.Contains(ps, "\n") {
			continue
		}
		if len(params) > 0 {
			ps = strings.Join(params, ",")
			if strings.Contains(ps, "\n") {
				continue
			}
		}
		head := mods + "async *" + name + "(" + strings.TrimSpace(ps) + ") "
		if hm[4] >= 0 {
			head = mods + "async function* " + name + "(" + strings.TrimSpace(ps) + ") "
		}
		edits = append(edits,
			edit{lineStart + hm[2], brace, head},
			edit{ret, bodyOpen + 1, keepLines(s[ret : bodyOpen+1])},
			edit{bodyClose, stop, keepLines(s[bodyClose:stop])})
		from = bodyOpen + 1
	}
	if len(edits) == 0 {
		return s
	}
	sort.SliceStable(edits, func(a, b int) bool { return edits[a].start < edits[b].start })
	var b strings.Builder
	at := 0
	for _, e := range edits {
		if e.start < at {
			continue // (overlapping: left as written)
		}
		b.WriteString(s[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.WriteString(s[at:])
	return b.String()
}
