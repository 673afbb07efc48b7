//go:build !headless && !js

package client

// bridge ties the game to its web page in the browser build (browser_js.go);
// native windows have none.
type bridge struct{}

func (*bridge) init()        {}
func (*bridge) update(*Game) {}
func (*bridge) frameDrawn()  {}
