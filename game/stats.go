package game

// PlayerStats is one player's match so far: what the end-of-match screen
// shows. Kills and Deaths here count kills of others and deaths (the
// scoreboard's Kills, which a teamkill lowers, stay on Player).
type PlayerStats struct {
	Kills  int // other players killed (teammates not counted)
	Deaths int // deaths, suicides included
	// Shots is the shots fired (one EvShot each: a rifle shot, a
	// shotgun's 8 pellets, a rocket); Hits the shots that hurt another
	// player: the EvHits of one tick count once, so a shotgun shot whose
	// pellets strike two players, or a rocket whose splash catches two,
	// is one hit, and Hits stays at most Shots.
	Shots, Hits int
	Damage      int // hit points of damage dealt to other players
	Streak      int // kills since the last death
	BestStreak  int // the most kills in one life
}

// Accuracy is the share of shots that hit, 0..1 (Hits capped at Shots; 0
// without shots).
func (p PlayerStats) Accuracy() float64 {
	if p.Shots == 0 {
		return 0
	}
	return float64(min(p.Hits, p.Shots)) / float64(p.Shots)
}

// MatchStats owns the statistics of the current match, per player ID:
// counted from the world's own events as it emits them (World.emit), so
// that every weapon, present or future, counts the same way (a shot is an
// EvShot, a hit an EvHit, a kill an EvKill), reset at every match's start.
// Shots and hits during the intermission (which hurt nobody) do not count.
// Deterministic: it is fed in emit order and read in player order.
type MatchStats struct {
	byID map[uint16]*PlayerStats
	// hitAt is, per player ID, 1 + the tick of the last counted hit.
	hitAt map[uint16]uint32
}

// Of returns player id's statistics for the match so far (zero for a
// player with none).
func (s *MatchStats) Of(id uint16) PlayerStats {
	if p := s.byID[id]; p != nil {
		return *p
	}
	return PlayerStats{}
}

// row returns id's statistics to update, created on first use.
func (s *MatchStats) row(id uint16) *PlayerStats {
	if s.byID == nil {
		s.byID = map[uint16]*PlayerStats{}
		s.hitAt = map[uint16]uint32{}
	}
	p := s.byID[id]
	if p == nil {
		p = &PlayerStats{}
		s.byID[id] = p
	}
	return p
}

// record counts event e of world w: EvMatchStart clears everything; EvShot
// is a shot of A; EvHit of A on another player its damage, and a hit
// unless A already hit someone this tick (one shot's pellets or splash);
// EvKill a death of B and, unless B is A or A's teammate, a kill and a
// step of A's streak. The winning kill counts though the intermission has
// just begun; other shots and hits in the intermission do not.
func (s *MatchStats) record(w *World, e *Event) {
	switch e.Kind {
	case EvMatchStart:
		clear(s.byID)
		clear(s.hitAt)
	case EvShot:
		if w.Intermission == 0 {
			s.row(e.A).Shots++
		}
	case EvHit:
		if w.Intermission == 0 && e.A != e.B && e.A != 0 {
			p := s.row(e.A)
			if s.hitAt[e.A] != w.Tick+1 {
				p.Hits++
				s.hitAt[e.A] = w.Tick + 1
			}
			p.Damage += e.Value
		}
	case EvKill:
		v := s.row(e.B)
		v.Deaths++
		v.Streak = 0
		a, b := w.Player(e.A), w.Player(e.B)
		if e.A == e.B || e.A == 0 || a != nil && b != nil && w.Teammates(a, b) {
			return
		}
		k := s.row(e.A)
		k.Kills++
		k.Streak++
		k.BestStreak = max(k.BestStreak, k.Streak)
	}
}

// Award kinds: what an Award is for and what its Value counts.
type AwardKind uint8

const (
	AwardMostKills  AwardKind = iota + 1 // Value: kills
	AwardAccuracy                        // Value: hits per 1000 shots, for MinAwardShots or more shots
	AwardStreak                          // Value: the most kills in one life
	AwardMostDamage                      // Value: damage dealt to others
)

// MinAwardShots is the fewest shots a player fires to be up for
// AwardAccuracy (one lucky shot is not the best aim).
const MinAwardShots = 5

// AccuracyScale is what AwardAccuracy's Value counts hits per: shots fired
// per AccuracyScale (1000: tenths of a percent).
const AccuracyScale = 1000

// Award is player ID's award of Kind with Value.
type Award struct {
	Kind  AwardKind
	ID    uint16
	Value int
}

// Awards returns the match's awards among players (in their order, which
// breaks ties: the first best wins), one per kind, each only when its best
// value is above zero.
func (s *MatchStats) Awards(players []*Player) []Award {
	var out []Award
	best := func(kind AwardKind, value func(PlayerStats) (int, bool)) {
		a := Award{Kind: kind}
		for _, p := range players {
			if v, ok := value(s.Of(p.ID)); ok && v > a.Value {
				a.ID, a.Value = p.ID, v
			}
		}
		if a.ID != 0 {
			out = append(out, a)
		}
	}
	best(AwardMostKills, func(p PlayerStats) (int, bool) { return p.Kills, true })
	best(AwardAccuracy, func(p PlayerStats) (int, bool) {
		return min(p.Hits, p.Shots) * AccuracyScale / max(p.Shots, 1), p.Shots >= MinAwardShots
	})
	best(AwardStreak, func(p PlayerStats) (int, bool) { return p.BestStreak, true })
	best(AwardMostDamage, func(p PlayerStats) (int, bool) { return p.Damage, true })
	return out
}
