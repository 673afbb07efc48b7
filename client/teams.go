//go:build !headless

package client

import (
	"fmt"
	"image/color"

	"tickshot/client/netclient"
	"tickshot/client/palette"
	"tickshot/game"
	"tickshot/net/proto"
)

// Team deathmatch in the window (mp_gamemode tdm): players drawn in their
// team's colour, the scoreboard grouped by team with the team scores, team
// chat (say_team, the U key, Source's messagemode2) and jointeam. The
// window knows a player's team from the scoreboard rows
// (proto.ScoreEntry.Team), patched at once by EvJoin and EvTeam; a team's
// score is the sum of its rows' kills, as the server counts it
// (docs/PROTOCOL.md, "Team deathmatch").

// colTeamText is a team's text colour (the HUD's team scores, the team
// scoreboard's rows): its palette colour, lighter.
var colTeamText = map[uint8]color.RGBA{proto.TeamRed: {0xff, 0x80, 0x78, 0xff}, proto.TeamBlue: {0x80, 0xb4, 0xff, 0xff}}

// teamOf is player id's team from the scoreboard, proto.TeamNone when it
// has none or is not on it.
// A nil client (the game was just left) has no teams.
func teamOf(c *netclient.Client, id uint16) uint8 {
	if c == nil {
		return proto.TeamNone
	}
	return c.View().Team(id)
}

// teamPlay reports whether the scoreboard shows team deathmatch: a row on
// red or blue.
func teamPlay(c *netclient.Client) bool {
	if c == nil {
		return false
	}
	for i := range c.View().Scores {
		if t := c.View().Scores[i].Team; t == proto.TeamRed || t == proto.TeamBlue {
			return true
		}
	}
	return false
}

// teamScores are the two teams' scores: the sums of their rows' kills.
func teamScores(c *netclient.Client) (red, blue int) {
	for _, r := range c.View().Scores {
		switch r.Team {
		case proto.TeamRed:
			red += int(r.Kills)
		case proto.TeamBlue:
			blue += int(r.Kills)
		}
	}
	return red, blue
}

// otherColour is the body colour of another player of the game v shows:
// its team's in team deathmatch, else the colour it chose (cl_color),
// else the deathmatch colours.
func otherColour(v *netclient.View, id uint16, bot bool) color.RGBA {
	switch v.Team(id) {
	case proto.TeamRed:
		return pick(bot, palette.RedBot, palette.Red)
	case proto.TeamBlue:
		return pick(bot, palette.BlueBot, palette.Blue)
	}
	if c, ok := chosenColour(v, id); ok {
		return c
	}
	return pick(bot, palette.EnemyBot, palette.Enemy)
}

// chosenColour is the colour player id chose (proto.ScoreEntry.Color,
// palette.Players), ok false for the automatic colours.
func chosenColour(v *netclient.View, id uint16) (color.RGBA, bool) {
	if c := int(v.Color(id)); c >= 1 && c <= len(palette.Players) {
		return palette.Players[c-1].Body, true
	}
	return color.RGBA{}, false
}

// selfColour is the body colour of the local player of the game v shows:
// its team's, lighter, in team deathmatch; else the colour it chose
// (cl_color, as the server's scoreboard echoes it); palette.Me otherwise.
func selfColour(v *netclient.View) color.RGBA {
	switch v.Team(v.ID) {
	case proto.TeamRed:
		return palette.RedMe
	case proto.TeamBlue:
		return palette.BlueMe
	}
	if c, ok := chosenColour(v, v.ID); ok {
		return c
	}
	return palette.Me
}

func pick(cond bool, a, b color.RGBA) color.RGBA {
	if cond {
		return a
	}
	return b
}

// friendlyFire is the server's mp_friendlyfire as it was when this client
// joined (Accept's cvars).
func friendlyFire(c *netclient.Client) bool {
	for _, cv := range c.View().Accept.Cvars {
		if cv.Name == "mp_friendlyfire" {
			return cv.Value != "0"
		}
	}
	return false
}

// passesThrough reports whether the local player's shots pass through
// player id: a teammate with friendly fire off (the server traces them so;
// the predicted tracer must agree).
func passesThrough(c *netclient.Client, id uint16) bool {
	t := teamOf(c, id)
	return (t == proto.TeamRed || t == proto.TeamBlue) && t == teamOf(c, c.View().ID) && !friendlyFire(c)
}

// onTeamEvent applies EvJoin's and EvTeam's team to the scoreboard at once
// (the next scoreboard, built after the event, agrees:
// netclient.Match.ApplyTeamEvent) and returns the notice for the kill
// feed, "" for none.
func (p *playScene) onTeamEvent(e *proto.Event) string {
	c := p.c
	if e.Value < 0 || e.Value > int16(proto.MaxTeam) {
		return "" // not a team (and not one by wrapping into a byte)
	}
	c.Match().ApplyTeamEvent(e)
	t := uint8(e.Value)
	name, you := c.View().Name(e.A), e.A == c.View().ID
	if e.Kind == proto.EvJoin {
		name, you = e.Text, false
	}
	if you {
		p.fx.killedBy = "" // a change of team kills: nobody did it
	}
	switch {
	case t == proto.TeamSpectator && you:
		return "You are spectating"
	case t == proto.TeamSpectator && e.Kind == proto.EvJoin:
		return name + " joined as a spectator"
	case t == proto.TeamSpectator:
		return name + " is spectating"
	case t == proto.TeamNone && you:
		return "You joined the game"
	case t == proto.TeamNone:
		return name + " joined"
	case e.Kind == proto.EvJoin:
		return fmt.Sprintf("%s joined the %s team", name, game.Team(t))
	case e.A == c.View().ID && e.Text != "":
		return fmt.Sprintf("You were moved to the %s team (%s)", game.Team(t), e.Text)
	case e.A == c.View().ID:
		return fmt.Sprintf("You joined the %s team", game.Team(t))
	}
	return fmt.Sprintf("%s joined the %s team", name, game.Team(t))
}

// matchEndBanner is the banner of a team match's end in c's game
// (EvMatchEnd with B the winning team); ok is false for a deathmatch's.
func matchEndBanner(c *netclient.Client, e *proto.Event) (banner string, ok bool) {
	if e.A != 0 || !teamPlay(c) {
		return "", false
	}
	red, blue := teamScores(c)
	switch uint8(e.B) {
	case proto.TeamRed, proto.TeamBlue:
		who := "Red"
		if uint8(e.B) == proto.TeamBlue {
			who = "Blue"
		}
		if uint8(e.B) == teamOf(c, c.View().ID) {
			who = "Your team (" + who + ")"
		}
		return fmt.Sprintf("%s wins the match  %d : %d", who, max(red, blue), min(red, blue)), true
	}
	return fmt.Sprintf("Draw  %d : %d", red, blue), true
}

// drawTeamScore draws the two team scores at the top centre in team
// deathmatch ("RED 12 : 9 BLUE"); buf is the HUD's reused text buffer.
func drawTeamScore(v *frameView, buf []byte) []byte {
	if !teamPlay(v.c) {
		return buf
	}
	red, blue := teamScores(v.c)
	screen, W := v.screen, v.W
	buf = appendInt(append(buf[:0], "RED  "...), red)
	drawTextBytes(screen, buf, 22, true, W/2-14, 10, 2, colTeamText[proto.TeamRed])
	drawText(screen, ":", 22, true, W/2, 10, 1, palette.Text)
	buf = append(appendInt(buf[:0], blue), "  BLUE"...)
	drawTextBytes(screen, buf, 22, true, W/2+14, 10, 0, colTeamText[proto.TeamBlue])
	return buf
}

// joinTeam asks the server of c for team: red, blue, auto or spectator
// (2, 3, 0, 1); a name that is no team is refused here.
func joinTeam(c *netclient.Client, team string) string {
	if c == nil {
		return "not connected"
	}
	if _, err := game.ParseTeam(team); err != nil {
		return "jointeam: " + err.Error()
	}
	c.SendCommand("jointeam "+team, "")
	return ""
}
