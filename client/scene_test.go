//go:build !headless

package client

import (
	"errors"
	"slices"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// logScene records its calls into a shared log; onUpdate, when set, runs
// inside its Update, onEnter inside its OnEnter.
type logScene struct {
	name     string
	log      *[]string
	onUpdate func(ctx *SceneContext) error
	onEnter  func(ctx *SceneContext)
}

func (s *logScene) Update(ctx *SceneContext) error {
	*s.log = append(*s.log, s.name+".Update")
	if s.onUpdate != nil {
		return s.onUpdate(ctx)
	}
	return nil
}

func (s *logScene) Draw(*ebiten.Image) { *s.log = append(*s.log, s.name+".Draw") }

func (s *logScene) OnEnter(ctx *SceneContext) {
	*s.log = append(*s.log, s.name+".OnEnter")
	if s.onEnter != nil {
		s.onEnter(ctx)
	}
}

func (s *logScene) OnLeave(*SceneContext) { *s.log = append(*s.log, s.name+".OnLeave") }

// plainScene has neither OnEnter nor OnLeave.
type plainScene struct{ updates int }

func (s *plainScene) Update(*SceneContext) error { s.updates++; return nil }
func (s *plainScene) Draw(*ebiten.Image)         {}

// TestSceneManagerTransitions: the first scene is entered at once; a
// switch asked in an Update takes effect when that Update returns (the
// old scene left, then the new one entered, before the frame is drawn);
// the latest switch of a frame wins and the one it replaced is never
// entered; an OnEnter may switch on; Close leaves the current scene.
func TestSceneManagerTransitions(t *testing.T) {
	var log []string
	ctx := &SceneContext{}
	m := NewSceneManager(ctx)
	if ctx.Manager != m {
		t.Fatal("the context does not know its manager")
	}
	a := &logScene{name: "a", log: &log}
	b := &logScene{name: "b", log: &log}
	c := &logScene{name: "c", log: &log}
	d := &logScene{name: "d", log: &log}

	m.Switch(a)
	if m.Current() != a || !slices.Equal(log, []string{"a.OnEnter"}) {
		t.Fatalf("first scene: current %v, log %q", m.Current(), log)
	}
	log = nil
	a.onUpdate = func(ctx *SceneContext) error {
		ctx.Switch(c) // replaced in the same frame: never entered
		ctx.Switch(b)
		return nil
	}
	if err := m.Update(); err != nil {
		t.Fatal(err)
	}
	m.Draw(nil)
	want := []string{"a.Update", "a.OnLeave", "b.OnEnter", "b.Draw"}
	if !slices.Equal(log, want) {
		t.Fatalf("switch in Update: %q, want %q", log, want)
	}

	// b's OnEnter of a later visit switches on to d: the chain is followed
	// within the frame.
	log = nil
	b.onUpdate = func(ctx *SceneContext) error { ctx.Switch(c); return nil }
	c.onEnter = func(ctx *SceneContext) { ctx.Switch(d) }
	if err := m.Update(); err != nil {
		t.Fatal(err)
	}
	want = []string{"b.Update", "b.OnLeave", "c.OnEnter", "c.OnLeave", "d.OnEnter"}
	if !slices.Equal(log, want) || m.Current() != d {
		t.Fatalf("switch in OnEnter: %q (current %s), want %q", log, m.Current().(*logScene).name, want)
	}

	// Two scenes that switch to each other on entry do not hang the frame.
	log = nil
	c.onEnter = func(ctx *SceneContext) { ctx.Switch(d) }
	d.onEnter = func(ctx *SceneContext) { ctx.Switch(c) }
	d.onUpdate = func(ctx *SceneContext) error { ctx.Switch(c); return nil }
	if err := m.Update(); err != nil {
		t.Fatal(err)
	}
	if n := len(log); n > 1+2*8 {
		t.Fatalf("ping-pong switching ran %d steps in a frame", n)
	}

	// An error from Update comes back; the switch asked with it still happens.
	log = nil
	boom := errors.New("boom")
	e := &logScene{name: "e", log: &log}
	m.Switch(e)
	m.Update() // enter e (after leaving whichever of c, d is current)
	log = nil
	f := &plainScene{}
	e.onUpdate = func(ctx *SceneContext) error { ctx.Switch(f); return boom }
	if err := m.Update(); !errors.Is(err, boom) {
		t.Fatalf("Update returned %v, want the scene's error", err)
	}
	if !slices.Equal(log, []string{"e.Update", "e.OnLeave"}) || m.Current() != f {
		t.Fatalf("after the error: %q, current %T", log, m.Current())
	}
	// A scene without OnEnter/OnLeave is switched to and from quietly.
	m.Update()
	if f.updates != 1 {
		t.Fatalf("plain scene updated %d times, want 1", f.updates)
	}
	log = nil
	a.onUpdate = nil
	m.Switch(a)
	m.Update()
	m.Close()
	want = []string{"a.OnEnter", "a.Update", "a.OnLeave"}
	if !slices.Equal(log, want) || m.Current() != nil {
		t.Fatalf("switch and close: %q, current %v; want %q", log, m.Current(), want)
	}
}

// TestErrorSceneRetries: the error screen connects again on retry and
// shows "Connecting" (no error) meanwhile; leaving it gives the attempt up.
func TestErrorSceneRetries(t *testing.T) {
	g := newGame(Options{Addr: "127.0.0.1:1"})
	s := newErrorScene("127.0.0.1:1", errors.New("refused"), true)
	g.scenes.Switch(s)
	var r Report
	s.report(&r)
	if r.Phase != "error" || !r.ConnectedOnce || r.Error == "" {
		t.Fatalf("error scene reports %+v", r)
	}
	s.retry(g.ctx)
	r = Report{}
	s.report(&r)
	if r.Phase != "connecting" || r.ConnectedOnce || s.cancel == nil {
		t.Fatalf("after retry: %+v", r)
	}
	g.scenes.Close()
	if s.cancel != nil {
		t.Fatal("leaving the scene did not give the attempt up")
	}
}
