package server

// addrTable is state of type V per address key (addrKey), bounded so that
// a flood of addresses cannot grow it without end: the join buckets
// (joinlimit.go) and the log spacing (clientaddr.go). The caller locks.
type addrTable[V any] struct {
	m   map[string]*V
	max int // the most addresses held
}

// get returns key's state, a new zero V (fresh true) if it has none.
// Making room for a new one first drops the entries stale reports on,
// then, while still at max, any.
func (t *addrTable[V]) get(key string, stale func(*V) bool) (v *V, fresh bool) {
	if v = t.m[key]; v != nil {
		return v, false
	}
	if t.m == nil {
		t.m = map[string]*V{}
	}
	if len(t.m) >= t.max {
		for k, e := range t.m {
			if stale(e) {
				delete(t.m, k)
			}
		}
		for k := range t.m {
			if len(t.m) < t.max {
				break
			}
			delete(t.m, k)
		}
	}
	v = new(V)
	t.m[key] = v
	return v, true
}
