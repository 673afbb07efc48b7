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
	near []int32  // the indices in view of those a bot may see (sight)
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
	w.indexPlayers() // view[i] is Players[i]: its grid is the world's
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
		in := b.Brain.think(w.Map, w.TickRate, p.State, p.Health, all[:last], s.sight(w, i, last))
		all[i], all[last] = all[last], all[i]
		b.cmdNum++
		cmd := shared.UserCmd{
			CommandNumber: b.cmdNum, TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate),
			Buttons: in.Buttons, MoveX: in.MoveX, MoveY: in.MoveY, ViewAngle: in.Angle, Weapon: in.Weapon,
		}
		w.RunCommand(p, cmd, nil)
		all[i].X, all[i].Y, all[i].Alive = p.State.X, p.State.Y, p.Alive() && !p.Protected(w.Tick)
		w.near.Put(i, p.State.X, p.State.Y)
	}
}

// sight is the indices, ascending, in the view of the bot at view[i] (its
// own entry swapped with view[last] and left out, as think hands it over)
// of the others that can be within botSightRange of it: the world's grid
// query, so a bot's search for a target is not a loop over every player.
func (s *Squad) sight(w *World, i, last int) []int32 {
	me := &s.view[last] // swapped there
	near := w.playersIn(Around(me.X, me.Y, botSightRange))
	s.near = s.near[:0]
	if s.near == nil {
		s.near = make([]int32, 0, 64) // nil would mean every one
	}
	// Ascending, so last (the greatest) can only be the final one: it
	// takes the bot's place, i, before the first greater index.
	moved := len(near) > 0 && int(near[len(near)-1]) == last && i != last
	if moved {
		near = near[:len(near)-1]
	}
	for _, j := range near {
		if moved && int(j) > i {
			s.near, moved = append(s.near, int32(i)), false
		}
		if int(j) != i {
			s.near = append(s.near, j)
		}
	}
	if moved {
		s.near = append(s.near, int32(i))
	}
	return s.near
}
