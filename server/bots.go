package server

import (
	"fmt"
	"sort"

	"tickshot/game"
	"tickshot/shared"
)

// bot is a server-side player driven by game.Bot; its usercmds run through
// the same shared.RunCommand as everyone's.
type bot struct {
	player *game.Player
	brain  *game.Bot
	cmdNum uint32
}

var botNames = []string{"Bernier", "Carmack", "Romero", "Abrash", "Newell", "Fiedler", "Gaffer", "Zoid",
	"Quake", "Thresh", "Fatal1ty", "Xantor", "Rapha", "Cooller", "Vo0", "Toxjq"}

func (s *Server) addBot() {
	name := fmt.Sprintf("[BOT] %s", botNames[len(s.bots)%len(botNames)])
	p := s.newPlayer(s.uniqueName(name), true)
	s.bots = append(s.bots, &bot{player: p, brain: game.NewBot(s.rng.Uint64())})
}

// removeBot removes the newest bot, to make room for a human.
func (s *Server) removeBot() {
	b := s.bots[len(s.bots)-1]
	s.bots = s.bots[:len(s.bots)-1]
	s.removePlayer(b.player.ID, "bot removed to make room")
}

func (s *Server) runBots() {
	// Every player's hitbox, once per tick (not once per bot: that was
	// O(N²) copying); each bot's entry follows it as it moves, so later
	// bots see where earlier ones went this tick, as before.
	all := s.botBoxBuf[:0]
	for _, o := range s.players {
		all = append(all, game.Hitbox{ID: o.ID, X: o.State.X, Y: o.State.Y, R: shared.PlayerRadius, Alive: o.Alive()})
	}
	s.botBoxBuf = all
	last := len(all) - 1
	for _, b := range s.bots {
		p := b.player
		i := s.playerIndex(p.ID)
		if i < 0 {
			continue
		}
		b.brain.Skill = s.vars.botSkill
		// The others: the bot's own entry swapped to the end and left out.
		all[i], all[last] = all[last], all[i]
		in := b.brain.Think(s.m, s.cfg.TickRate, p.State, p.Health, all[:last])
		all[i], all[last] = all[last], all[i]
		b.cmdNum++
		cmd := shared.UserCmd{
			CommandNumber: b.cmdNum, TickCount: s.tick, Msec: shared.MsecFor(s.cfg.TickRate),
			Buttons: in.Buttons, MoveX: in.MoveX, MoveY: in.MoveY, ViewAngle: in.Angle,
		}
		s.runCommand(p, cmd, nil)
		all[i].X, all[i].Y, all[i].Alive = p.State.X, p.State.Y, p.Alive()
	}
}

// playerIndex is the index of player id in s.players (sorted by ID), or -1.
func (s *Server) playerIndex(id uint16) int {
	i := sort.Search(len(s.players), func(i int) bool { return s.players[i].ID >= id })
	if i < len(s.players) && s.players[i].ID == id {
		return i
	}
	return -1
}
