package server

import (
	"cmp"
	"slices"

	"tickshot/net/proto"
)

// refScoreView is the scoreboard delta as it was first written (every
// row of both tables compared, every candidate listed, then chosen): the
// reference the faster one (scoreView.delta) must match, row for row.
type refScoreView struct {
	rows    []proto.ScoreEntry
	cursor  uint16
	pending bool
}

// learn is scoreView.learn on rows alone.
func (v *refScoreView) learn(rows []scoreRow) {
	for _, r := range rows {
		i, found := slices.BinarySearchFunc(v.rows, r.ID, byID)
		switch {
		case r.Team == proto.ScoreGone:
			if found {
				v.rows = slices.Delete(v.rows, i, i+1)
			}
		case found:
			v.rows[i] = r.ScoreEntry
		default:
			v.rows = slices.Insert(v.rows, i, r.ScoreEntry)
		}
	}
}

func (v *refScoreView) delta(table []proto.ScoreEntry, self uint16, wanted, leaders []uint16) (full, wire []proto.ScoreEntry) {
	var changes []scoreChange
	i, j := 0, 0
	for i < len(table) || j < len(v.rows) {
		switch {
		case j == len(v.rows) || (i < len(table) && table[i].ID < v.rows[j].ID):
			changes = append(changes, scoreChange{at: i, id: table[i].ID, name: true})
			i++
		case i == len(table) || v.rows[j].ID < table[i].ID:
			changes = append(changes, scoreChange{at: -1, id: v.rows[j].ID})
			j++
		default:
			if differs(&table[i], &v.rows[j]) {
				changes = append(changes, scoreChange{at: i, id: table[i].ID, name: table[i].Name != v.rows[j].Name})
			}
			i++
			j++
		}
	}
	picked := make([]bool, len(changes))
	n, size := 0, 0
	isFull := func() bool { return n == scoreRowsPerUpdate || size >= scoreBytesPerUpdate }
	take := func(k int) {
		if picked[k] || isFull() {
			return
		}
		c := changes[k]
		row := proto.ScoreEntry{ID: c.id, Team: proto.ScoreGone}
		if c.at >= 0 {
			row = table[c.at]
		}
		wired := row
		if !c.name {
			wired.Name = ""
		}
		b := rowBytes(&wired)
		if n > 0 && size+b > scoreBytesPerUpdate {
			size = scoreBytesPerUpdate
			return
		}
		size += b
		picked[k] = true
		n++
		full, wire = append(full, row), append(wire, wired)
	}
	find := func(id uint16) int {
		k, found := slices.BinarySearchFunc(changes, id, func(c scoreChange, id uint16) int { return cmp.Compare(c.id, id) })
		if !found {
			return -1
		}
		return k
	}
	if k := find(self); k >= 0 {
		take(k)
	}
	for k, c := range changes {
		if c.at < 0 {
			take(k)
		}
	}
	for _, id := range wanted {
		if k := find(id); k >= 0 {
			take(k)
		}
	}
	for _, id := range leaders {
		if k := find(id); k >= 0 {
			take(k)
		}
	}
	start, _ := slices.BinarySearchFunc(changes, v.cursor+1, func(c scoreChange, id uint16) int { return cmp.Compare(c.id, id) })
	if v.cursor == 0xffff {
		start = 0
	}
	for m := range changes {
		k := (start + m) % len(changes)
		if isFull() {
			break
		}
		if !picked[k] {
			if take(k); picked[k] {
				v.cursor = changes[k].id
			}
		}
	}
	v.pending = len(full) < len(changes)
	return full, wire
}
