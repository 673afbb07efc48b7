//go:build !headless

package client

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"tickshot/client/netclient"
	"tickshot/client/palette"
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

// onChat takes an EvChat from name: into the console con and onto the
// HUD, unless muted.
func (ch *chat) onChat(e *proto.Event, name string, con *console) {
	if ch.muted[name] {
		return
	}
	team := e.Value == proto.ChatTeam
	con.print(fmt.Sprintf("%s%s: %s", chatPrefix(team), name, e.Text))
	ch.lines = append(ch.lines, chatLine{from: e.A, text: e.Text, at: time.Now(), team: team})
	if len(ch.lines) > chatLines {
		ch.lines = ch.lines[len(ch.lines)-chatLines:]
	}
}

// openLine opens the chat line: to everyone (the chat key, Y or Enter), or
// to the team (U: Source's messagemode2).
func (ch *chat) openLine(team bool) { ch.open, ch.input, ch.team = true, ch.input[:0], team }

// update handles the line being typed, sent to c's server on Enter (what
// refuses it goes to con); it returns true while the chat has the
// keyboard.
func (ch *chat) update(c *netclient.Client, con *console) bool {
	if !ch.open {
		return false
	}
	switch typeLine(&ch.input, func(r rune, in []rune) bool { return !unicode.IsControl(r) && len(string(in)) < proto.MaxChatLen }) {
	case lineCancel:
		ch.open = false
	case lineEnter:
		cmd := "say"
		if ch.team {
			cmd = "say_team"
		}
		if out := sendChat(c, cmd, string(ch.input)); out != "" {
			con.print(out)
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
		drawText(v.screen, prompt+string(ch.input)+"_", 16, false, 24, y, 0, palette.Text)
	}
	now := time.Now()
	for i := len(ch.lines) - 1; i >= 0; i-- {
		l := ch.lines[i]
		if now.Sub(l.at) > chatShowTime && !ch.open {
			continue
		}
		y -= 22
		drawText(v.screen, chatPrefix(l.team)+v.c.View().Name(l.from)+": "+l.text, 16, false, 24, y, 0, palette.Text)
	}
}

// chatPrefix marks a team message as Source does: "(TEAM) name: text".
func chatPrefix(team bool) string {
	if team {
		return "(TEAM) "
	}
	return ""
}
