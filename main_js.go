//go:build js

// The browser build of tickshot (GOOS=js GOARCH=wasm): the same client
// package as the native window, run by the pages the server hands out,
// which set window.tickshotConfig before starting it. The game's page
// (assets/web/index.html) sets {name, server, autoplay} (autoplay: the bot
// brain plays, as the native --autoplay); the lag lab's page (lab.html, at
// /lab) sets {lab: true, preset}, and the page then runs the whole lab,
// server included, as `tickshot lab --preset NAME` does natively. `make
// wasm` builds it; the server embeds it.
package main

import (
	"encoding/json"
	"syscall/js"

	"tickshot/client"
	"tickshot/client/lab"
	"tickshot/client/netclient"
)

func main() {
	cfg := js.Global().Get("tickshotConfig")
	var msg string
	if cfg.Truthy() && cfg.Get("lab").Truthy() {
		msg = runLab(cfg)
	} else {
		msg = runGame(cfg)
	}
	// The page shows why the program ended.
	t := js.Global().Get("tickshot")
	if !t.Truthy() {
		t = js.Global().Get("Object").New()
		js.Global().Set("tickshot", t)
	}
	t.Set("exit", msg)
}

// runGame plays on the server of cfg (the page's host by default) and
// returns the sentence the page shows when the game ends.
func runGame(cfg js.Value) string {
	name, addr, autoplay := "player", "", false
	if cfg.Truthy() {
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
	if err != nil {
		return netclient.Describe(err, addr)
	}
	return "You left the game."
}

// runLab runs the lag lab with cfg.preset ("" : free play) and returns the
// sentence the page shows when it ends (an unknown preset's error). The
// frame shown is window.tickshotLab (lab.Readout) all along.
func runLab(cfg js.Value) string {
	preset := ""
	if v := cfg.Get("preset"); v.Type() == js.TypeString {
		preset = v.String()
	}
	// The figures of the frame shown, for scripts and tests: window.tickshotLab.
	jsJSON := js.Global().Get("JSON")
	readout := func(r lab.Readout) {
		if b, err := json.Marshal(r); err == nil {
			js.Global().Set("tickshotLab", jsJSON.Call("parse", string(b)))
		}
	}
	if err := client.RunLab(client.LabOptions{Preset: preset, Readout: readout}); err != nil {
		return "The lab stopped: " + err.Error()
	}
	return "You closed the lab."
}
