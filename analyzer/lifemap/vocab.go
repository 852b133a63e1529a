package lifemap

import (
	"strings"
	"unicode"

	"github.com/lifeline-dev/lifeline/model"
)

// InferredSource is the Term.Source of a word taken from the mapped code's own structure
// rather than from a profile.
const InferredSource = "inferred"

// genericWords are identifier words that say nothing about a lifecycle layer: verbs every
// function name has, receivers, modifiers, and the words that name the model or tool call a
// step makes rather than the step itself. Identifier words outside this table are the
// framework's own words.
var genericWords = set("run", "runs", "do", "get", "set", "self", "this", "cls", "async", "sync",
	"impl", "internal", "private", "inner", "one", "single", "next", "new", "handle", "handler",
	"process", "execute", "exec", "call", "calls", "invoke", "fn", "func", "helper", "main",
	"start", "the", "a", "an", "of", "and", "with", "for", "to", "until", "done", "in", "on",
	"model", "llm", "chat", "completion", "completions", "response", "responses", "message",
	"messages", "generate", "stream", "streamed", "tool", "tools", "agent", "request", "config",
	"opts", "options", "len", "args", "kwargs", "ctx", "context", "state", "params", "props",
	"default", "defaults", "loop", "result", "results", "from", "by", "return", "raise", "throw", "error", "err", "f", "s", "i", "n", "x")

// receiverWords are the words of a bound's name that say where it is kept, not what it counts
// (self.config.default_max_turns).
var receiverWords = set("self", "this", "cls", "config", "cfg", "opts", "options", "params",
	"settings", "default", "defaults", "run", "agent", "ctx", "context", "state")

// boundWords are the words of a bound's name that say it is a limit, not what it counts
// (max_turns counts turns; limit_turns counts turns).
var boundWords = set("max", "maximum", "limit", "limits", "num", "count", "total", "allowed",
	"exceeded", "exceeds", "reached", "error", "exception", "err", "stop", "stopped", "cap", "budget", "threshold", "when", "until", "while", "condition", "conditions")

// maxRunTerms is how many entries' names a map shows as the words for Run.
const maxRunTerms = 4

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// inferTerms adds to m the framework's own words for lifeline's layers as the mapped code
// writes them: the name of each run entry (Run), the name of the function one turn-loop
// iteration is (a recursive or engine loop) or calls (Step), the bound's name and the error
// raised at it (Bound, and the counted noun for Step: max_turns counts turns) and the name
// an exit that waits hands back (Waiting). Each word cites where it was read.
func inferTerms(m *model.Map) {
	seen := map[string]bool{}
	for _, t := range m.Terms {
		seen[t.Text] = true
	}
	add := func(layer string, pos model.Position, words []string) {
		words = uniq(words)
		if len(words) == 0 {
			return
		}
		text := strings.Join(words, ", ") + " = " + layer
		if seen[text] {
			return
		}
		seen[text] = true
		m.Terms = append(m.Terms, model.Term{Text: text, Source: InferredSource, Pos: pos})
	}
	runs := 0
	for _, e := range m.Entries {
		// an entry's name is the framework's word for a Run when the entry runs a turn loop
		// (the others hand on to one); a few of them teach it
		if len(e.Loops) > 0 && runs < maxRunTerms {
			before := len(m.Terms)
			add("Run", e.Pos, runWords(e.Func))
			if len(m.Terms) > before {
				runs++
			}
		}
		for _, l := range e.Loops {
			var step []string
			switch l.Kind {
			case model.LoopRecursion, model.LoopEngine:
				step = append(step, funcWords(l.Func)...)
			default:
				for _, c := range l.ModelCalls {
					if len(c.Via) > 0 {
						step = append(step, funcWords(c.Via[0])...)
						break
					}
				}
			}
			var bound []string
			if l.Bound != nil {
				if id := lastIdent(l.Bound.Expr); id != "" {
					step = append(step, counted(id)...)
					bound = append(bound, id)
				}
			}
			if l.OnBound != nil && l.OnBound.Kind == model.OnBoundError {
				if id := firstIdent(l.OnBound.Value, true); id != "" && raisedAt(id, bound) {
					bound = append(bound, id)
				}
			}
			add("Step", l.Pos, step)
			if l.Bound != nil {
				add("Bound", l.Bound.Pos, bound)
			}
		}
		for _, x := range e.Exits {
			if x.Produces("waiting") {
				if id := firstIdent(x.Detail, true); id != "" && len(kept(id)) > 0 {
					add("Waiting", x.Pos, []string{id})
				}
			}
		}
	}
}

// raisedAt reports whether the error type raised at a bound names it: it shares a word with
// the bound's name (MaxTurnsExceeded at max_turns) or, for a bound with no name, says it is a
// limit (RecursionLimitError). A generic error (ValueError, fmt.Errorf) is not the bound's word.
func raisedAt(typ string, bound []string) bool {
	ws := kept(typ)
	if len(bound) == 0 {
		for _, w := range ws {
			if boundWords[w] {
				return true
			}
		}
		return false
	}
	named := map[string]bool{}
	for _, b := range counted(bound[0]) {
		for _, w := range strings.Fields(b) {
			named[w] = true
		}
	}
	for _, t := range counted(typ) {
		for _, w := range strings.Fields(t) {
			if named[w] {
				return true
			}
		}
	}
	return false
}

// runWords are an entry's words for Run: its type and method ("Runner.run", "Runner") and the
// method alone when it says more than "run".
func runWords(fn string) []string {
	name := strings.NewReplacer("(", "", ")", "", "*", "").Replace(fn)
	if i := strings.IndexAny(name, "[ "); i >= 0 {
		name = name[:i]
	}
	parts := strings.Split(name, ".")
	method := parts[len(parts)-1]
	var out []string
	if len(parts) >= 2 && isType(parts[len(parts)-2]) {
		typ := parts[len(parts)-2]
		out = append(out, typ+"."+method, typ)
	}
	if len(kept(method)) > 0 {
		out = append(out, method)
	}
	return out
}

// isType reports whether a qualified name's part is a type name (capitalized), not a package
// or module.
func isType(s string) bool {
	return s != "" && unicode.IsUpper([]rune(s)[0])
}

// funcWords are a per-iteration function's words: its kept identifier words and the whole
// name ("event_loop_cycle" → event, loop, cycle, event_loop_cycle).
func funcWords(fn string) []string {
	name := fn
	if i := strings.LastIndexAny(name, ".)"); i >= 0 {
		name = name[i+1:]
	}
	ws := kept(name)
	if len(ws) == 0 {
		return nil
	}
	if len(ws) > 1 || ws[0] != strings.ToLower(name) {
		ws = append(ws, name)
	}
	return ws
}

// counted returns what a bound's name counts, as one singular phrase ("max_turns" → turn,
// "max_tool_iterations" → tool iteration, "totalMaxRetries" → retry); nil when the
// name says nothing beyond being a limit.
func counted(id string) []string {
	var out []string
	for _, w := range splitWords(id) {
		if boundWords[w] || receiverWords[w] || len(w) < 2 {
			continue
		}
		out = append(out, w)
	}
	if len(out) == 0 {
		return nil
	}
	for i, w := range out {
		out[i] = singular(w)
	}
	return []string{strings.Join(out, " ")}
}

// singular is a word's singular by the English plural endings (turns → turn, retries → retry).
func singular(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	}
	return w
}

// kept returns the identifier's words outside genericWords.
func kept(id string) []string {
	var out []string
	for _, w := range splitWords(id) {
		if !genericWords[w] && len(w) > 1 {
			out = append(out, w)
		}
	}
	return out
}

// splitWords splits an identifier into lower-case words at underscores, digits and case
// changes ("runUntilDone" → run, until, done; "HTTPError" → http, error).
func splitWords(id string) []string {
	var out []string
	rs := []rune(id)
	start := -1
	flush := func(i int) {
		if start >= 0 && i > start {
			out = append(out, strings.ToLower(string(rs[start:i])))
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) {
			flush(i)
			continue
		}
		if start >= 0 && unicode.IsUpper(r) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush(i)
			}
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(rs))
	return out
}

// idents returns the identifiers of an expression as written, in order.
func idents(expr string) []string {
	var out []string
	f := strings.FieldsFunc(expr, func(r rune) bool {
		return !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r))
	})
	for _, s := range f {
		if s != "" && !unicode.IsDigit([]rune(s)[0]) {
			out = append(out, s)
		}
	}
	return out
}

// lastIdent is the last identifier of an expression that names something ("self.max_turns" →
// max_turns), skipping receivers and generic words; "" when there is none.
func lastIdent(expr string) string {
	if i := strings.IndexAny(expr, "\"'`"); i >= 0 {
		expr = expr[:i]
	}
	ids := idents(expr)
	for i := len(ids) - 1; i >= 0; i-- {
		// a name that only says "limit" (Max, stop) is not the framework's word for it
		if len(counted(ids[i])) > 0 || len(kept(ids[i])) > 1 {
			return ids[i]
		}
	}
	return ""
}

// firstIdent is the first identifier of an expression before any string literal (the error
// constructor of "new MaxTurnsExceededError(`…`)"); with typ, only a capitalized one.
func firstIdent(expr string, typ bool) string {
	if i := strings.IndexAny(expr, "\"'`"); i >= 0 {
		expr = expr[:i]
	}
	for _, id := range idents(expr) {
		if id == "new" || id == "raise" || id == "throw" || id == "return" || id == "errors" || id == "fmt" {
			continue
		}
		if typ && !isType(id) {
			continue
		}
		return id
	}
	return ""
}

// uniq drops repeated words, keeping the first.
func uniq(ws []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range ws {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}
