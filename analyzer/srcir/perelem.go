package srcir

import (
	"sort"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/syntax"
)

// Concurrency helpers (issue 11): a function of the set that applies one of its function
// parameters to each element of another parameter — items.map(execute), execute(items[i]),
// forEach, or a helper of the set it hands both on to — runs the callback its caller hands it
// once per element: mapWithConcurrency({ items, concurrency, execute }), pLimit-style pools,
// Promise.all(items.map(fn)) written in a helper. The callback's first parameter is then an
// element of the collection handed with it (the data flow follows it there), and when the
// helper runs the applications concurrently (under Promise.all, a task per element) the
// callback is launched once per element: its calls are concurrent.

// perElemArg is a callback that a call hands to a helper applying it per element of another
// of the call's arguments.
type perElemArg struct {
	kid  *fnState     // the callback, a closure of the calling function
	coll *syntax.Node // the argument (or option value) holding the elements
}

// application is a function parameter a helper applies per element of a collection parameter.
type application struct {
	coll       string // the collection parameter's local name
	concurrent bool
}

// paramLocals returns, for a function, its parameters' local names by position and option
// key: positional parameters as "#i", destructured options by key.
func paramLocals(fs *fnState) map[string]string {
	out := map[string]string{}
	for i, p := range fs.f.Params {
		if i < len(fs.patNames) && fs.patNames[i] != nil {
			for k, v := range fs.patNames[i] {
				out[itoa(i)+"."+k] = v
			}
			continue
		}
		if p.Name != "" && !strings.ContainsAny(p.Name, "{[") {
			out["#"+itoa(i)] = p.Name
		}
	}
	return out
}

// applications lists the function parameters fs applies per element of a collection
// parameter (by the function parameter's local name), following the helpers it hands both
// to, depth calls deep.
func (b *builder) applications(fs *fnState, depth int) map[string]application {
	if depth > 3 || fs.body == nil {
		return nil
	}
	if a, ok := b.apps[fs]; ok {
		return a
	}
	if b.apps == nil {
		b.apps = map[*fnState]map[string]application{}
	}
	b.apps[fs] = nil // (a helper handing both on to itself applies nothing more)
	out := b.applicationsOf(fs, depth)
	b.apps[fs] = out
	return out
}

// applicationsOf is applications without the memo.
func (b *builder) applicationsOf(fs *fnState, depth int) map[string]application {
	locals := map[string]bool{}
	for _, v := range paramLocals(fs) {
		locals[v] = true
	}
	if len(locals) < 2 {
		return nil
	}
	var out map[string]application
	add := func(p, coll string, conc bool) {
		if p == coll || !locals[p] || !locals[coll] {
			return
		}
		if out == nil {
			out = map[string]application{}
		}
		a := out[p]
		a.coll, a.concurrent = coll, a.concurrent || conc
		out[p] = a
	}
	// the elements a loop over a collection parameter binds (for (const it of items))
	elemOf := map[string]string{}
	for _, x := range scope(fs) {
		for _, a := range x.assigns {
			if a.iter && a.rhs != nil && locals[x.mod.text(strip(a.rhs))] {
				for _, n := range a.lhs {
					elemOf[n] = x.mod.text(strip(a.rhs))
				}
			}
		}
	}
	for _, x := range scope(fs) {
		m := x.mod
		launched := false
		for p := x; p != nil && p != fs.parent; p = p.parent {
			launched = launched || p.f.Launch == "all" || p.f.Launch == "go"
		}
		for j, ci := range x.callInfo {
			if j >= len(x.f.Calls) {
				break
			}
			c := &x.f.Calls[j]
			conc := launched || ci.conc != "" || c.Concurrent != ""
			args := ci.node.Child("arguments").NamedChildren()
			callee := calleeText(m, ci.node)
			// execute(items[i], i): the parameter called with an element; started without
			// waiting for it in a loop (running.push(fn(item)), awaited together later), the
			// applications overlap
			if locals[callee] {
				if len(ci.loops) > 0 && b.collected(x, ci.node) {
					conc = true
				}
				for _, a := range args {
					for coll := range locals {
						if coll != callee && ir.IdentIn(m.text(a), coll) {
							add(callee, coll, conc)
						}
					}
					if coll, ok := elemOf[m.text(strip(a))]; ok {
						add(callee, coll, conc)
					}
				}
				continue
			}
			// items.map(execute): an each-method of the collection handed the parameter
			if m.t.eachMethods[c.Method] {
				fn := strip(ci.node.Child("function"))
				if fn == nil || !m.t.members.has(fn) {
					continue
				}
				recv := m.text(strip(fn.Child("object")))
				for _, a := range args {
					if p := m.text(strip(a)); locals[p] && locals[recv] {
						add(p, recv, conc)
					}
				}
				continue
			}
			// a helper of the set handed both on
			if len(c.Targets) == 0 || len(c.Targets) > 3 {
				continue
			}
			for _, t := range c.Targets {
				tg := b.funcs[t]
				if tg == fs {
					continue
				}
				apps := b.applications(tg, depth+1)
				if len(apps) == 0 {
					continue
				}
				bound := boundArgs(m, tg, args)
				for key, a := range bound {
					p, ok := tg.localOf(key)
					if !ok {
						continue
					}
					app, ok := apps[p]
					if !ok {
						continue
					}
					for key2, a2 := range bound {
						if p2, ok := tg.localOf(key2); ok && p2 == app.coll {
							add(m.text(strip(a)), m.text(strip(a2)), conc || app.concurrent)
						}
					}
				}
			}
		}
	}
	return out
}

// localOf returns the local name of fs's parameter slot key (see paramLocals).
func (fs *fnState) localOf(key string) (string, bool) {
	if strings.HasPrefix(key, "#") {
		i := atoiSafe(key[1:])
		if i < 0 || i >= len(fs.f.Params) || i < len(fs.patNames) && fs.patNames[i] != nil {
			return "", false
		}
		n := fs.f.Params[i].Name
		return n, n != "" && !strings.ContainsAny(n, "{[")
	}
	i, k, ok := strings.Cut(key, ".")
	if !ok {
		return "", false
	}
	idx := atoiSafe(i)
	if idx < 0 || idx >= len(fs.patNames) || fs.patNames[idx] == nil {
		return "", false
	}
	v, ok := fs.patNames[idx][k]
	return v, ok && v != ""
}

// boundArgs maps a call's arguments to the parameter slots of tg (see paramLocals): a
// positional argument to "#i", each option of an object argument written in place to
// "i.key" when tg destructures that parameter.
func boundArgs(m *module, tg *fnState, args []*syntax.Node) map[string]*syntax.Node {
	out := map[string]*syntax.Node{}
	for i, a := range args {
		if a.Kind == "keyword_argument" {
			if v := a.Child("value"); v != nil {
				for j, p := range tg.f.Params {
					if p.Name == m.text(a.Child("name")) {
						out["#"+itoa(j)] = v
					}
				}
			}
			continue
		}
		if a.Kind == "object" && i < len(tg.patNames) && tg.patNames[i] != nil {
			for _, pr := range a.NamedChildren() {
				switch pr.Kind {
				case "pair":
					if v := pr.Child("value"); v != nil {
						out[itoa(i)+"."+strings.Trim(m.text(pr.Child("key")), `"'`)] = v
					}
				case "shorthand_property_identifier":
					out[itoa(i)+"."+m.text(pr)] = pr
				}
			}
			continue
		}
		out["#"+itoa(i)] = a
	}
	return out
}

// perElementLaunches finds, for every call of a helper that applies a callback per element
// (applications), the callbacks written in place that it hands over with their collections
// (fnState.perElem, read by the data flow), and marks the calls of a callback applied
// concurrently as launched concurrently ("all"). It runs once, on one goroutine, after the
// calls are resolved and before the flows.
func (b *builder) perElementLaunches() {
	appsOf := func(tg *fnState) map[string]application { return b.applications(tg, 0) }
	lookup := map[int]bool{}
	for _, fs := range b.funcs {
		_, _, ok := lookupParams(fs)
		lookup[fs.f.ID] = ok
	}
	for _, fs := range b.funcs {
		m := fs.mod
		// getOwn(tools, name): calls of lookup helpers are where a name may select a
		// callable, like a subscript
		idx, added := fs.index(), false
		for j, ci := range fs.callInfo {
			if j >= len(fs.f.Calls) {
				break
			}
			ts := fs.f.Calls[j].Targets
			if len(ts) == 0 || len(ts) > 3 || !m.t.idents.has(strip(ci.node.Child("function"))) {
				continue
			}
			all := true
			for _, t := range ts {
				all = all && lookup[t]
			}
			if all {
				idx.lookups = append(idx.lookups, ci.node)
				added = true
			}
		}
		if added {
			sort.SliceStable(idx.lookups, func(i, j int) bool { return idx.lookups[i].Start < idx.lookups[j].Start })
		}
		for j, ci := range fs.callInfo {
			if j >= len(fs.f.Calls) {
				break
			}
			c := &fs.f.Calls[j]
			if len(c.Targets) == 0 || len(c.Targets) > 3 || len(c.ArgFuncs) == 0 {
				continue
			}
			args := ci.node.Child("arguments").NamedChildren()
			for _, t := range c.Targets {
				tg := b.funcs[t]
				a := appsOf(tg)
				if len(a) == 0 {
					continue
				}
				bound := boundArgs(m, tg, args)
				for key, v := range bound {
					k := fs.kidsByNode[strip(v)]
					if k == nil {
						continue
					}
					p, ok := tg.localOf(key)
					if !ok {
						continue
					}
					app, ok := a[p]
					if !ok {
						continue
					}
					for key2, v2 := range bound {
						if p2, ok := tg.localOf(key2); !ok || p2 != app.coll {
							continue
						}
						if fs.perElem == nil {
							fs.perElem = map[int][]perElemArg{}
						}
						fs.perElem[j] = append(fs.perElem[j], perElemArg{kid: k, coll: v2})
						if app.concurrent {
							if k.f.Launch == "" {
								k.f.Launch = "all"
							}
							for _, x := range scope(k) {
								for i := range x.f.Calls {
									if x.f.Calls[i].Concurrent == "" {
										x.f.Calls[i].Concurrent = "all"
									}
								}
							}
						}
					}
				}
			}
		}
	}
}

func atoiSafe(s string) int {
	n := 0
	if s == "" {
		return -1
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return -1
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// collected reports whether call n of x is handed, as it is (not awaited), to a method that
// appends it to a collection (running.push(fn(item))): started and awaited later together.
func (b *builder) collected(x *fnState, n *syntax.Node) bool {
	p := b.parentIn(x, n)
	if p == nil || p.Kind != "arguments" && p.Kind != "argument_list" {
		return false
	}
	pc := b.parentIn(x, p)
	if pc == nil {
		return false
	}
	id, ok := x.callOf[pc]
	return ok && appendMeths[x.f.Calls[id].Method]
}
