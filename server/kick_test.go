package server

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/net/transport"
)

// TestCodeLabels: every kick and refusal code has its own metric label,
// and the labels are the series /metrics exposes.
func TestCodeLabels(t *testing.T) {
	seen := map[string]bool{}
	for c := kickCode(0); c < numKickCodes; c++ {
		l := kickLabels[c]
		if l == "" || seen[l] {
			t.Errorf("kick code %d: label %q empty or shared", c, l)
		}
		seen[l] = true
	}
	seen = map[string]bool{}
	for c := refuseCode(0); c < numRefuseCodes; c++ {
		l := refuseLabels[c]
		if l == "" || seen[l] {
			t.Errorf("refusal code %d: label %q empty or shared", c, l)
		}
		seen[l] = true
	}
	if KickReasons != kickLabels || RefuseReasons != refuseLabels {
		t.Error("KickReasons or RefuseReasons differ from the code tables")
	}
}

// TestKickAndRejectSitesNameACode: every kick (session.kick) and every
// refusal literal in the server's code names a code constant, so every
// site is counted under that code's label.
func TestKickAndRejectSitesNameACode(t *testing.T) {
	kicks, refusals := map[string]bool{}, map[string]bool{}
	for c := kickCode(0); c < numKickCodes; c++ {
		kicks[kickIdent(c)] = true
	}
	for c := refuseCode(0); c < numRefuseCodes; c++ {
		refusals[refuseIdent(c)] = true
	}
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	var nKick, nRefuse int
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "kick" && len(n.Args) == 3 {
					nKick++
					if id, ok := n.Args[1].(*ast.Ident); !ok || !kicks[id.Name] {
						t.Errorf("%s: a kick without a kick code constant", fset.Position(n.Pos()))
					}
				}
			case *ast.CompositeLit:
				if id, ok := n.Type.(*ast.Ident); ok && id.Name == "refusal" && len(n.Elts) > 0 {
					nRefuse++
					if c, ok := n.Elts[0].(*ast.Ident); !ok || !refusals[c.Name] {
						t.Errorf("%s: a refusal without a refusal code constant", fset.Position(n.Pos()))
					}
				}
			}
			return true
		})
	}
	if nKick < 6 || nRefuse < 11 {
		t.Errorf("found %d kick sites and %d refusal sites; the scan misses some", nKick, nRefuse)
	}
}

// kickIdent and refuseIdent name a code's constant as the source spells it.
func kickIdent(c kickCode) string {
	return [...]string{"kickFlood", "kickInvalidUserCmd", "kickProtocolError", "kickTimeout", "kickRconAuth", "kickAdmin"}[c]
}

func refuseIdent(c refuseCode) string {
	return [...]string{"refuseConnLimit", "refusePendingPerAddr", "refusePendingTotal", "refuseHandshakeTimeout",
		"refuseNotHello", "refuseProtocolVersion", "refusePasswordNeeded", "refusePasswordWrong",
		"refusePlayersPerAddr", "refuseJoinRate", "refuseServerFull", "refuseSpectatorsFull", "refuseShutdown"}[c]
}

// TestRewordingKeepsTheCount: a kick or a refusal is counted under its
// code whatever its sentence says.
func TestRewordingKeepsTheCount(t *testing.T) {
	s := lcServer(t, Config{Seed: 1})
	for c := kickCode(0); c < numKickCodes; c++ {
		a, _ := transport.Pipe(proto.ServerOptions(), transport.Options{})
		ss := testSession(&game.Player{ID: 1, Name: "p"}, 0)
		ss.conn = proto.NewServerConn(a)
		ss.kick(s, c, "a sentence reworded beyond recognition")
		for k := range kickLabels {
			want := uint64(0)
			if kickCode(k) == c {
				want = 1
			}
			if got := s.metrics.kicks[k].Swap(0); got != want {
				t.Errorf("kick with code %s: %q counted %d, want %d", kickLabels[c], kickLabels[k], got, want)
			}
		}
	}
	for c := refuseCode(0); c < numRefuseCodes; c++ {
		a, _ := transport.Pipe(proto.ServerOptions(), transport.Options{})
		s.hs.sendReject(proto.NewServerConn(a), refusal{c, "too many players from your address: reworded"})
		for k := range refuseLabels {
			want := uint64(0)
			if refuseCode(k) == c {
				want = 1
			}
			if got := s.metrics.refused[k].Swap(0); got != want {
				t.Errorf("refusal with code %s: %q counted %d, want %d", refuseLabels[c], refuseLabels[k], got, want)
			}
		}
	}
}
