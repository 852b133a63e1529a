//go:build cgo

package syntax

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

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

// The allocator tree-sitter uses (ll_install_allocator): every block has a 16-byte header,
// its size and where it comes from. While a thread parses in its arena (ll_arena_begin to
// ll_arena_end) blocks are carved from the arena's chunks and freeing one does nothing;
// otherwise they come from libc. A block is freed or grown by its header, whichever was
// active when it was allocated.
enum { LL_HDR = 16, LL_CHUNK_HDR = 32, LL_CHUNK = 1 << 20 };
static const size_t LL_FROM_LIBC = 0x6c6962636d656dULL, LL_FROM_ARENA = 0x6172656e616d656dULL;

typedef struct ll_chunk { struct ll_chunk *next; size_t cap, used; } ll_chunk;

static __thread ll_chunk *ll_chunks; // the active arena's chunks, newest first
static __thread bool ll_active;
// ll_spare keeps up to LL_KEEP standard chunks of the thread's last arena for its next one
// (a fresh chunk is fresh pages: one page fault per 4 KB)
enum { LL_KEEP = 4 };
static __thread ll_chunk *ll_spare;
static __thread int ll_nspare;

static void ll_oom(size_t n) {
	fprintf(stderr, "tree-sitter failed to allocate %zu bytes", n);
	abort();
}

static size_t ll_round(size_t n) { return (n + 15) & ~(size_t)15; }

static void *ll_malloc(size_t size) {
	if (size > SIZE_MAX - LL_HDR - LL_CHUNK_HDR - 16) ll_oom(size);
	size_t *h;
	if (!ll_active) {
		h = malloc(LL_HDR + size);
		if (!h) ll_oom(size);
		h[1] = LL_FROM_LIBC;
	} else {
		size_t need = LL_HDR + ll_round(size);
		ll_chunk *c = ll_chunks;
		if (!c || c->cap - c->used < need) {
			size_t cap = need > LL_CHUNK ? need : LL_CHUNK;
			if (cap == LL_CHUNK && ll_spare) {
				c = ll_spare;
				ll_spare = c->next;
				ll_nspare--;
			} else if (!(c = malloc(LL_CHUNK_HDR + cap))) {
				ll_oom(size);
			}
			c->cap = cap;
			c->used = 0;
			c->next = ll_chunks;
			ll_chunks = c;
		}
		h = (size_t *)((char *)c + LL_CHUNK_HDR + c->used);
		c->used += need;
		h[1] = LL_FROM_ARENA;
	}
	h[0] = size;
	return h + 2;
}

static void *ll_calloc(size_t n, size_t size) {
	if (size && n > SIZE_MAX / size) ll_oom(SIZE_MAX);
	void *p = ll_malloc(n * size);
	memset(p, 0, n * size);
	return p;
}

static void ll_free(void *p) {
	if (!p) return;
	size_t *h = (size_t *)p - 2;
	if (h[1] == LL_FROM_LIBC) free(h);
}

static void *ll_realloc(void *p, size_t size) {
	if (!p) return ll_malloc(size);
	size_t *h = (size_t *)p - 2;
	if (h[1] == LL_FROM_LIBC) {
		if (size > SIZE_MAX - LL_HDR) ll_oom(size);
		h = realloc(h, LL_HDR + size);
		if (!h) ll_oom(size);
		h[0] = size;
		return h + 2;
	}
	size_t old = h[0];
	if (size <= old) return p;
	ll_chunk *c = ll_chunks;
	if (ll_active && c && (char *)p + ll_round(old) == (char *)c + LL_CHUNK_HDR + c->used &&
			size <= SIZE_MAX - 16 && c->cap - c->used >= ll_round(size) - ll_round(old)) {
		// the chunk's last block grows in place
		c->used += ll_round(size) - ll_round(old);
		h[0] = size;
		return p;
	}
	void *n = ll_malloc(size);
	memcpy(n, p, old);
	return n;
}

static void ll_arena_begin(void) { ll_active = true; }

static void ll_arena_end(void) {
	ll_active = false;
	while (ll_chunks) {
		ll_chunk *c = ll_chunks;
		ll_chunks = c->next;
		if (c->cap == LL_CHUNK && ll_nspare < LL_KEEP) {
			c->next = ll_spare;
			ll_spare = c;
			ll_nspare++;
		} else {
			free(c);
		}
	}
}

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
	if (!ll_active) ts_tree_delete(t); // an arena's tree goes with the arena (ll_arena_end)
	return o->failed ? -2 : 0;
}

static TSParser *ll_parser(const TSLanguage *l) {
	TSParser *p = ts_parser_new();
	if (p && !ts_parser_set_language(p, l)) { ts_parser_delete(p); return NULL; }
	return p;
}

// ll_parse_in_arena parses with a parser of its own whose every allocation (the parser's,
// the tree's, the cursor's) comes from this thread's arena, and drops the arena at the end:
// no tree to delete node by node, no malloc/free per subtree. The external scanners
// allocate with libc themselves; ts_parser_delete frees their state.
static int ll_parse_in_arena(const TSLanguage *l, const char *src, uint32_t len, const uint8_t *tab,
		uint32_t ntab, uint16_t maxDepth, ll_out *o) {
	ll_arena_begin();
	int rc = -3;
	TSParser *p = ll_parser(l);
	if (p) {
		rc = ll_parse(p, src, len, tab, ntab, maxDepth, o);
		ts_parser_delete(p);
	}
	ll_arena_end();
	return rc;
}

static void ll_install_allocator(void) { ts_set_allocator(ll_malloc, ll_calloc, ll_realloc, ll_free); }
*/
import "C"

import (
	"errors"
	"unsafe"
)

func init() { C.ll_install_allocator() }

// kind flags of grammar.flags, as the C walk reads them
const (
	llAnon  = C.LL_ANON
	llDrop  = C.LL_DROP
	llPrune = C.LL_PRUNE
)

// errorKind is the KindID of the ERROR nodes the copy makes.
var errorKind = KindID("ERROR")

// flatParse parses src with the grammar and returns the kept nodes in preorder, in C memory
// that release frees (the records are read once, by build: no copy into Go memory). Each
// call has a C parser of its own (ll_parse_in_arena): parsers are not safe for concurrent
// use, and one made in the parse's arena goes with it.
func flatParse(l Lang, g *grammar, src []byte) (recs []C.ll_rec, errs bool, release func(), err error) {
	var o C.ll_out
	var s *C.char
	if len(src) > 0 {
		s = (*C.char)(unsafe.Pointer(&src[0]))
	}
	rc := C.ll_parse_in_arena((*C.TSLanguage)(g.ptr), s, C.uint32_t(len(src)), (*C.uint8_t)(unsafe.Pointer(&g.flags[0])), C.uint32_t(len(g.flags)), C.uint16_t(MaxDepth), &o)
	release = func() { C.free(unsafe.Pointer(o.recs)) }
	switch rc {
	case -1:
		release()
		return nil, false, nil, errGaveUp
	case -2:
		release()
		return nil, false, nil, errNoMemory
	case -3:
		release()
		return nil, false, nil, errNoParser
	}
	if o.n > 0 {
		recs = unsafe.Slice(o.recs, int(o.n))
	}
	return recs, bool(o.errs), release, nil
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
	nkids := make([]int32, kept) // the only scratch array: the parents are the nodes' own Parent
	var stack [MaxDepth + 2]int32
	k := 0
	for i := range recs {
		r := &recs[i]
		start := int(r.start)
		if r.flags&C.LL_SKIPPED != 0 {
			l := c.line(start)
			exp := ""
			if id := int(r.sym); id < len(g.kinds) {
				exp = g.kinds[id]
			}
			t.Errors = append(t.Errors, Region{Line: l, EndLine: l, Start: start, End: start, Missing: true, Expected: exp})
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
			exp := ""
			if out.Missing {
				exp = out.Kind
			}
			t.Errors = append(t.Errors, Region{Line: out.Line, EndLine: out.EndLine, Start: out.Start, End: out.End, Missing: out.Missing, Expected: exp})
		}
		if r.flags&C.LL_TOODEEP != 0 {
			t.Errors = append(t.Errors, Region{Line: out.Line, EndLine: out.EndLine, Start: out.Start, End: out.End})
		}
		d := int(r.depth)
		if d > MaxDepth+1 {
			d = MaxDepth + 1
		}
		stack[d] = int32(k)
		if d > 0 {
			out.Parent = &nodes[stack[d-1]]
			nkids[stack[d-1]]++
		}
		k++
	}
	// each node's children are a full-capacity window of one list, filled in preorder (the
	// appends stay inside the window: nothing is reallocated)
	kids := make([]*Node, kept)
	next := int32(0)
	for i := range nodes {
		if n := nkids[i]; n > 0 {
			nodes[i].Children = kids[next : next : next+n]
			next += n
		}
	}
	for i := 1; i < kept; i++ {
		if p := nodes[i].Parent; p != nil {
			p.Children = append(p.Children, &nodes[i])
		}
	}
	return &nodes[0]
}
