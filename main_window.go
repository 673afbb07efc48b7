//go:build !headless && !js

package main

import "maps"

// The subcommands that open the game window (the Window rows of
// cli.Commands): only this build, with Ebiten, runs them. tickshot-server
// (-tags headless) has neither them nor stubs: run names the build that
// has them; the browser's entry point is main_js.go.
func init() {
	maps.Copy(runners, map[string]runFunc{
		"menu":     cmdMenu,     // main_menu.go
		"play":     cmdPlay,     // main_client.go
		"connect":  cmdConnect,  // main_client.go
		"playdemo": cmdPlaydemo, // main_client.go
		"lab":      cmdLab,      // main_lab.go
	})
}
