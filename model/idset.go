package model

import "hash/fnv"

// idTable is the Checker's memory of every id it has seen: a set of 64-bit hashes of kind+id,
// each with a 4-bit state, in one flat open-addressing table of uint64 slots (8 bytes a slot,
// at most 3/4 full: 11–21 bytes an id, nothing else per id). The state is kept in the low 4
// bits of the slot, the hash in the other 60; 0 marks an empty slot.
type idTable struct {
	slots []uint64
	n     int
}

const (
	idStateBits = 4
	idStateMask = 1<<idStateBits - 1
)

// idKey hashes kind and id into the key part of a slot (never 0).
func idKey(kind, id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(kind))
	h.Write([]byte{0})
	h.Write([]byte(id))
	k := h.Sum64() &^ idStateMask
	if k == 0 {
		k = 1 << idStateBits
	}
	return k
}

// find returns the slot index of key, or of the empty slot where it would go.
func (t *idTable) find(key uint64) int {
	mask := len(t.slots) - 1
	i := int(mix(key)) & mask
	for {
		s := t.slots[i]
		if s == 0 || s&^idStateMask == key {
			return i
		}
		i = (i + 1) & mask
	}
}

// mix spreads the key's bits over the low bits used as the start index.
func mix(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	return k
}

// get returns the state of key and whether key is in the table.
func (t *idTable) get(key uint64) (uint8, bool) {
	if t.n == 0 {
		return 0, false
	}
	s := t.slots[t.find(key)]
	return uint8(s & idStateMask), s != 0
}

// has reports whether key is in the table.
func (t *idTable) has(key uint64) bool {
	_, ok := t.get(key)
	return ok
}

// set puts key with state (0–15) into the table, or changes its state.
func (t *idTable) set(key uint64, state uint8) {
	if (t.n+1)*4 > len(t.slots)*3 {
		t.grow()
	}
	i := t.find(key)
	if t.slots[i] == 0 {
		t.n++
	}
	t.slots[i] = key | uint64(state&idStateMask)
}

func (t *idTable) grow() {
	old := t.slots
	size := 2 * len(old)
	if size == 0 {
		size = 64
	}
	t.slots = make([]uint64, size)
	for _, s := range old {
		if s != 0 {
			t.slots[t.find(s&^idStateMask)] = s
		}
	}
}

// len is the number of ids in the table.
func (t *idTable) len() int { return t.n }
