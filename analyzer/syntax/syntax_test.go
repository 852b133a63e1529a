//go:build cgo

package syntax

import (
	"strings"
	"testing"
)

func TestParsePositionsAndFields(t *testing.T) {
	tests := []struct {
		lang   Lang
		src    string
		kind   string
		field  string
		line   int
		errors int
	}{
		{Python, "def f():\n    while x < n:\n        pass\n", "while_statement", "", 2, 0},
		{Python, "type Point[T] = tuple[T, T]\nmatch p:\n    case [x, y]:\n        print(f\"{x!r:>{y}} {'nested' + f'{x}'}\")\n", "match_statement", "", 2, 0},
		{TypeScript, "async function f(s: AsyncIterable<string>) {\n  for await (const c of s) {}\n}\n", "for_in_statement", "body", 2, 0},
		{TSX, "const A = () => <div>{x satisfies number}</div>;\n", "jsx_element", "body", 1, 0},
		{JavaScript, "module.exports = async function* g() {\n  yield 1\n}\n", "yield_expression", "", 2, 0},
		{Python, "def f(:\n    pass\n", "", "", 0, 1},
		// Python 3.12: PEP 695 generics, PEP 701 f-strings reusing their quotes, async
		{Python, "def first[T](xs: list[T]) -> T:\n    return xs[0]\nclass Box[T: int]:\n    pass\n", "class_definition", "", 3, 0},
		{Python, "msg = f\"{d[\"k\"]} {f\"{x:>{w}}\"}\"\nasync def g():\n    async with a as b:\n        async for c in b:\n            await c\n", "for_statement", "body", 4, 0},
		{Python, "match cmd:\n    case {\"tool\": str(name), **rest} if name:\n        pass\n    case Point(x=0) | None:\n        pass\n", "case_clause", "", 2, 0},
		// TypeScript 5: satisfies, const type parameters, decorators, using, accessor
		{TypeScript, "function f<const T extends readonly unknown[]>(x: T) { return x satisfies T; }\n@sealed class C { accessor n = 1; }\n", "class_declaration", "body", 2, 0},
		{TypeScript, "async function g() {\n  await using res = open();\n  for await (const e of res.events()) { if (e.type === 'done') break; }\n}\n", "for_in_statement", "body", 3, 0},
	}
	for _, tt := range tests {
		tr, err := Parse("x", tt.lang, []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		if (len(tr.Errors) > 0) != (tt.errors > 0) {
			t.Errorf("%s %q: errors %v, want %d", tt.lang, tt.src, tr.Errors, tt.errors)
		}
		if tt.kind == "" {
			continue
		}
		n := find(tr.Root, tt.kind)
		if n == nil {
			t.Errorf("%s: no %s in %q", tt.lang, tt.kind, tt.src)
			continue
		}
		if n.Line != tt.line {
			t.Errorf("%s: %s at line %d, want %d", tt.lang, tt.kind, n.Line, tt.line)
		}
		if tt.field != "" && n.Kind != "jsx_element" && n.Child(tt.field) == nil {
			t.Errorf("%s: %s has no field %s", tt.lang, tt.kind, tt.field)
		}
		if !strings.Contains(tt.src, tr.Text(n)) {
			t.Errorf("text %q not in source", tr.Text(n))
		}
	}
}

func TestParseDeepNesting(t *testing.T) {
	src := strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000)
	tr, err := Parse("deep.js", JavaScript, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if depth(tr.Root) > MaxDepth+1 {
		t.Fatalf("depth %d", depth(tr.Root))
	}
	if len(tr.Errors) == 0 {
		t.Fatal("cut region not reported")
	}
}

func depth(n *Node) int {
	d := 0
	for _, c := range n.Children {
		d = max(d, depth(c))
	}
	return d + 1
}

func find(n *Node, kind string) *Node {
	if n.Kind == kind {
		return n
	}
	for _, c := range n.Children {
		if x := find(c, kind); x != nil {
			return x
		}
	}
	return nil
}

func TestLangOf(t *testing.T) {
	for name, want := range map[string]Lang{"a.py": Python, "a.d.ts": "", "a.ts": TypeScript, "a.mts": TypeScript, "a.tsx": TSX,
		"a.js": JavaScript, "a.mjs": JavaScript, "a.cjs": JavaScript, "a.go": "", "a.pyi": ""} {
		if got := LangOf(name); got != want {
			t.Errorf("LangOf(%s) = %q, want %q", name, got, want)
		}
	}
}

// TestParseTreeShape checks the tree built from the C walk's preorder records: empty and
// comment-only sources parse, every child lies inside its parent, siblings are in source
// order, and a MISSING token the parser inserted (skipped as anonymous) is still reported.
func TestParseTreeShape(t *testing.T) {
	for _, tt := range []struct {
		lang    Lang
		src     string
		missing bool
	}{
		{Python, "", false},
		{TypeScript, "", false},
		{JavaScript, "// only a comment\n", false},
		{TypeScript, "class A { m(x: number): void { for (const y of [x]) { this.f(y); } } }\n", false},
		{Python, "async def f(x):\n    async for y in x:\n        await g(y)\n", false},
		{JavaScript, "function f() { return g(1\n", true},
	} {
		tr, err := Parse("x", tt.lang, []byte(tt.src))
		if err != nil {
			t.Fatalf("%q: %v", tt.src, err)
		}
		if tr.Root == nil {
			t.Fatalf("%q: no root", tt.src)
		}
		var check func(n *Node)
		check = func(n *Node) {
			prev := n.Start
			for _, c := range n.Children {
				if c.Start < n.Start || c.End > n.End || c.Start < prev {
					t.Errorf("%q: child %s [%d,%d) outside parent %s [%d,%d) or out of order", tt.src, c.Kind, c.Start, c.End, n.Kind, n.Start, n.End)
				}
				prev = c.End
				check(c)
			}
		}
		check(tr.Root)
		if got := len(tr.Errors) > 0; got != tt.missing {
			t.Errorf("%q: errors %v, want %v", tt.src, tr.Errors, tt.missing)
		}
	}
}

// TestKindIDs: every copied node carries its kind's process-wide number, the same for the
// same kind in every grammar and file, distinct for distinct kinds; synthetic nodes have 0.
func TestKindIDs(t *testing.T) {
	ids := map[string]uint16{}
	kinds := map[uint16]string{}
	for _, tc := range []struct {
		lang Lang
		src  string
	}{
		{Python, "def f(x):\n    return g(x)\n"},
		{TypeScript, "function f(x: number) { return g(x); }\n"},
		{JavaScript, "function f(x) { return g(x) }\n"},
		{Python, "while True:\n    f()\n"},
	} {
		tr, err := Parse("x", tc.lang, []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		var walk func(n *Node)
		walk = func(n *Node) {
			if n.KindID != KindID(n.Kind) {
				t.Errorf("%s: KindID %d, want %d", n.Kind, n.KindID, KindID(n.Kind))
			}
			if id, ok := ids[n.Kind]; ok && id != n.KindID {
				t.Errorf("%s: ids %d and %d", n.Kind, id, n.KindID)
			}
			if k, ok := kinds[n.KindID]; ok && k != n.Kind {
				t.Errorf("kinds %s and %s share %d", k, n.Kind, n.KindID)
			}
			ids[n.Kind], kinds[n.KindID] = n.KindID, n.Kind
			for _, c := range n.Children {
				walk(c)
			}
		}
		walk(tr.Root)
	}
	if KindID("") != 0 || (&Node{}).KindID != 0 {
		t.Error("the empty kind is not 0")
	}
	if ids["call"] == 0 || ids["call_expression"] == 0 || ids["call"] == ids["call_expression"] {
		t.Errorf("ids %v", ids)
	}
}
