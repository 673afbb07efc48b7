//go:build js

package lan

import (
	"context"
	"time"
)

// Browser is not available in the browser build (no UDP sockets).
type Browser struct{}

// NewBrowser returns ErrUnavailable: a web page cannot send multicast DNS.
func NewBrowser() (*Browser, error) { return nil, ErrUnavailable }

// Servers returns nothing.
func (b *Browser) Servers() []Server { return nil }

// Close does nothing.
func (b *Browser) Close() {}

// Browse returns ErrUnavailable.
func Browse(ctx context.Context, timeout time.Duration) ([]Server, error) { return nil, ErrUnavailable }

// Announce returns ErrUnavailable.
func Announce(cfg AnnounceConfig) (stop func(), err error) { return nil, ErrUnavailable }
