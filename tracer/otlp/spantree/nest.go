package spantree

import (
	"sort"
	"strconv"
	"strings"
)

// Unflatten re-nests flattened attribute keys (OpenInference writes lists as
// "llm.output_messages.0.message.tool_calls.1.tool_call.function.name") under prefix: the keys
// that start with prefix+"." become a tree of maps, where maps whose keys are all indexes turn
// into lists in index order. It returns nil when no key has the prefix.
func Unflatten(flat map[string]any, prefix string) any {
	root := map[string]any{}
	found := false
	for k, v := range flat {
		rest, ok := strings.CutPrefix(k, prefix+".")
		if !ok {
			continue
		}
		found = true
		parts := splitPath(rest)
		m := root
		for i, p := range parts {
			if i == len(parts)-1 {
				if _, isMap := m[p].(map[string]any); !isMap {
					m[p] = v
				}
				break
			}
			next, ok := m[p].(map[string]any)
			if !ok {
				next = map[string]any{}
				m[p] = next
			}
			m = next
		}
	}
	if !found {
		return nil
	}
	return listify(root)
}

// splitPath splits a flattened key at the dots that precede or follow an index, keeping dotted
// attribute names such as "message.tool_calls" or "tool_call.function.name" together.
func splitPath(k string) []string {
	segs := strings.Split(k, ".")
	var out []string
	cur := ""
	for _, s := range segs {
		if isIndex(s) {
			if cur != "" {
				out = append(out, cur)
				cur = ""
			}
			out = append(out, s)
			continue
		}
		if cur == "" {
			cur = s
		} else {
			cur += "." + s
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

func isIndex(s string) bool {
	if s == "" || len(s) > 6 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func listify(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	allIdx := len(m) > 0
	for k, x := range m {
		m[k] = listify(x)
		if !isIndex(k) {
			allIdx = false
		}
	}
	if !allIdx {
		return m
	}
	keys := make([]int, 0, len(m))
	for k := range m {
		n, _ := strconv.Atoi(k)
		keys = append(keys, n)
	}
	sort.Ints(keys)
	out := make([]any, 0, len(keys))
	for _, n := range keys {
		out = append(out, m[strconv.Itoa(n)])
	}
	return out
}
