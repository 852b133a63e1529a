package store

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer"
	"github.com/lifeline-dev/lifeline/tracer/canonical"
	"github.com/lifeline-dev/lifeline/tracer/otlp"
)

// Crash closes the journal and the index under the store's goroutines, without writing what is
// queued or updating the index: what a kill leaves behind. Batches not yet acknowledged fail.
func (s *Store) Crash() {
	s.closeFiles()
	s.once.Do(func() { close(s.closing) })
	if s.release != nil {
		close(s.release)
	}
	s.wg.Wait()
}

// OpenHeld opens a store whose writer stops before each group it takes: held receives the
// group's size and release lets the writer go on with it.
func OpenHeld(dir string, opts Options) (s *Store, held <-chan int, release chan<- struct{}, err error) {
	h, r := make(chan int), make(chan struct{})
	opts.hold = func() (chan int, chan struct{}) { return h, r }
	s, err = Open(dir, opts)
	return s, h, r, err
}

// Queued is how many batches wait in the write queue.
func (s *Store) Queued() int { return len(s.queue) }

// Rows are the rows of every run the projection holds, newest first.
func (s *Store) Rows() []RunRow { return s.allRows() }

// Reference is a whole read of a journal as `lifeline timeline DIR` does it: each run's row,
// and its tree and findings as JSON, by run id.
type Reference struct {
	Rows     map[string]RunRow
	Trees    map[string]string
	Findings map[string]string
}

// Snapshot is the same, from the store's projection.
func (s *Store) Snapshot() Reference {
	s.vmu.RLock()
	defer s.vmu.RUnlock()
	ref := Reference{Rows: map[string]RunRow{}, Trees: map[string]string{}, Findings: map[string]string{}}
	for id, r := range s.p.rows {
		ref.Rows[id] = r
		se := s.p.sessions[s.p.runSess[id]]
		t, fs, _ := s.p.view(se).runTree(id)
		ref.Trees[id], ref.Findings[id] = asJSON(t), asJSON(fs)
	}
	return ref
}

// FullRead reads the journal files of dir whole, with the file readers, into one projector and
// one checker (the projection a store used to redo at every batch).
func FullRead(dir string) (Reference, error) {
	proj, check := model.NewProjector(), model.NewChecker()
	sink := func(ev *model.Event) {
		check.Check(ev)
		proj.Apply(ev)
	}
	for _, part := range []struct{ name, format string }{{SpansFile, otlp.Name}, {EventsFile, canonical.Name}} {
		path := filepath.Join(dir, part.name)
		if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
			continue
		}
		if _, err := tracer.Read([]string{path}, tracer.Options{Format: part.format}, sink); err != nil {
			return Reference{}, err
		}
	}
	whole := newView(proj.Tree(), check.Finish())
	rows, _ := whole.rows()
	ref := Reference{Rows: map[string]RunRow{}, Trees: map[string]string{}, Findings: map[string]string{}}
	for _, r := range rows {
		if _, dup := ref.Rows[r.RunID]; dup {
			return Reference{}, fmt.Errorf("run id %s in two sessions", r.RunID)
		}
		ref.Rows[r.RunID] = r
		t, fs, _ := whole.runTree(r.RunID)
		ref.Trees[r.RunID], ref.Findings[r.RunID] = asJSON(t), asJSON(fs)
	}
	return ref, nil
}

func asJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "error: " + err.Error()
	}
	return string(b)
}

// KeptEvents is how many sealed span events the projection holds in memory.
func (s *Store) KeptEvents() int {
	s.vmu.RLock()
	defer s.vmu.RUnlock()
	return s.p.kept
}

// YieldFor is yieldFor.
var YieldFor = yieldFor
