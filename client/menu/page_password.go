//go:build !headless

package menu

import (
	"fmt"

	"github.com/ebitenui/ebitenui/widget"

	"tickshot/client/palette"
	"tickshot/net/proto"
)

// passwordScreen asks for the password of a server a list (LAN or
// internet) says wants one, then joins it.
type passwordScreen struct {
	k     *kit
	title *widget.Text
	input *widget.TextInput
	addr  string // the server's address
}

// newPasswordScreen builds the password page: join joins the server with
// the password typed; back goes back to the list that asked (Cancel).
func newPasswordScreen(k *kit, join func(addr, password string), back func()) (*passwordScreen, *widget.Container) {
	p := &passwordScreen{k: k}
	root, col := k.page("Password", colWidth)
	p.title = label("", &k.f.normal, palette.Text)
	col.AddChild(p.title)
	p.input = widget.NewTextInput(widget.TextInputOpts.WidgetOpts(stretch()), widget.TextInputOpts.Secure(true),
		widget.TextInputOpts.Placeholder("password"),
		widget.TextInputOpts.Validation(func(s string) (bool, *string) { return len(s) <= proto.MaxPasswordLen, nil }),
		widget.TextInputOpts.SubmitHandler(func(a *widget.TextInputChangedEventArgs) { join(p.addr, a.InputText) }))
	col.AddChild(p.input)
	col.AddChild(row(button("Cancel", back), button("Join", func() { join(p.addr, p.input.GetText()) })))
	return p, root
}

// ask readies the page for the server named server at addr.
func (p *passwordScreen) ask(addr, server string) {
	p.addr = addr
	p.title.Label = fmt.Sprintf("%s wants a password", server)
}

// enter empties the field and puts the keyboard on it.
func (p *passwordScreen) enter() {
	p.input.SetText("")
	p.k.ui.SetFocusedWidget(p.input)
}
