//go:build js

// The browser build of tickshot (GOOS=js GOARCH=wasm): the same client
// package as the native window, run by the page the server hands out
// (assets/web/index.html), which sets window.tickshotConfig = {name,
// server, autoplay} before starting it (autoplay: the bot brain plays, as
// the native --autoplay). `make wasm` builds it; the server embeds it.
package main

import (
	"syscall/js"

	"tickshot/client"
	"tickshot/client/netclient"
)

func main() {
	name, addr, autoplay := "player", "", false
	if cfg := js.Global().Get("tickshotConfig"); cfg.Truthy() {
		autoplay = cfg.Get("autoplay").Truthy()
		if v := cfg.Get("name"); v.Type() == js.TypeString && v.String() != "" {
			name = v.String()
		}
		if v := cfg.Get("server"); v.Type() == js.TypeString {
			addr = v.String()
		}
	}
	if addr == "" {
		// The /ws of the host that served the page (wss:// behind TLS).
		loc := js.Global().Get("location")
		scheme := "ws://"
		if loc.Get("protocol").String() == "https:" {
			scheme = "wss://"
		}
		addr = scheme + loc.Get("host").String() + "/ws"
	}
	err := client.Run(client.Options{Addr: addr, Config: netclient.DefaultConfig(name), Title: "Tickshot",
		AutoPlay: autoplay})
	msg := "You left the game."
	if err != nil {
		msg = netclient.Describe(err, addr)
	}
	if t := js.Global().Get("tickshot"); t.Truthy() {
		t.Set("exit", msg)
	}
}
