package ingest

// CutCycles finds the parent links to cut so that n nodes linked child → parent form a forest.
// parent(i) is the index of node i's parent, or -1 (a root, a dangling or a self link, which
// the caller handles itself). Nodes are linked in index order and a link is cut when it would
// close a cycle, so of every cycle the link of its last member (highest index) is cut; the other
// links are kept. CutCycles calls parent at most twice per node: O(n) however deep the chains.
func CutCycles(n int, parent func(i int) int) []bool {
	const (
		unseen = iota
		onPath
		done
	)
	state := make([]uint8, n)
	cut := make([]bool, n)
	var path []int
	for i := 0; i < n; i++ {
		if state[i] != unseen {
			continue
		}
		path = path[:0]
		j := i
		for j >= 0 && j < n && state[j] == unseen {
			state[j] = onPath
			path = append(path, j)
			j = parent(j)
		}
		if j >= 0 && j < n && state[j] == onPath {
			// the path came back to j: j … end of path is a cycle
			last := j
			for k := len(path) - 1; path[k] != j; k-- {
				last = max(last, path[k])
			}
			cut[last] = true
		}
		for _, k := range path {
			state[k] = done
		}
	}
	return cut
}
