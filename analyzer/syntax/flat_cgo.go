//go:build cgo

package syntax

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

// The few declarations of tree-sitter's C API (include/tree_sitter/api.h of
// github.com/tree-sitter/go-tree-sitter v0.25.0, whose C library this binary links) the
// one-call walk needs.
typedef struct TSLanguage TSLanguage;
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;
TSParser *ts_parser_new(void);
void ts_parser_delete(TSParser *self);
bool ts_parser_set_language(TSParser *self, const TSLanguage *language);
TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length);
void ts_tree_delete(TSTree *self);
TSNode ts_tree_root_node(const TSTree *self);
TSTreeCursor ts_tree_cursor_new(TSNode node);
void ts_tree_cursor_delete(TSTreeCursor *self);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
uint16_t ts_tree_cursor_current_field_id(const TSTreeCursor *self);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
bool ts_tree_cursor_goto_parent(TSTreeCursor *self);
uint16_t ts_node_symbol(TSNode self);
uint32_t ts_node_start_byte(TSNode self);
uint32_t ts_node_end_byte(TSNode self);
bool ts_node_is_missing(TSNode self);
bool ts_node_has_error(TSNode self);
uint32_t ts_node_child_count(TSNode self);
void ts_set_allocator(void *(*m)(size_t), void *(*c)(size_t, size_t), void *(*r)(void *, size_t), void (*f)(void *));

// kind flags (by symbol), set by the Go side
enum { LL_ANON = 1, LL_DROP = 2, LL_PRUNE = 4 };
// record flags
enum { LL_MISSING = 1, LL_SKIPPED = 2, LL_TOODEEP = 4 };

typedef struct {
	uint32_t start, end;
	uint16_t sym, field, depth;
	uint8_t flags;
} ll_rec;

typedef struct {
	ll_rec *recs;
	uint32_t n, cap;
	bool errs;
	bool failed;
} ll_out;

static void ll_emit(ll_out *o, TSNode n, uint16_t sym, uint16_t field, uint16_t depth, uint8_t flags) {
	if (o->failed) return;
	if (o->n == o->cap) {
		uint32_t c = o->cap ? o->cap * 2 : 1024;
		ll_rec *r = realloc(o->recs, (size_t)c * sizeof(ll_rec));
		if (!r) { o->failed = true; return; }
		o->recs = r;
		o->cap = c;
	}
	ll_rec *r = &o->recs[o->n++];
	r->start = ts_node_start_byte(n);
	r->end = ts_node_end_byte(n);
	r->sym = sym;
	r->field = field;
	r->depth = depth;
	r->flags = flags;
}

// ll_parse parses src and writes the tree in preorder, each node with its depth: the
// nodes the Go side keeps (named, kept keywords, anything with a field) and, in a tree with
// errors, the MISSING nodes it skips. One cgo call per file instead of several per node.
static int ll_parse(TSParser *p, const char *src, uint32_t len, const uint8_t *tab, uint32_t ntab,
		uint16_t maxDepth, ll_out *o) {
	TSTree *t = ts_parser_parse_string(p, NULL, src, len);
	if (!t) return -1;
	TSNode root = ts_tree_root_node(t);
	o->errs = ts_node_has_error(root);
	TSTreeCursor c = ts_tree_cursor_new(root);
	uint16_t depth = 0;
	for (;;) {
		TSNode n = ts_tree_cursor_current_node(&c);
		uint16_t sym = ts_node_symbol(n);
		uint16_t fid = ts_tree_cursor_current_field_id(&c);
		uint8_t k = sym < ntab ? tab[sym] : 0;
		bool descend = false;
		if (depth > 0 && ((k & LL_DROP) || ((k & LL_ANON) && fid == 0))) {
			if (o->errs && ts_node_is_missing(n)) ll_emit(o, n, sym, fid, depth, LL_MISSING | LL_SKIPPED);
		} else {
			uint8_t fl = (o->errs && ts_node_is_missing(n)) ? LL_MISSING : 0;
			if (!(k & LL_PRUNE)) {
				if (depth >= maxDepth) {
					if (ts_node_child_count(n) > 0) fl |= LL_TOODEEP;
				} else {
					descend = true;
				}
			}
			ll_emit(o, n, sym, fid, depth, fl);
		}
		if (descend && ts_tree_cursor_goto_first_child(&c)) {
			depth++;
			continue;
		}
		bool done = false;
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (depth == 0 || !ts_tree_cursor_goto_parent(&c)) { done = true; break; }
			depth--;
		}
		if (done || depth == 0) break;
	}
	ts_tree_cursor_delete(&c);
	ts_tree_delete(t);
	return o->failed ? -2 : 0;
}

static TSParser *ll_parser(const TSLanguage *l) {
	TSParser *p = ts_parser_new();
	if (p && !ts_parser_set_language(p, l)) { ts_parser_delete(p); return NULL; }
	return p;
}

// tree-sitter's own allocator (libc) instead of go-tree-sitter's, which calls back into Go
// for every allocation of the parser.
static void ll_default_allocator(void) { ts_set_allocator(NULL, NULL, NULL, NULL); }
*/
import "C"

import (
	"errors"
	"sync"
	"unsafe"
)

func init() { C.ll_default_allocator() }

// kind flags of grammar.flags, as the C walk reads them
const (
	llAnon  = C.LL_ANON
	llDrop  = C.LL_DROP
	llPrune = C.LL_PRUNE
)

// cParsers pools C parsers per language (a parser is not safe for concurrent use).
// errorKind is the KindID of the ERROR nodes the copy makes.
var errorKind = KindID("ERROR")

var cParsers sync.Map // Lang -> *sync.Pool of *C.TSParser

// flatParse parses src with the grammar and returns the kept nodes in preorder.
func flatParse(l Lang, g *grammar, src []byte) ([]C.ll_rec, bool, error) {
	pv, _ := cParsers.LoadOrStore(l, &sync.Pool{New: func() any {
		p := C.ll_parser((*C.TSLanguage)(g.ptr))
		if p == nil {
			return nil
		}
		return p
	}})
	pool := pv.(*sync.Pool)
	p, _ := pool.Get().(*C.TSParser)
	if p == nil {
		return nil, false, errNoParser
	}
	defer pool.Put(p)
	var o C.ll_out
	var s *C.char
	if len(src) > 0 {
		s = (*C.char)(unsafe.Pointer(&src[0]))
	}
	rc := C.ll_parse(p, s, C.uint32_t(len(src)), (*C.uint8_t)(unsafe.Pointer(&g.flags[0])), C.uint32_t(len(g.flags)), C.uint16_t(MaxDepth), &o)
	defer C.free(unsafe.Pointer(o.recs))
	switch rc {
	case -1:
		return nil, false, errGaveUp
	case -2:
		return nil, false, errNoMemory
	}
	recs := make([]C.ll_rec, int(o.n))
	if o.n > 0 {
		copy(recs, unsafe.Slice(o.recs, int(o.n)))
	}
	return recs, bool(o.errs), nil
}

var (
	errNoParser = errors.New("cannot create a parser")
	errGaveUp   = errors.New("the parser gave up")
	errNoMemory = errors.New("out of memory copying the tree")
)

// build makes the nodes of the preorder records (each with its depth in the C tree; a
// kept node's ancestors are all kept): one allocation for the nodes, one for all child lists.
func (c *copier) build(recs []C.ll_rec) *Node {
	g, t := c.g, c.t
	kept := 0
	for i := range recs {
		if recs[i].flags&C.LL_SKIPPED == 0 {
			kept++
		}
	}
	if kept == 0 {
		return nil
	}
	nodes := make([]Node, kept)
	parent := make([]int32, kept)
	nkids := make([]int32, kept)
	var stack [MaxDepth + 2]int32
	k := 0
	for i := range recs {
		r := &recs[i]
		start := int(r.start)
		if r.flags&C.LL_SKIPPED != 0 {
			l := c.line(start)
			t.Errors = append(t.Errors, Region{Line: l, EndLine: l, Start: start, End: start, Missing: true})
			continue
		}
		out := &nodes[k]
		id := int(r.sym)
		out.Start, out.End = start, int(r.end)
		if id < len(g.kinds) {
			out.Kind, out.KindID, out.Named = g.kinds[id], g.ids[id], g.named[id]
		}
		if id == 65535 { // ts_builtin_sym_error
			out.Kind, out.KindID, out.Named, out.Error = "ERROR", errorKind, true, true
		}
		if fid := int(r.field); fid > 0 && fid < len(g.fields) {
			out.Field = g.fields[fid]
		}
		out.Line = c.line(out.Start)
		out.EndLine = out.Line
		if out.End > out.Start {
			out.EndLine = c.line(out.End - 1)
		}
		out.Missing = r.flags&C.LL_MISSING != 0
		if out.Error || out.Missing {
			t.Errors = append(t.Errors, Region{Line: out.Line, EndLine: out.EndLine, Start: out.Start, End: out.End, Missing: out.Missing})
		}
		if r.flags&C.LL_TOODEEP != 0 {
			t.Errors = append(t.Errors, Region{Line: out.Line, EndLine: out.EndLine, Start: out.Start, End: out.End})
		}
		d := int(r.depth)
		if d > MaxDepth+1 {
			d = MaxDepth + 1
		}
		stack[d] = int32(k)
		parent[k] = -1
		if d > 0 {
			parent[k] = stack[d-1]
			nkids[stack[d-1]]++
		}
		k++
	}
	kids := make([]*Node, kept)
	off := make([]int32, kept)
	next := int32(0)
	for i := range nodes {
		off[i] = next
		next += nkids[i]
	}
	fill := make([]int32, kept)
	for i := 1; i < kept; i++ {
		p := parent[i]
		if p < 0 {
			continue
		}
		kids[off[p]+fill[p]] = &nodes[i]
		nodes[i].Parent = &nodes[p]
		fill[p]++
	}
	for i := range nodes {
		if n := nkids[i]; n > 0 {
			nodes[i].Children = kids[off[i] : off[i]+n : off[i]+n]
		}
	}
	return &nodes[0]
}
