package srcir

import (
	"slices"
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/syntax"
)

// dslLoopMeths are the methods of a workflow builder that declare a loop over a step:
// wf.dowhile(step, cond) runs step, then cond, again while cond holds (dountil: until it
// holds). The builder only records the pair (@mastra/core@1.71.0 dist/agent-BOxKOk3n.js:
// 5576-5638 Workflow.dowhile / dountil push { type: "loop", step, condition } onto
// stepFlow); the workflow engine runs it later (executeLoop, 1360-1512: do {
// executeChildEntry(step) ; isTrue = await condition(…) } while (…)).
var dslLoopMeths = map[string]bool{"dowhile": true, "dountil": true, "doWhile": true, "doUntil": true}

// dslEachMeths are the builder methods that run a step once per element of what the
// previous step returned (.foreach(toolCallStep, { concurrency })).
var dslEachMeths = map[string]bool{"foreach": true, "forEach": true, "each": true}

// dslLoop is one workflow-DSL loop: its step functions in the order the workflow runs them,
// those run once per element, and the condition.
type dslLoop struct {
	steps []*fnState
	each  map[*fnState]bool
	// conc are the per-element steps the options run concurrently
	conc map[*fnState]bool
	cond *fnState
}

// dslStep is a step function's place in a dslLoop.
type dslStep struct {
	loop *dslLoop
	idx  int
}

// dslLoops reads a workflow-DSL loop, b.dowhile(step, cond) with cond a function written in
// place and step a value built by calls, as a loop at the call: its body runs what the step
// carries (the callbacks handed to the calls that built it, through the functions that
// built it, a few calls deep: createWorkflow(…).then(llmStep).foreach(toolStep) with
// llmStep = createStep({ execute: async (…) => { … model.doStream(…) … } })) and the
// condition. The engine's own loop is generic (it runs every loop of every workflow) and
// reaches the steps only through values it looks up at run time, so the declaration is the
// turn loop (@mastra/core@1.71.0 dist/agent-BOxKOk3n.js:30558 .dowhile(agenticExecutionWorkflow,
// async ({ inputData }) => { … })). Runs after the calls resolved (the callbacks' Funcs and
// the builders' targets are known), before the loops' facts; the flows then pipe what a
// step returns into the next step's input (pipeSteps).
func (b *builder) dslLoops() {
	for _, fs := range b.funcs {
		if fs.mod.t.lang == "python" {
			continue
		}
		for i, ci := range fs.callInfo {
			if i >= len(fs.f.Calls) || !dslLoopMeths[fs.f.Calls[i].Method] {
				continue
			}
			args := ci.node.Child("arguments")
			if args == nil {
				continue
			}
			as := args.NamedChildren()
			if len(as) < 2 {
				continue
			}
			cond := fs.kidsByNode[strip(as[1])]
			step := strip(as[0])
			if cond == nil || step == nil || fs.kidsByNode[step] != nil {
				continue
			}
			dl := &dslLoop{each: map[*fnState]bool{}, conc: map[*fnState]bool{}, cond: cond}
			b.carriedFuncs(fs, step, 0, false, map[*syntax.Node]bool{}, dl)
			if len(dl.steps) == 0 {
				continue
			}
			c := &fs.f.Calls[i]
			m := fs.mod
			id := len(fs.f.Loops)
			outer := -1
			if len(c.Loops) > 0 {
				outer = c.Loops[0]
			}
			at, src := c.Pos, c.Source
			if fn := strip(ci.node.Child("function")); fn != nil && fn.Kind == "member_expression" {
				// a builder chain's call starts at the chain's head: the loop is where its
				// method is named (}).dowhile(…))
				if pr := fn.Child("property"); pr != nil {
					at, src = m.pos(pr), m.source(pr)
				}
			}
			fs.f.Loops = append(fs.f.Loops, ir.Loop{ID: id, Kind: ir.LoopFor, Pos: at, Source: src,
				End: ir.Pos{File: m.file, Line: ci.node.EndLine + 1}, Outer: outer, OverCall: -1})
			fs.loopNodes = append(fs.loopNodes, ci.node)
			c.Loops = append([]int{id}, c.Loops...)
			fs.callInfo[i].loops = c.Loops
			c.RunsArgs = true
			for _, k := range dl.steps {
				if k != cond && !slices.Contains(c.ArgFuncs, k.f.ID) {
					c.ArgFuncs = append(c.ArgFuncs, k.f.ID)
				}
			}
			if b.dslSteps == nil {
				b.dslSteps = map[*fnState]dslStep{}
			}
			for j, k := range dl.steps {
				if _, ok := b.dslSteps[k]; !ok {
					b.dslSteps[k] = dslStep{dl, j}
				}
				if dl.conc[k] && k.f.Launch == "" {
					k.f.Launch = "go"
				}
			}
		}
	}
}

// carriedFuncs adds to dl the functions a value built by calls carries, in the order a
// builder chain lists them: the callbacks handed to the calls that build it (as arguments or
// as options of an object), the values handed to them in turn, and what the functions
// called return, up to a few calls deep. each marks what a per-element method was handed.
func (b *builder) carriedFuncs(fs *fnState, n *syntax.Node, depth int, each bool, seen map[*syntax.Node]bool, dl *dslLoop) {
	n = strip(n)
	if n == nil || depth > 6 || seen[n] || len(dl.steps) > 64 {
		return
	}
	seen[n] = true
	m := fs.mod
	add := func(k *fnState) {
		if k != nil && !slices.Contains(dl.steps, k) {
			dl.steps = append(dl.steps, k)
			if each {
				dl.each[k] = true
			}
		}
	}
	if k := fs.kidsByNode[n]; k != nil {
		add(k)
		return
	}
	switch {
	case m.t.idents.has(n):
		name := m.text(n)
		for s := fs; s != nil; s = s.parent {
			found := false
			for _, a := range s.assigns {
				if len(a.lhs) == 1 && a.lhs[0] == name && !a.iter {
					found = true
					b.carriedFuncs(s, a.rhs, depth, each, seen, dl)
				}
			}
			if found || s.params[name] {
				return
			}
		}
	case n.Kind == "object":
		for _, pr := range n.NamedChildren() {
			switch pr.Kind {
			case "pair":
				b.carriedFuncs(fs, pr.Child("value"), depth, each, seen, dl)
			case "method_definition":
				add(fs.kidsByNode[pr])
			case "shorthand_property_identifier":
				b.carriedFuncs(fs, pr, depth, each, seen, dl)
			}
		}
	case m.t.calls.has(n) || m.t.news.has(n):
		id, ok := fs.callOf[n]
		if !ok {
			return
		}
		c := &fs.f.Calls[id]
		if fn := strip(n.Child("function")); fn != nil && fn.Kind == "member_expression" {
			// builder chains: createWorkflow(…).then(a).foreach(b).commit(), the head first
			b.carriedFuncs(fs, fn.Child("object"), depth, each, seen, dl)
		}
		perElem := each || dslEachMeths[c.Method]
		if args := n.Child("arguments"); args != nil {
			as := args.NamedChildren()
			before := len(dl.steps)
			for _, a := range as {
				b.carriedFuncs(fs, a, depth, perElem, seen, dl)
			}
			if dslEachMeths[c.Method] && len(as) > 1 && concurrentOption(fs, as[1]) {
				// .foreach(toolCallStep, { concurrency: 10 }): the engine runs the elements'
				// steps side by side (@mastra/core@1.71.0 dist/agent-BOxKOk3n.js:30518, a
				// fastq queue of that concurrency at 1693)
				for _, k := range dl.steps[before:] {
					dl.conc[k] = true
				}
			}
		}
		for _, k := range c.ArgFuncs {
			add(b.funcs[k])
		}
		if len(c.Targets) > 3 {
			return
		}
		for _, t := range c.Targets {
			g := b.funcs[t]
			if g.body == nil {
				continue
			}
			if g.exprBody {
				b.carriedFuncs(g, g.body, depth+1, perElem, seen, dl)
				continue
			}
			for _, rn := range g.retNodes {
				if g.mod.t.raises.has(rn) {
					continue
				}
				if kids := rn.NamedChildren(); len(kids) == 1 {
					b.carriedFuncs(g, kids[0], depth+1, perElem, seen, dl)
				}
			}
		}
	}
}

// inputNames are the names a step function binds its first parameter to: the parameter, or
// the names its destructuring binds (async ({ inputData }) => …).
func inputNames(g *fnState) map[string]bool {
	out := map[string]bool{}
	if len(g.patNames) > 0 && g.patNames[0] != nil {
		for _, v := range g.patNames[0] {
			out[v] = true
		}
	} else if len(g.f.Params) > 0 && g.f.Params[0].Name != "" {
		out[g.f.Params[0].Name] = true
	}
	return out
}

// returnsDerived reports whether g hands back a value derived from vars.
func returnsDerived(g *fnState, vars map[string]bool) bool {
	if g.exprBody {
		return derives(g.mod, g.body, vars, 0)
	}
	for _, rn := range g.retNodes {
		if g.mod.t.raises.has(rn) {
			continue
		}
		if kids := rn.NamedChildren(); len(kids) == 1 && derives(g.mod, kids[0], vars, 0) {
			return true
		}
	}
	return false
}

// pipeSteps follows a call's result on through a workflow-DSL loop: the step function that
// makes the call hands back a value derived from the result, the engine hands it to the next
// step as its input (to each of its elements' runs for a per-element step), and to the
// loop's condition, whose return decides whether the loop goes round again (@mastra/core@
// 1.71.0 dist/agent-BOxKOk3n.js: the LLM step's output, the map step returning its
// toolCalls, foreach(toolCallStep) looking each tool up by name, the dowhile condition
// returning stepResult.isContinued). What the later steps test and dispatch is recorded on
// fl as for a helper the result is handed to.
func (b *builder) pipeSteps(fs *fnState, fl *ir.Flow, vals map[string]bool, ci callInfo, mc *ir.Call) {
	model := ci.node
	p, ok := b.dslSteps[fs]
	if !ok || !returnsDerived(fs, vals) {
		return
	}
	for _, g := range p.loop.steps[p.idx+1:] {
		if g == p.loop.cond {
			continue
		}
		in := inputNames(g)
		if len(in) == 0 {
			continue
		}
		var names, toolVars map[string]bool
		if p.loop.each[g] {
			names, toolVars = b.follow(fl, scope(g), map[string]bool{}, in, model, 1, map[int]bool{g.f.ID: true})
		} else {
			names, toolVars = b.follow(fl, scope(g), in, map[string]bool{}, model, 1, map[int]bool{g.f.ID: true})
		}
		if !fl.FeedsNext && len(fl.Dispatch) > 0 {
			// what a later step's tools produce goes back into what the model call is
			// handed (the same conversation, the step creators' shared option)
			b.feeds(fs, scope(g), fl, ci, mc, union(in, union(names, toolVars)), vals)
		}
	}
	g := p.loop.cond
	in := inputNames(g)
	if len(in) == 0 {
		return
	}
	names, _ := b.follow(fl, scope(g), in, map[string]bool{}, model, 1, map[int]bool{g.f.ID: true})
	vars := union(in, names)
	m := g.mod
	for ri, rn := range g.retNodes {
		if m.t.raises.has(rn) {
			continue
		}
		if kids := rn.NamedChildren(); len(kids) == 1 && derives(m, kids[0], vars, 0) {
			// return inputData.stepResult?.isContinued ?? false: the loop leaves when it is
			// false (a final answer)
			fl.Checked = append(fl.Checked, ir.Check{Pos: m.pos(rn), Text: clip(oneLine(m.text(kids[0])), 100), Leaves: true, Return: ri, Func: g.f.ID})
		}
	}
}

// concurrentOption reports whether the options a per-element step is run with set a
// concurrency other than 1 ({ concurrency: 10 }, or a local assigned such an object).
func concurrentOption(fs *fnState, n *syntax.Node) bool {
	n = strip(n)
	m := fs.mod
	if n != nil && m.t.idents.has(n) {
		for s := fs; s != nil; s = s.parent {
			for _, a := range s.assigns {
				if len(a.lhs) == 1 && a.lhs[0] == m.text(n) && !a.iter {
					return concurrentOption(s, a.rhs)
				}
			}
		}
		return false
	}
	if n == nil || n.Kind != "object" {
		return false
	}
	for _, pr := range n.NamedChildren() {
		if pr.Kind != "pair" || strings.Trim(m.text(pr.Child("key")), `"'`) != "concurrency" {
			continue
		}
		v := strings.TrimSpace(m.text(pr.Child("value")))
		return v != "1" && v != "0"
	}
	return false
}
