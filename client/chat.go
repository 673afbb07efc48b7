//go:build !headless

package client

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"tickshot/client/netclient"
	"tickshot/net/proto"
)

// Chat: `say` on the console or the chat key (Y or Enter) in the game,
// `say_team` or U for the team only (team deathmatch, teams.go); the
// server strips control characters, cuts messages to proto.MaxChatLen
// bytes and rate-limits them (server.ChatBurst), and sends them to every
// player as EvChat. Messages show at the bottom left for chatShowTime and
// stay in the console; `mute NAME` hides a player's.

// chatShowTime is how long a message stays on the HUD; chatLines how many show.
const (
	chatShowTime = 10 * time.Second
	chatLines    = 6
)

// chatLine is one message received: the sender's name is looked up when
// drawn (it may arrive with the scoreboard after the message).
type chatLine struct {
	from uint16
	text string
	at   time.Time
	team bool // said to the sender's team only (say_team in tdm)
}

// chat is the chat's state: the input line while typing, and the messages.
type chat struct {
	open  bool
	input []rune
	team  bool // the line being typed goes to the team (U: say_team)
	lines []chatLine
	muted map[string]bool
}

// sendChat sends text to the server of c with the chat command cmd (say
// or say_team), control characters dropped and cut to proto.MaxChatLen
// bytes; it returns what the console shows.
func sendChat(c *netclient.Client, cmd, text string) string {
	if c == nil {
		return "not connected"
	}
	text = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, strings.TrimSpace(text))
	if text == "" {
		return ""
	}
	c.SendCommand(cmd+" "+proto.TruncateUTF8(text, proto.MaxChatLen), "")
	return ""
}

// mute hides (or shows again) a player's chat; it returns what the
// console shows.
func (ch *chat) mute(name string, on bool) string {
	if ch.muted == nil {
		ch.muted = map[string]bool{}
	}
	if on {
		ch.muted[name] = true
		return "muted " + name
	}
	delete(ch.muted, name)
	return "unmuted " + name
}

// onChat takes an EvChat: into the console and onto the HUD, unless muted.
func (g *Game) onChat(e *proto.Event) {
	name := g.c.Name(e.A)
	if g.chat.muted[name] {
		return
	}
	team := e.Value == proto.ChatTeam
	g.con.print(fmt.Sprintf("%s%s: %s", chatPrefix(team), name, e.Text))
	g.chat.lines = append(g.chat.lines, chatLine{from: e.A, text: e.Text, at: time.Now(), team: team})
	if len(g.chat.lines) > chatLines {
		g.chat.lines = g.chat.lines[len(g.chat.lines)-chatLines:]
	}
}

// openChat opens the chat line (the chat key: Y or Enter).
func (g *Game) openChat() { g.chat.open, g.chat.input, g.chat.team = true, g.chat.input[:0], false }

// openTeamChat opens the chat line for the team (U: Source's messagemode2).
func (g *Game) openTeamChat() { g.chat.open, g.chat.input, g.chat.team = true, g.chat.input[:0], true }

// updateChat handles the line being typed; it returns true while the chat
// has the keyboard.
func (g *Game) updateChat() bool {
	ch := &g.chat
	if !ch.open {
		return false
	}
	for _, r := range ebiten.AppendInputChars(nil) {
		if !unicode.IsControl(r) && len(string(ch.input)) < proto.MaxChatLen {
			ch.input = append(ch.input, r)
		}
	}
	switch {
	case inpututil.IsKeyJustPressed(ebiten.KeyEscape):
		ch.open = false
	case repeat(ebiten.KeyBackspace) && len(ch.input) > 0:
		ch.input = ch.input[:len(ch.input)-1]
	case inpututil.IsKeyJustPressed(ebiten.KeyEnter) || inpututil.IsKeyJustPressed(ebiten.KeyNumpadEnter):
		cmd := "say"
		if ch.team {
			cmd = "say_team"
		}
		if out := sendChat(g.c, cmd, string(ch.input)); out != "" {
			g.con.print(out)
		}
		ch.open = false
	}
	return true
}

// draw draws the recent messages and the line being typed at the
// bottom left, above the health.
func (ch *chat) draw(v *frameView) {
	y := v.H - 96
	if ch.open {
		prompt := "say: "
		if ch.team {
			prompt = "say_team: "
		}
		drawText(v.screen, prompt+string(ch.input)+"_", 16, false, 24, y, 0, colText)
	}
	now := time.Now()
	for i := len(ch.lines) - 1; i >= 0; i-- {
		l := ch.lines[i]
		if now.Sub(l.at) > chatShowTime && !ch.open {
			continue
		}
		y -= 22
		drawText(v.screen, chatPrefix(l.team)+v.c.Name(l.from)+": "+l.text, 16, false, 24, y, 0, colText)
	}
}

// chatPrefix marks a team message as Source does: "(TEAM) name: text".
func chatPrefix(team bool) string {
	if team {
		return "(TEAM) "
	}
	return ""
}
