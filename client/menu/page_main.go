//go:build !headless

package menu

import (
	"github.com/ebitenui/ebitenui/widget"

	"tickshot/client/palette"
	"tickshot/net/proto"
)

// mainScreen is the first page: the player name, play against bots, the
// ways to the other pages, and quit. The name is taken (and saved) as the
// player leaves the field for any of them.
type mainScreen struct {
	k     *kit
	prefs *prefs
	name  *widget.TextInput
	play  *widget.Button

	onPlayBots func(player string) // Options.PlayBots (nil: none)
	onQuit     func()              // Options.Quit (nil: none)
}

// newMainScreen builds the main page; message is the line under the
// title that Menu.SetMessage writes, and show switches pages.
func newMainScreen(k *kit, p *prefs, message *widget.Text, playBots func(string), quit func(),
	show func(screen)) (*mainScreen, *widget.Container) {
	s := &mainScreen{k: k, prefs: p, onPlayBots: playBots, onQuit: quit}
	root, col := k.page("", colWidth)
	col.AddChild(centred("Top-down shooter with Source-style netcode", &k.f.small, palette.Dim))
	col.AddChild(message)
	col.AddChild(label("Player name", &k.f.small, palette.Dim))
	s.name = widget.NewTextInput(widget.TextInputOpts.WidgetOpts(stretch()),
		widget.TextInputOpts.Placeholder("your name"),
		widget.TextInputOpts.Validation(func(s string) (bool, *string) { return len(s) <= proto.MaxNameLen, nil }),
		widget.TextInputOpts.SubmitHandler(func(a *widget.TextInputChangedEventArgs) {
			p.setName(a.InputText)
			k.ui.SetFocusedWidget(s.play)
		}))
	col.AddChild(s.name)
	s.play = button("Play against bots", s.playBots)
	to := func(next screen) func() { return func() { s.takeName(); show(next) } }
	col.AddChild(s.play,
		button("Host a game", to(scrHost)),
		button("Join a game", to(scrJoin)),
		button("Settings", to(scrSettings)),
		button("Quit", s.quit))
	col.AddChild(centred("Tab / arrows move, Enter picks, Esc goes back", &k.f.small, palette.Dim))
	return s, root
}

// enter shows the saved name and puts the keyboard on its field.
func (s *mainScreen) enter() {
	s.name.SetText(s.prefs.cfg.Name)
	s.k.ui.SetFocusedWidget(s.name)
}

// takeName saves the name field's text as the player name.
func (s *mainScreen) takeName() { s.prefs.setName(s.name.GetText()) }

// playBots starts a game against bots under the name in the field.
func (s *mainScreen) playBots() {
	s.takeName()
	if s.onPlayBots != nil {
		s.onPlayBots(s.prefs.cfg.Name)
	}
}

// quit closes the game, keeping the name in the field.
func (s *mainScreen) quit() {
	s.takeName()
	if s.onQuit != nil {
		s.onQuit()
	}
}
