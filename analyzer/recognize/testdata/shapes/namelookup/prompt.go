// Package namelookup renders the documents a session has loaded into a prompt: a loop that
// calls something returning names, leaves when there are none, and passes each name to a
// repository that returns a record whose fields are written back into the session. A name
// handed alone to a lookup selects a record, not a callable run with a tool call's
// arguments: no tool dispatch, no turn loop.
package namelookup

import (
	"context"
	"strings"
)

// Doc is a stored document.
type Doc struct {
	Body string
	Next string
}

// Repo stores documents (implemented elsewhere).
type Repo interface {
	Get(name string) (*Doc, error)
}

// Builder builds prompts from a session's state.
type Builder struct {
	repo Repo
	seen map[string]bool
}

func (b *Builder) loaded(keys []string) []string {
	var names []string
	for _, k := range keys {
		if name := strings.TrimPrefix(k, "loaded:"); !b.seen[name] {
			b.seen[name] = true
			names = append(names, name)
		}
	}
	return names
}

// Build renders every loaded document, following the documents they load in turn.
func (b *Builder) Build(ctx context.Context) (string, error) {
	var sb strings.Builder
	keys := []string{"loaded:index"}
	for {
		names := b.loaded(keys)
		if len(names) == 0 {
			return sb.String(), nil
		}
		for _, name := range names {
			doc, err := b.repo.Get(name)
			if err != nil {
				return "", err
			}
			sb.WriteString(doc.Body)
			keys = append(keys, "loaded:"+doc.Next)
		}
	}
}
