package model

import "sort"

// parentLinks finds parent_run_id cycles among runs, in time linear in the number of runs (a
// union-find with union by rank and path halving), and the parents a log never starts.
//
// A run names its parent once, when it is queued or started. A cycle can only close when a run
// C names a parent P whose chain of parents leads back to C, so some run named C as its parent
// while C could still name one of its own: C not in the log yet, or only queued. Only such runs
// and the runs that descend from them are tracked: in a log where every parent has started
// before its children (what a runtime writes) the union-find stays empty.
type parentLinks struct {
	up   map[uint64]uint64 // union-find parent; a set's representative maps to itself
	rank map[uint64]uint8
	// top maps the representative of a set that may still close into a cycle to the set's top:
	// the one run of the set with no parent yet, from which every other run of the set descends.
	top map[uint64]uint64
	// waiting holds, per run named as a parent before it appeared in the log, who named it.
	waiting map[uint64][]parentRef
}

type parentRef struct {
	child, parent string
	seq           int64
	origin        *Origin
}

func (l *parentLinks) init() {
	if l.up == nil {
		l.up, l.rank, l.top, l.waiting = map[uint64]uint64{}, map[uint64]uint8{}, map[uint64]uint64{}, map[uint64][]parentRef{}
	}
}

func (l *parentLinks) tracked(k uint64) bool {
	_, ok := l.up[k]
	return ok
}

// find returns the representative of k's set (k must be tracked).
func (l *parentLinks) find(k uint64) uint64 {
	for {
		p := l.up[k]
		if p == k {
			return k
		}
		gp := l.up[p]
		l.up[k] = gp // path halving
		k = gp
	}
}

// track adds k as a set of its own whose top is k.
func (l *parentLinks) track(k uint64) {
	l.init()
	if !l.tracked(k) {
		l.up[k], l.top[k] = k, k
	}
}

// union joins the sets of a and b; the joint set's top is the top of b's set (or none).
func (l *parentLinks) union(a, b uint64) {
	ra, rb := l.find(a), l.find(b)
	if ra == rb {
		return
	}
	top, pending := l.top[rb]
	delete(l.top, ra)
	delete(l.top, rb)
	if l.rank[ra] > l.rank[rb] {
		ra, rb = rb, ra
	}
	l.up[ra] = rb
	if l.rank[ra] == l.rank[rb] {
		l.rank[rb]++
	}
	if pending {
		l.top[rb] = top
	}
}

// pending reports whether k is in a set that may still close into a cycle.
func (l *parentLinks) pending(k uint64) bool {
	if !l.tracked(k) {
		return false
	}
	_, ok := l.top[l.find(k)]
	return ok
}

// settled says that run k will never name a parent (it started without one, or ended): its set,
// if it is the top of one, can no longer close into a cycle.
func (l *parentLinks) settled(k uint64) {
	if l.tracked(k) {
		if r := l.find(k); l.top[r] == k {
			delete(l.top, r)
		}
	}
}

// appeared says that run k is in the log: whoever named it as a parent before is answered.
func (l *parentLinks) appeared(k uint64) {
	if len(l.waiting) > 0 {
		delete(l.waiting, k)
	}
}

// missing returns the references to parents that never appeared, in seq order.
func (l *parentLinks) missing() []parentRef {
	var out []parentRef
	for _, refs := range l.waiting {
		out = append(out, refs...)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].seq != out[j].seq {
			return out[i].seq < out[j].seq
		}
		return out[i].child < out[j].child
	})
	return out
}

// nameParent records that run r (which had no parent) names ev.ParentRunID and reports a run
// that is its own parent or a parent cycle (L1). It returns false when the link was refused.
func (c *Checker) nameParent(r *ckRun, ev *Event) bool {
	l := &c.parents
	child, parent := idKey("run", r.id), idKey("run", ev.ParentRunID)
	if child == parent {
		c.addEv("L1", ev, []string{r.id}, "run %s names itself as parent", r.id)
		return false
	}
	if l.tracked(child) && l.tracked(parent) && l.find(child) == l.find(parent) {
		c.addEv("L1", ev, []string{r.id, ev.ParentRunID}, "run %s: parent %s makes a cycle (%s descends from %s)", r.id, ev.ParentRunID, ev.ParentRunID, r.id)
		l.settled(child)
		return false
	}
	known := c.ids.has(parent)
	if !known {
		l.init()
		l.waiting[parent] = append(l.waiting[parent], parentRef{child: r.id, parent: ev.ParentRunID, seq: ev.Seq, origin: ev.Origin})
	}
	switch {
	case l.pending(parent):
	case !known || c.mayNameParent(ev.ParentRunID):
		l.track(parent) // it may still name a parent: one that descends from r would be a cycle
	default: // the parent's ancestry is settled: nothing that descends from it can close a cycle
		l.settled(child)
		return true
	}
	l.track(child)
	l.union(child, parent)
	return true
}

// mayNameParent reports whether the run with this id may still name a parent (it has none yet
// and has at most been queued).
func (c *Checker) mayNameParent(id string) bool {
	r := c.runs[id]
	return r != nil && !r.ended && r.parent == "" && (r.status == "" || r.status == StatusQueued)
}
