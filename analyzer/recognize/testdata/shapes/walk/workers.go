package walk

import (
	"sync"
	"sync/atomic"
)

// TransformAll transforms the schemas on two workers, each claiming the next index from a
// shared counter: every schema once, then the workers end.
func TransformAll(schemas []*Schema) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(schemas) {
					return
				}
				Transform(schemas[i])
			}
		}()
	}
	wg.Wait()
}
