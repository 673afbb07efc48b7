package server_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/internal/tool/testserver"
	"tickshot/net/proto"
	"tickshot/server"
)

// The wire's team numbers and event kinds are the world's.
func TestTeamNumbersMatchTheWorld(t *testing.T) {
	if proto.TeamNone != uint8(game.TeamNone) || proto.TeamSpectator != uint8(game.TeamSpectator) ||
		proto.TeamRed != uint8(game.TeamRed) || proto.TeamBlue != uint8(game.TeamBlue) {
		t.Error("proto.Team* and game.Team* differ")
	}
	if proto.EvTeam != uint8(game.EvTeam) || proto.EvMatchEnd != uint8(game.EvMatchEnd) {
		t.Error("proto.EvTeam or EvMatchEnd differ from the world's kinds")
	}
}

// pump polls every client for d, returning each one's events and prints.
func pump(t *testing.T, d time.Duration, cs ...*netclient.Client) ([][]proto.Event, [][]string) {
	t.Helper()
	evs, prints := make([][]proto.Event, len(cs)), make([][]string, len(cs))
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		for i, c := range cs {
			if err := c.Poll(); err != nil {
				t.Fatal(err)
			}
			c.Advance(time.Second / time.Duration(c.View().TickRate))
			evs[i] = append(evs[i], c.Match().TakeEvents()...)
			prints[i] = append(prints[i], c.Match().TakePrints()...)
		}
	}
	return evs, prints
}

// Team deathmatch over real websockets on loopback: three bots and three
// humans join; the scoreboard gives every row a team, three on each;
// say_team reaches the sender's teammates (marked) and not the enemy;
// jointeam refuses the bigger team and accepts the smaller one.
func TestTeamDeathmatchOverWebsockets(t *testing.T) {
	srv := testserver.Start(t, server.Config{Bots: 3, Cvars: [][2]string{{"mp_gamemode", "tdm"}}})
	var cs []*netclient.Client
	for _, n := range []string{"alice", "bob", "carol"} {
		cs = append(cs, testserver.Connect(t, srv.Addr(), netclient.DefaultConfig(n)))
	}
	// The scoreboard with all six, each on red or blue.
	team := map[uint16]uint8{}
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); {
		pump(t, 50*time.Millisecond, cs...)
		sc := cs[0].View().Scores
		if len(sc) == 6 {
			for _, r := range sc {
				team[r.ID] = r.Team
			}
			break
		}
	}
	red, blue := 0, 0
	for _, tm := range team {
		switch tm {
		case proto.TeamRed:
			red++
		case proto.TeamBlue:
			blue++
		}
	}
	if red != 3 || blue != 3 {
		t.Fatalf("scoreboard teams %v: %d red, %d blue; want 3 and 3", team, red, blue)
	}
	// Two humans share a team: one says something to it.
	var sender, mate, enemy *netclient.Client
	for i, a := range cs {
		for _, b := range cs[i+1:] {
			if team[a.View().ID] == team[b.View().ID] {
				sender, mate = a, b
			}
		}
	}
	for _, c := range cs {
		if c != sender && c != mate {
			enemy = c
		}
	}
	if sender == nil || enemy == nil || team[enemy.View().ID] == team[sender.View().ID] {
		t.Fatalf("three humans on two teams, yet no pair shares one: %v", team)
	}
	sender.SendCommand("say_team push left", "")
	sender.SendCommand("say gg all", "")
	evs, _ := pump(t, 1500*time.Millisecond, sender, mate, enemy)
	chats := func(evs []proto.Event) (teamMsgs, all []string) {
		for _, e := range evs {
			if e.Kind == proto.EvChat && e.A == sender.View().ID {
				if e.Value == proto.ChatTeam {
					teamMsgs = append(teamMsgs, e.Text)
				} else {
					all = append(all, e.Text)
				}
			}
		}
		return
	}
	for i, who := range []string{"sender", "teammate"} {
		tm, all := chats(evs[i])
		if len(tm) != 1 || tm[0] != "push left" || len(all) != 1 {
			t.Errorf("%s got team chat %q and chat %q; want \"push left\" marked and \"gg all\"", who, tm, all)
		}
	}
	if tm, all := chats(evs[2]); len(tm) != 0 || len(all) != 1 || all[0] != "gg all" {
		t.Errorf("the enemy got team chat %q and chat %q; want only \"gg all\"", tm, all)
	}
	// jointeam: the sender's team has 3, the other 3: joining the other
	// would make it 4 against 2.
	sender.SendCommand("jointeam "+map[uint8]string{proto.TeamRed: "blue", proto.TeamBlue: "red"}[team[sender.View().ID]], "")
	_, prints := pump(t, 500*time.Millisecond, sender)
	if p := strings.Join(prints[0], "\n"); !strings.Contains(p, "enough players") {
		t.Errorf("jointeam to the bigger team answered %q; want a refusal saying why", p)
	}
	// jointeam spectator is spectate (Source's team 1).
	sender.SendCommand("jointeam spectator", "")
	pump(t, 500*time.Millisecond, sender)
	if !sender.View().Spectating {
		t.Errorf("after jointeam spectator the sender is not spectating")
	}
}

// In deathmatch say_team is say: everyone receives it, unmarked (Source).
func TestSayTeamInDeathmatchGoesToAll(t *testing.T) {
	srv := testserver.Start(t, server.Config{})
	a := testserver.Connect(t, srv.Addr(), netclient.DefaultConfig("a"))
	b := testserver.Connect(t, srv.Addr(), netclient.DefaultConfig("b"))
	pump(t, 300*time.Millisecond, a, b)
	a.SendCommand("say_team hello", "")
	evs, _ := pump(t, 1000*time.Millisecond, a, b)
	got := false
	for _, e := range evs[1] {
		if e.Kind == proto.EvChat && e.A == a.View().ID && e.Text == "hello" && e.Value == 0 {
			got = true
		}
	}
	if !got {
		t.Errorf("say_team in deathmatch did not reach the other player as plain chat: %+v", evs[1])
	}
}

// Auto-balance over websockets: two players of one team leave; the next
// player of the bigger team to respawn (after `kill`) is moved to the
// other team and told so on its console, and everyone gets EvTeam.
func TestAutoBalanceMovesAtRespawn(t *testing.T) {
	srv := testserver.Start(t, server.Config{Cvars: [][2]string{{"mp_gamemode", "tdm"}}})
	var cs []*netclient.Client
	for _, n := range []string{"a", "b", "c", "d"} {
		cs = append(cs, testserver.Connect(t, srv.Addr(), netclient.DefaultConfig(n)))
		pump(t, 100*time.Millisecond, cs...) // join in this order: red, blue, red, blue
	}
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end) && len(cs[0].View().Scores) < 4; {
		pump(t, 50*time.Millisecond, cs...)
	}
	a, c := cs[0], cs[2]
	if a.View().Team(a.View().ID) != proto.TeamRed || a.View().Team(cs[1].View().ID) != proto.TeamBlue || a.View().Team(c.View().ID) != proto.TeamRed || a.View().Team(cs[3].View().ID) != proto.TeamBlue {
		t.Fatalf("teams in join order: %+v; want red, blue, red, blue", a.View().Scores)
	}
	cs[1].Close("leaving")
	cs[3].Close("leaving")
	pump(t, 300*time.Millisecond, a, c)
	a.SendCommand("kill", "")
	evs, prints := pump(t, 3*time.Second, a, c) // respawn after 2 s
	var moves []proto.Event
	for _, e := range evs[1] {
		if e.Kind == proto.EvTeam {
			moves = append(moves, e)
		}
	}
	if len(moves) != 1 || moves[0].A != a.View().ID || moves[0].Value != int16(proto.TeamBlue) || moves[0].Text != "auto-balance" {
		t.Errorf("team moves seen by the teammate: %+v; want a moved to blue by auto-balance", moves)
	}
	if p := strings.Join(prints[0], "\n"); !strings.Contains(p, "moved to the blue team (auto-balance)") {
		t.Errorf("the moved player's console: %q", p)
	}
	pump(t, 1500*time.Millisecond, a, c)
	if a.View().Team(a.View().ID) != proto.TeamBlue || a.View().Team(c.View().ID) != proto.TeamRed {
		t.Errorf("after the move the scoreboard has a on %d, c on %d", a.View().Team(a.View().ID), a.View().Team(c.View().ID))
	}
}

// A spectator's say_team goes to the spectators only, marked as team chat
// (Source: team 1's team chat), in team deathmatch and deathmatch alike:
// the players in the match never read it, and its say still reaches all.
func TestSpectatorSayTeamStaysWithSpectators(t *testing.T) {
	for _, mode := range []string{"tdm", "dm"} {
		t.Run(mode, func(t *testing.T) {
			srv := testserver.Start(t, server.Config{Cvars: [][2]string{{"mp_gamemode", mode}}})
			spec := netclient.DefaultConfig("watcher")
			spec.Spectate = true
			w := testserver.Connect(t, srv.Addr(), spec)
			spec.Name = "watcher2"
			w2 := testserver.Connect(t, srv.Addr(), spec)
			a := testserver.Connect(t, srv.Addr(), netclient.DefaultConfig("a"))
			b := testserver.Connect(t, srv.Addr(), netclient.DefaultConfig("b"))
			pump(t, 300*time.Millisecond, w, w2, a, b)
			w.SendCommand("say_team they cannot see this", "")
			w.SendCommand("say hello all", "")
			evs, _ := pump(t, 1000*time.Millisecond, w, w2, a, b)
			for i, who := range []string{"the sender", "the other spectator", "player a", "player b"} {
				var teamMsgs, all []string
				for _, e := range evs[i] {
					if e.Kind == proto.EvChat && e.A == w.View().ID {
						if e.Value == proto.ChatTeam {
							teamMsgs = append(teamMsgs, e.Text)
						} else {
							all = append(all, e.Text)
						}
					}
				}
				wantTeam := []string{"they cannot see this"}
				if i >= 2 {
					wantTeam = nil
				}
				if !slices.Equal(teamMsgs, wantTeam) || !slices.Equal(all, []string{"hello all"}) {
					t.Errorf("%s got team chat %q and chat %q; want %q and [\"hello all\"]", who, teamMsgs, all, wantTeam)
				}
			}
		})
	}
}
