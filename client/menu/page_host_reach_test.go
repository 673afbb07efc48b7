//go:build !headless

package menu

import (
	"errors"
	"sync"
	"testing"
)

// The host page shows what the router said (Options.Reach) as it
// changes, and its Copy button copies the invite link, only when there
// is one.
func TestHostReach(t *testing.T) {
	var mu sync.Mutex
	sentence, link := "Asking your router to forward port 27015...", ""
	var copied []string
	copyErr := error(nil)
	m := newMenu(Options{DefaultName: "ann", Maps: []string{"arena"},
		Reach: func() (string, string) { mu.Lock(); defer mu.Unlock(); return sentence, link },
		Copy:  func(s string) error { copied = append(copied, s); return copyErr }})
	do(func() { m.show(scrHost) })
	do(func() { m.Update() })
	if got, canCopy := m.HostReach(); got != "Asking your router to forward port 27015..." || canCopy {
		t.Errorf("while asking: %q, copy %v; want the pending sentence and no copy", got, canCopy)
	}
	do(func() { m.host.reach.copyLink() })
	if len(copied) != 0 {
		t.Errorf("copied %q without a link", copied)
	}
	mu.Lock()
	sentence, link = "Friends can join at http://203.0.113.7:27015/", "http://203.0.113.7:27015/"
	mu.Unlock()
	do(func() { m.Update() })
	if got, canCopy := m.HostReach(); got != "Friends can join at http://203.0.113.7:27015/" || !canCopy {
		t.Errorf("mapped: %q, copy %v; want the link and a Copy button", got, canCopy)
	}
	do(func() { m.host.reach.copyLink() })
	if len(copied) != 1 || copied[0] != "http://203.0.113.7:27015/" || m.host.reach.copyB.Text().Label != "Copied" {
		t.Errorf("copied %q (button %q), want the link and \"Copied\"", copied, m.host.reach.copyB.Text().Label)
	}
	copyErr = errors.New("no xclip")
	do(func() { m.host.reach.copyLink() })
	if m.host.reach.copyB.Text().Label != "No clipboard: select the link" {
		t.Errorf("without a clipboard the button says %q", m.host.reach.copyB.Text().Label)
	}
	// Without Reach the page says nothing of the internet.
	plain := newMenu(Options{DefaultName: "ann", Maps: []string{"arena"}})
	if s, ok := plain.HostReach(); s != "" || ok {
		t.Errorf("without Reach: %q %v", s, ok)
	}
}
