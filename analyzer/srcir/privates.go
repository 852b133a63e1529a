package srcir

import (
	"bytes"
	"regexp"
	"strings"
)

// tsc compiles a class's private members (#field, #method) below ES2022 into calls of its
// helpers, one WeakMap per field and a WeakSet of instances for the methods:
//
//	__classPrivateFieldGet(this, _Runner_state, "f")              this.#state
//	__classPrivateFieldSet(this, _Runner_state, v, "f")           this.#state = v
//	__classPrivateFieldGet(this, _Runner_instances, "m", _Runner_send).call(this, x)
//	                                                             this.#send(x)
//
// with the methods written as functions named _Runner_send beside the class. desugarPrivate
// rewrites the helpers' calls back into the member reads, assignments and method calls they
// stand for, on the source text and line for line (what it removes of a line's text it
// removes; the newlines of the removed text are kept), so that the lowering sees the fields
// as fields and the methods as this-calls. The names keep their "#" (this.#send, as in the
// TypeScript source): a class may have a public member of the same name. The helpers' names are language knowledge of the
// JS/TS tables (privateGets, privateSets).

var privateName = regexp.MustCompile(`^_[A-Za-z0-9$]+?_([A-Za-z_$][A-Za-z0-9_$]*)$`)

// desugarPrivate returns src with tsc's private-member helper calls rewritten, and whether
// anything was.
func desugarPrivate(src []byte, t *table) ([]byte, bool) {
	if len(t.privateGets) == 0 || !bytes.Contains(src, []byte("__classPrivateField")) {
		return src, false
	}
	out, changed := desugarText(string(src), t, 0)
	return []byte(out), changed
}

func desugarText(s string, t *table, depth int) (string, bool) {
	if depth > 8 || !strings.Contains(s, "__classPrivateField") {
		return s, false
	}
	var b strings.Builder
	changed := false
	i := 0
	for {
		j := strings.Index(s[i:], "__classPrivateField")
		if j < 0 {
			break
		}
		j += i
		name := identAt(s, j)
		open := j + len(name)
		if (!t.privateGets[name] && !t.privateSets[name]) || open >= len(s) || s[open] != '(' {
			b.WriteString(s[i : j+len("__classPrivateField")])
			i = j + len("__classPrivateField")
			continue
		}
		start := j
		// an optional module prefix: tslib_1.__classPrivateFieldGet
		if k := j - 1; k >= 0 && s[k] == '.' {
			p := k
			for p > 0 && isIdentByte(s[p-1]) {
				p--
			}
			if p < k {
				start = p
			}
		}
		args, end, ok := splitArgs(s, open)
		if !ok {
			b.WriteString(s[i : j+len("__classPrivateField")])
			i = j + len("__classPrivateField")
			continue
		}
		for k := range args {
			args[k], _ = desugarText(args[k], t, depth+1)
		}
		repl, stop := "", end
		if t.privateGets[name] {
			repl, stop = rewriteGet(s, args, end, t, depth)
		} else {
			repl = rewriteSet(args)
		}
		if repl == "" {
			b.WriteString(s[i : j+len("__classPrivateField")])
			i = j + len("__classPrivateField")
			continue
		}
		if lost := strings.Count(s[start:stop], "\n") - strings.Count(repl, "\n"); lost > 0 {
			repl += strings.Repeat("\n", lost)
		}
		b.WriteString(s[i:start])
		b.WriteString(repl)
		changed = true
		i = stop
	}
	b.WriteString(s[i:])
	return b.String(), changed
}

// rewriteGet rewrites a read: a field (recv, _C_f, "f") or a private method (recv, _C_instances,
// "m", _C_m), with the .call(recv, …) that follows a method read folded into a call.
func rewriteGet(s string, args []string, end int, t *table, depth int) (string, int) {
	if len(args) < 3 || len(args) > 4 {
		return "", end
	}
	recv := strings.TrimSpace(args[0])
	field := args[1]
	if len(args) == 4 {
		field = args[3]
	}
	m := privateName.FindStringSubmatch(strings.TrimSpace(field))
	if m == nil || recv == "" {
		return "", end
	}
	member := recv + ".#" + m[1]
	if strings.Trim(strings.TrimSpace(args[2]), `"'`) != "m" {
		return member, end
	}
	// .call(recv, x, …) / .apply: the method called on recv
	rest := s[end:]
	for _, inv := range []string{".call(", ".apply("} {
		if !strings.HasPrefix(rest, inv) || !t.invokes[inv[1:len(inv)-1]] {
			continue
		}
		cargs, cend, ok := splitArgs(s, end+len(inv)-1)
		if !ok || len(cargs) == 0 || strings.TrimSpace(cargs[0]) != recv {
			break
		}
		for k := range cargs {
			cargs[k], _ = desugarText(cargs[k], t, depth+1)
		}
		if inv == ".apply(" {
			if len(cargs) == 1 {
				return member + "()", cend
			}
			return member + "(..." + strings.TrimSpace(cargs[1]) + ")", cend
		}
		return member + "(" + strings.TrimLeft(strings.Join(cargs[1:], ","), " ") + ")", cend
	}
	return member, end
}

// rewriteSet rewrites a write (recv, _C_f, value, "f"), or of a static field (recv, _C, value,
// "f", _C_f), into an assignment.
func rewriteSet(args []string) string {
	if len(args) < 4 || len(args) > 5 {
		return ""
	}
	recv := strings.TrimSpace(args[0])
	field := args[1]
	if len(args) == 5 {
		field = args[4]
	}
	m := privateName.FindStringSubmatch(strings.TrimSpace(field))
	if m == nil || recv == "" {
		return ""
	}
	member := recv + ".#" + m[1]
	v := strings.TrimSpace(args[2])
	if inc := postIncrement.FindStringSubmatch(v); inc != nil && inc[1] == inc[4] && inc[1] == inc[6] &&
		strings.TrimSpace(inc[2]) == member && inc[3]+inc[5] != "" {
		// this.#count++ compiles to a write of (_a = this.#count, _a++, _a)
		return "(" + member + inc[3] + inc[5] + ")"
	}
	return "(" + member + " = " + v + ")"
}

// postIncrement matches tsc's value of a private field's x++ / x--: (_a = x, _a++, _a).
var postIncrement = regexp.MustCompile(`^\(\s*([A-Za-z_$][A-Za-z0-9_$]*)\s*=\s*(.+?)\s*,\s*(\+\+|--)?\s*([A-Za-z_$][A-Za-z0-9_$]*)\s*(\+\+|--)?\s*,\s*([A-Za-z_$][A-Za-z0-9_$]*)\s*\)$`)

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// identAt returns the identifier starting at s[i].
func identAt(s string, i int) string {
	j := i
	for j < len(s) && isIdentByte(s[j]) {
		j++
	}
	return s[i:j]
}

// splitArgs splits the argument list whose "(" is at s[open] at its top-level commas,
// skipping strings, template literals and comments; it returns the arguments, the offset after
// the closing ")" and whether the list is well formed.
func splitArgs(s string, open int) ([]string, int, bool) {
	var args []string
	depth := 0
	last := open + 1
	for i := open; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				if c != ')' {
					return nil, 0, false
				}
				if a := s[last:i]; strings.TrimSpace(a) != "" || len(args) > 0 {
					args = append(args, a)
				}
				return args, i + 1, true
			}
			if depth < 0 {
				return nil, 0, false
			}
		case ',':
			if depth == 1 {
				args = append(args, s[last:i])
				last = i + 1
			}
		case '"', '\'', '`':
			k := skipString(s, i)
			if k < 0 {
				return nil, 0, false
			}
			i = k
		case '/':
			if i+1 < len(s) && s[i+1] == '/' {
				k := strings.IndexByte(s[i:], '\n')
				if k < 0 {
					return nil, 0, false
				}
				i += k
			} else if i+1 < len(s) && s[i+1] == '*' {
				k := strings.Index(s[i+2:], "*/")
				if k < 0 {
					return nil, 0, false
				}
				i += k + 3
			}
		}
	}
	return nil, 0, false
}

// skipString returns the offset of the quote closing the string or template literal opened
// at s[i] (-1 if none); a template's ${…} parts are skipped by brace depth.
func skipString(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j
		case '\n':
			if q != '`' {
				return -1
			}
		case '$':
			if q == '`' && j+1 < len(s) && s[j+1] == '{' {
				d, k := 0, j+1
			part:
				for ; k < len(s); k++ {
					switch s[k] {
					case '{':
						d++
					case '}':
						if d--; d == 0 {
							break part
						}
					case '"', '\'', '`':
						e := skipString(s, k)
						if e < 0 {
							return -1
						}
						k = e
					}
				}
				if k >= len(s) {
					return -1
				}
				j = k
			}
		}
	}
	return -1
}
