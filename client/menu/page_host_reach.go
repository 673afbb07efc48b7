//go:build !headless

package menu

import (
	"github.com/ebitenui/ebitenui/widget"

	"tickshot/client/palette"
)

// hostReach is the host page's line about friends on the internet: what
// the router said to the port mapping (Options.Reach: the invite link,
// or why not and what to do) and a button that copies the link
// (Options.Copy). It polls Reach each frame the page is shown.
type hostReach struct {
	reach func() (sentence, link string)
	copy  func(text string) error
	text  *widget.Text
	copyB *widget.Button
	link  string
}

// newHostReach builds the line and the button; nil when reach is nil
// (the page then says nothing of the internet).
func newHostReach(k *kit, reach func() (string, string), copyText func(string) error) *hostReach {
	if reach == nil {
		return nil
	}
	r := &hostReach{reach: reach, copy: copyText}
	r.text = widget.NewText(widget.TextOpts.Text("", &k.f.small, palette.Dim), widget.TextOpts.WidgetOpts(stretch()),
		widget.TextOpts.MaxWidth(colWidth))
	r.copyB = button("Copy link", r.copyLink)
	r.refresh()
	return r
}

// widgets are the line, and the button when there is a clipboard.
func (r *hostReach) widgets() []widget.PreferredSizeLocateableWidget {
	if r.copy == nil {
		return []widget.PreferredSizeLocateableWidget{r.text}
	}
	return []widget.PreferredSizeLocateableWidget{r.text, r.copyB}
}

// refresh shows the sentence now; the button works only with a link.
func (r *hostReach) refresh() {
	sentence, link := r.reach()
	r.text.Label = sentence
	if link != r.link {
		r.link = link
		r.copyB.Text().Label = "Copy link"
	}
	r.copyB.GetWidget().Disabled = link == ""
}

// copyLink puts the invite link on the clipboard and says so.
func (r *hostReach) copyLink() {
	if r.link == "" || r.copy == nil {
		return
	}
	if err := r.copy(r.link); err != nil {
		r.copyB.Text().Label = "No clipboard: select the link"
		return
	}
	r.copyB.Text().Label = "Copied"
}
