//go:build js

package server

import "context"

// In the browser build (GOOS=js) a page cannot bind a port: the server runs
// only in process, driven by the lag lab with New, Step and ServeTransport
// over in-memory transports (transport.Pipe). Listen and Run say so; the
// native listeners and HTTP serving (listen.go) are not compiled, so the
// page links neither net/http nor gorilla/websocket nor pion.

// Listen fails with ErrBrowserListen.
func (s *Server) Listen() error { return ErrBrowserListen }

// Run fails with ErrBrowserListen.
func (s *Server) Run(context.Context) error { return ErrBrowserListen }
