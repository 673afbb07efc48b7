package server

import (
	"sort"

	"tickshot/net/proto"
	"tickshot/net/rtc"
	"tickshot/net/transport"
)

// datagramFit is a session's state for fitting its snapshots into one
// datagram (rtc.MaxDatagram bytes) when they travel on a WebRTC data
// channel, where a larger message would be fragmented and a lost fragment
// would lose it whole. When the entities in view do not fit, the most
// important go with their current state and the others wait: an entity's
// priority is its nearness to the player times one plus the snapshots it
// has waited, so every entity's turn comes (Unreal's actor replication
// priority, which grows while an actor waits; Quake 3's snapshot entity
// limit). A waiting entity keeps in the frame the state the client already
// has (its baseline's: nothing on the wire), so it stands still for a
// snapshot rather than vanishing; one the client has never had is left
// out until its turn. The frame sent is whole, like any other.
type datagramFit struct {
	waited map[uint16]int // snapshots each entity (by ID) waited
	order  []int          // scratch: indices into the fresh frame by priority
	pick   []proto.EntityState
	fresh  []proto.EntityState
}

// fitDatagram checks snapshot snap to ss, just encoded in ss.out.wire:
// on a data channel, one too large for a datagram is rewritten with the
// entities that fit (fit); otherwise every entity went fresh, and none
// waits any more. A session without a connection (benchmarks, tests) has
// no data channel.
func (sw *snapshotWriter) fitDatagram(ss *session, snap *proto.Snapshot, rec *sentSnap) {
	if len(ss.out.wire) > rtc.MaxDatagram && ss.conn != nil && ss.conn.Transport() == transport.KindWebRTC {
		sw.fit(ss, snap, rec)
		return
	}
	clear(ss.out.fit.waited)
}

// fit rewrites snapshot snap to ss, just encoded too large for one
// datagram, with as many entities in their current state as fit: it
// searches the largest number k of the highest-priority entities sent
// fresh, re-encoding the delta and the snapshot for each try (a few, only
// for snapshots too large), and records the frame chosen as what the
// client will hold (rec), leaving the encoding in ss.out.wire; if even no fresh entity
// fits (a scoreboard, many events), the snapshot goes as it was, on the
// WebSocket (rtc.Conn.SendDatagram counts it).
func (sw *snapshotWriter) fit(ss *session, snap *proto.Snapshot, rec *sentSnap) {
	f := &ss.out.fit
	if f.waited == nil {
		f.waited = make(map[uint16]int)
	}
	f.fresh = append(f.fresh[:0], snap.Entities...)
	var base []proto.EntityState
	if b := ss.acks.baseline(snap.Seq); b != nil && !ss.hello.NoDelta {
		base = b.ents
	}
	p := ss.player.State
	f.order = f.order[:0]
	prio := make(map[uint16]float64, len(f.fresh))
	for i, e := range f.fresh {
		f.order = append(f.order, i)
		dx, dy := proto.FromFixed(e.X)-p.X, proto.FromFixed(e.Y)-p.Y
		prio[e.ID] = float64(1+f.waited[e.ID]) / (1 + (dx*dx+dy*dy)/(256*256)) // nearness: 1 at the player, 1/2 at 256 units
	}
	sort.SliceStable(f.order, func(a, b int) bool {
		return prio[f.fresh[f.order[a]].ID] > prio[f.fresh[f.order[b]].ID]
	})
	encode := func(k int) []byte {
		sent := make(map[uint16]bool, k)
		for _, i := range f.order[:k] {
			sent[f.fresh[i].ID] = true
		}
		f.pick = f.pick[:0]
		bi := 0
		for _, e := range f.fresh { // by ID, as the frame must be
			for bi < len(base) && base[bi].ID < e.ID {
				bi++
			}
			switch {
			case sent[e.ID]:
				f.pick = append(f.pick, e)
			case bi < len(base) && base[bi].ID == e.ID:
				f.pick = append(f.pick, base[bi]) // the client's own copy: no bytes
			}
		}
		snap.Entities = f.pick
		sw.encodeEntities(ss, snap)
		ss.out.wire = sw.enc.Append(ss.out.wire[:0], snap)
		return ss.out.wire
	}
	lo, hi := 0, len(f.fresh) // the largest k that fits is in [lo, hi)
	if len(encode(0)) > rtc.MaxDatagram {
		lo = len(f.fresh) // nothing helps: send the whole frame
	}
	for lo < hi-1 {
		mid := (lo + hi) / 2
		if len(encode(mid)) <= rtc.MaxDatagram {
			lo = mid
		} else {
			hi = mid
		}
	}
	encode(lo)
	rec.ents = append(rec.ents[:0], snap.Entities...)
	for i, idx := range f.order {
		if id := f.fresh[idx].ID; i < lo {
			delete(f.waited, id)
		} else {
			f.waited[id]++
		}
	}
}
