package game

import (
	"fmt"

	"tickshot/shared"
)

// BotPlayer is a player driven by a Bot brain; its usercmds run through the
// same shared.RunCommand as everyone's.
type BotPlayer struct {
	Player *Player
	Brain  *Bot
	cmdNum uint32
}

// Squad owns the server's bots: their players' brains, their command
// numbers, and their view of the world each tick (every player's hitbox,
// the spawn-protected left out). World adds and removes their players; the
// squad thinks for them after the humans' commands (World.Step).
type Squad struct {
	// Bots are in the order they were added (RemoveBot takes the newest).
	Bots []*BotPlayer

	view []Hitbox // every player's hitbox as the bots see them (think)
	q    botQuery // the bot thinking asks the grid through it
}

var botNames = []string{"Bernier", "Carmack", "Romero", "Abrash", "Newell", "Fiedler", "Gaffer", "Zoid",
	"Quake", "Thresh", "Fatal1ty", "Xantor", "Rapha", "Cooller", "Vo0", "Toxjq"}

// nextName is the name of the next bot, before UniqueName: "[BOT] " and
// the next of botNames in turn.
func (s *Squad) nextName() string {
	return fmt.Sprintf("[BOT] %s", botNames[len(s.Bots)%len(botNames)])
}

// remove drops the bot whose player is id, if there is one.
func (s *Squad) remove(id uint16) {
	for i, b := range s.Bots {
		if b.Player.ID == id {
			s.Bots = append(s.Bots[:i], s.Bots[i+1:]...)
			return
		}
	}
}

// forget makes every bot forget where it was going and whom it was after
// (a map change: the old waypoints and targets mean nothing there).
func (s *Squad) forget() {
	for _, b := range s.Bots {
		b.Brain.target, b.Brain.seenTicks, b.Brain.hasWaypoint, b.Brain.hunting = -1, 0, false, false
	}
}

// think thinks for every bot, in order, and runs its usercmd through
// w.RunCommand (present hitboxes: a bot needs no lag compensation).
func (s *Squad) think(w *World) {
	// Every player's hitbox, once per tick (not once per bot: that was
	// O(N²) copying); each bot's entry follows it as it moves, so later
	// bots see where earlier ones went this tick.
	all := s.view[:0]
	// A player under spawn protection is left alone: the bots see it as
	// not there.
	for _, o := range w.Players {
		all = append(all, NewHitbox(o.ID, o.State.X, o.State.Y, o.Alive() && !o.Protected(w.Tick), o.Team))
	}
	s.view = all
	w.Near.index() // view[i] is Players[i]: its grid is the world's
	// Each bot is put again after its command (the one whose command runs
	// is where it was, but its own shots skip it): the grid stays live.
	w.Near.live = true
	last := len(all) - 1
	for _, b := range s.Bots {
		p := b.Player
		i := w.PlayerIndex(p.ID)
		if i < 0 {
			continue
		}
		b.Brain.Skill = w.Rules.BotSkill
		b.Brain.Team = p.Team
		b.Brain.Heal = w.Stock.healthSpots(b.Brain.Heal[:0])
		// The others: the bot's own entry swapped to the end and left out.
		all[i], all[last] = all[last], all[i]
		s.q.w, s.q.view, s.q.i, s.q.last = w, all, i, last
		in := b.Brain.think(w.Map, w.TickRate, p.State, p.Health, all[:last], &s.q)
		all[i], all[last] = all[last], all[i]
		b.cmdNum++
		cmd := shared.UserCmd{
			CommandNumber: b.cmdNum, TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate),
			Buttons: in.Buttons, MoveX: in.MoveX, MoveY: in.MoveY, ViewAngle: in.Angle, Weapon: in.Weapon,
		}
		w.RunCommand(p, cmd, nil)
		all[i].X, all[i].Y, all[i].Alive = p.State.X, p.State.Y, p.Alive() && !p.Protected(w.Tick)
		w.Near.put(i, p.State.X, p.State.Y)
	}
	w.Near.live = false
}

// botQuery is what one bot asks the world's grid while it thinks: the
// others near it, as indices, ascending, into the view think hands it (its
// own entry, view[i], swapped with view[last] and left out), so that its
// searches (Bot.nearestVisible, Bot.nearestEnemy) are not loops over every
// player and still meet the others in the order a loop would.
type botQuery struct {
	w       *World
	view    []Hitbox
	i, last int
	near    []int32 // within's result
}

// within returns the indices of the others that can be within d of the
// bot (a superset: Around), and whether they are all the others.
func (q *botQuery) within(d float64) ([]int32, bool) {
	me := &q.view[q.last] // swapped there
	r := Around(me.X, me.Y, d)
	near := q.w.Near.in(r)
	q.near = q.near[:0]
	if q.near == nil {
		q.near = make([]int32, 0, 64) // nil would mean every one
	}
	i, last := q.i, q.last
	// Ascending, so last (the greatest) can only be the final one: it
	// takes the bot's place, i, before the first greater index.
	moved := len(near) > 0 && int(near[len(near)-1]) == last && i != last
	if moved {
		near = near[:len(near)-1]
	}
	for _, j := range near {
		if moved && int(j) > i {
			q.near, moved = append(q.near, int32(i)), false
		}
		if int(j) != i {
			q.near = append(q.near, j)
		}
	}
	if moved {
		q.near = append(q.near, int32(i))
	}
	return q.near, q.w.Near.covers(r)
}
