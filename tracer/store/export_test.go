package store

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
