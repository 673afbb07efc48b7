//go:build !headless

package client

import (
	"image/color"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/palette"
	"tickshot/net/proto"
)

// pixel reads the colour at (x, y) of img (game loop only).
func pixel(img *ebiten.Image, x, y float64) color.RGBA {
	return color.RGBAModel.Convert(img.At(int(x), int(y))).(color.RGBA)
}

// Team deathmatch in the window: bodies in deathmatch colours while the
// scoreboard has no teams, in their team's colour (bots darker, the local
// player lighter) once it has; the team scoreboard draws a band per team;
// EvJoin and EvTeam update the teams at once with a notice; team chat is
// marked; the match end names the team; the local tracer passes through
// teammates with friendly fire off.
func TestTeamColoursScoreboardAndChat(t *testing.T) {
	c := newFakeClient(t, fakeWorld{others: 4})
	g := newDrawGame(c, testScreenW, testScreenH, 0)
	p := g.scenes.Current().(*playScene)
	// redText: how many pixels of the top centre's left half are the red
	// team's text colour (the HUD's team score).
	redText := 0
	bodies := func() map[uint16]color.RGBA {
		got := map[uint16]color.RGBA{}
		onFrame(func(*ebiten.Image) {
			dst := ebiten.NewImage(testScreenW, testScreenH)
			defer dst.Deallocate()
			g.Draw(dst)
			redText = 0
			for x := testScreenW/2 - 120; x < testScreenW/2-14; x++ {
				for y := 8; y < 36; y++ {
					if p := pixel(dst, float64(x), float64(y)); p.R > 0xe0 && p.B < 0x90 && p.G < 0x90 {
						redText++
					}
				}
			}
			cx, cy := g.camera()
			for _, e := range c.View().Rendered {
				got[e.ID] = pixel(dst, e.X-cx, e.Y-cy)
			}
			px, py := g.drawPos()
			got[c.View().ID] = pixel(dst, px-cx, py-cy)
		})
		return got
	}
	bot := map[uint16]bool{}
	for _, e := range c.View().Rendered {
		bot[e.ID] = e.Bot
	}
	dm := bodies()
	for _, e := range c.View().Rendered {
		if want := pick(e.Bot, palette.EnemyBot, palette.Enemy); dm[e.ID] != want {
			t.Errorf("deathmatch: player %d drawn %v, want %v", e.ID, dm[e.ID], want)
		}
	}
	if dm[c.View().ID] != palette.Me {
		t.Errorf("deathmatch: you are drawn %v, want %v", dm[c.View().ID], palette.Me)
	}
	if redText != 0 {
		t.Errorf("deathmatch: %d red pixels where team deathmatch shows the red score", redText)
	}

	// Teams: you (1) and 3, 5 red; 2, 4 blue.
	for i := range c.View().Scores {
		c.View().Scores[i].Team = []uint8{proto.TeamBlue, proto.TeamRed}[c.View().Scores[i].ID%2]
	}
	tdm := bodies()
	if redText < 20 {
		t.Errorf("team deathmatch: %d red pixels at the top centre; want the red team's score", redText)
	}
	for id, col := range tdm {
		want := palette.RedMe
		switch {
		case id == c.View().ID:
		case id%2 == 1:
			want = pick(bot[id], palette.RedBot, palette.Red)
		default:
			want = pick(bot[id], palette.BlueBot, palette.Blue)
		}
		if col != want {
			t.Errorf("team deathmatch: player %d drawn %v, want %v", id, col, want)
		}
	}
	if !passesThrough(c, 3) || passesThrough(c, 2) {
		t.Error("with friendly fire off the local tracer must pass through teammate 3 and stop at enemy 2")
	}

	// The scoreboard: RED band then its rows, then the BLUE band.
	red, blue := teamScores(c)
	wantRed, wantBlue := 0, 0
	for _, r := range c.View().Scores {
		if r.Team == proto.TeamRed {
			wantRed += int(r.Kills)
		} else {
			wantBlue += int(r.Kills)
		}
	}
	if red != wantRed || blue != wantBlue || red+blue == 0 {
		t.Errorf("team scores %d : %d, want the sums of the rows' kills %d : %d", red, blue, wantRed, wantBlue)
	}
	onFrame(func(*ebiten.Image) {
		dst := ebiten.NewImage(testScreenW, testScreenH)
		defer dst.Deallocate()
		dst.Fill(palette.BG)
		batch.use(dst)
		if !drawTeamScoreboard(dst, c, testScreenW, testScreenH) {
			t.Error("no team scoreboard with teams on the board")
		}
		batch.flush()
		txt.endFrame()
		W := float64(testScreenW)
		redBand := pixel(dst, W/2, 80+50+26+12)
		blueBand := pixel(dst, W/2, 80+50+26+34+28*3+12) // 3 red rows
		if !(int(redBand.R) > int(redBand.B)+30) || !(int(blueBand.B) > int(blueBand.R)+30) {
			t.Errorf("scoreboard bands: red %v, blue %v; want a red one above a blue one", redBand, blueBand)
		}
	})

	// EvTeam: 3 moves to blue; you are moved by auto-balance; EvJoin of 9.
	if n := p.onTeamEvent(&proto.Event{Kind: proto.EvTeam, A: 3, Value: int16(proto.TeamBlue)}); teamOf(c, 3) != proto.TeamBlue || !strings.Contains(n, "joined the blue team") {
		t.Errorf("EvTeam: player 3 on %d, notice %q", teamOf(c, 3), n)
	}
	if n := p.onTeamEvent(&proto.Event{Kind: proto.EvTeam, A: c.View().ID, Value: int16(proto.TeamBlue), Text: "auto-balance"}); n != "You were moved to the blue team (auto-balance)" {
		t.Errorf("auto-balance notice %q", n)
	}
	if vw := c.View(); selfColour(&vw) != palette.BlueMe {
		t.Errorf("after the move you are drawn %v, want %v", selfColour(&vw), palette.BlueMe)
	}
	if n := p.onTeamEvent(&proto.Event{Kind: proto.EvJoin, A: 9, Value: int16(proto.TeamRed), Text: "late"}); teamOf(c, 9) != proto.TeamRed || n != "late joined the red team" {
		t.Errorf("EvJoin: player 9 on %d, notice %q", teamOf(c, 9), n)
	}
	// A team number out of range is no team, also where it would wrap to
	// one in a byte (258 and -254 are 2, red, as uint8).
	for _, v := range []int16{258, -254, 4, -1} {
		if n := p.onTeamEvent(&proto.Event{Kind: proto.EvTeam, A: 3, Value: v}); teamOf(c, 3) != proto.TeamBlue || n != "" {
			t.Errorf("EvTeam with Value %d: player 3 on %d, notice %q; want blue as before and no notice", v, teamOf(c, 3), n)
		}
	}
	if n := p.onTeamEvent(&proto.Event{Kind: proto.EvTeam, A: 5, Value: int16(proto.TeamSpectator)}); teamOf(c, 5) != proto.TeamSpectator || n != "Player 5 is spectating" {
		t.Errorf("EvTeam spectator: player 5 on %d, notice %q", teamOf(c, 5), n)
	}
	if r, b := teamScores(c); r+b != wantRed+wantBlue-int(c.View().Scores[4].Kills) {
		t.Errorf("a spectator's kills still count for a team: %d : %d", r, b)
	}
	for i := 1; i < len(c.View().Scores); i++ {
		if c.View().Scores[i-1].ID >= c.View().Scores[i].ID {
			t.Fatalf("scoreboard rows out of ID order after a join: %+v", c.View().Scores)
		}
	}

	// Team chat is marked in the console and on the HUD.
	g.chat.onChat(&proto.Event{Kind: proto.EvChat, A: 2, Text: "push left", Value: proto.ChatTeam}, c.View().Name(2), &g.con)
	g.chat.onChat(&proto.Event{Kind: proto.EvChat, A: 2, Text: "gg"}, c.View().Name(2), &g.con)
	lines := g.con.lines
	if len(lines) < 2 || lines[len(lines)-2] != "(TEAM) Player 2: push left" || lines[len(lines)-1] != "Player 2: gg" {
		t.Errorf("console chat lines %q", lines[max(0, len(lines)-2):])
	}
	if l := g.chat.lines; len(l) < 2 || !l[len(l)-2].team || l[len(l)-1].team {
		t.Error("the HUD's chat lines do not mark the team message")
	}

	// The match end names the team; yours says so.
	if b, ok := matchEndBanner(c, &proto.Event{Kind: proto.EvMatchEnd, B: uint16(proto.TeamBlue), Text: "blue team"}); !ok || !strings.HasPrefix(b, "Your team (Blue) wins the match") {
		t.Errorf("match end banner %q", b)
	}
	if b, _ := matchEndBanner(c, &proto.Event{Kind: proto.EvMatchEnd}); !strings.HasPrefix(b, "Draw") {
		t.Errorf("draw banner %q", b)
	}

	// Console: usage and refusals are local, a good team goes to the server.
	if out := g.exec("jointeam"); !strings.Contains(out, "red|blue|auto") {
		t.Errorf("jointeam without a team: %q", out)
	}
	if out := g.exec("jointeam purple"); !strings.Contains(out, "unknown team") {
		t.Errorf("jointeam purple: %q", out)
	}
	if out := g.exec("help say_team"); !strings.Contains(out, "team") {
		t.Errorf("help say_team: %q", out)
	}
}
