package server

import (
	"fmt"

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
	for _, b := range s.bots {
		p := b.player
		b.brain.Skill = s.vars.botSkill
		in := b.brain.Think(s.m, s.cfg.TickRate, p.State, p.Health, s.hitboxesExcept(p.ID))
		b.cmdNum++
		cmd := shared.UserCmd{
			CommandNumber: b.cmdNum, TickCount: s.tick, Msec: shared.MsecFor(s.cfg.TickRate),
			Buttons: in.Buttons, MoveX: in.MoveX, MoveY: in.MoveY, ViewAngle: in.Angle,
		}
		s.runCommand(p, cmd, nil)
	}
}

// hitboxesExcept returns every other player's current hitbox.
func (s *Server) hitboxesExcept(id uint16) []game.Hitbox {
	boxes := s.botBoxBuf[:0] // reused: Think does not keep it
	for _, o := range s.players {
		if o.ID != id {
			boxes = append(boxes, game.Hitbox{ID: o.ID, X: o.State.X, Y: o.State.Y, R: shared.PlayerRadius, Alive: o.Alive()})
		}
	}
	s.botBoxBuf = boxes
	return boxes
}
