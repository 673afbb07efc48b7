package server

// Lifecycle hears of the moments an orchestrator cares about: the server
// accepts players, a human joins or leaves, a match ends. Package
// server/agones implements it for Agones' SDK sidecar. The server calls it
// from its tick goroutine (Ready from Run's), so no method may block.
type Lifecycle interface {
	// Ready: the listener accepts connections. humans is how many humans
	// the server admits at once: maxplayers + sv_maxspectators.
	Ready(humans int)
	// PlayerConnected: a human was admitted, as a player or a spectator.
	// id is the player's name on this server, unique among the connected.
	PlayerConnected(id string)
	// PlayerDisconnected: the human with that id left (or was kicked).
	PlayerDisconnected(id string)
	// MatchEnded: a match ended (game.EvMatchEnd); the intermission begins.
	MatchEnded()
}

// noLifecycle is the Lifecycle of a server that nothing orchestrates.
type noLifecycle struct{}

func (noLifecycle) Ready(int)                 {}
func (noLifecycle) PlayerConnected(string)    {}
func (noLifecycle) PlayerDisconnected(string) {}
func (noLifecycle) MatchEnded()               {}
