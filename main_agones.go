//go:build !js

package main

import (
	"flag"
	"sync/atomic"
	"time"

	"tickshot/server"
	"tickshot/server/agones"
)

// agonesFlags are the server's flags for Agones' game server lifecycle
// (package server/agones). They act only when AGONES_SDK_HTTP_PORT is set,
// as it is in a GameServer's container.
type agonesFlags struct {
	tracking, shutdownEmpty *bool
	health                  *time.Duration
}

func addAgonesFlags(fs *flag.FlagSet) agonesFlags {
	return agonesFlags{
		tracking:      fs.Bool("agones-player-tracking", false, "under Agones (AGONES_SDK_HTTP_PORT set): report each human, player or spectator, to Agones' player tracking (alpha feature gate PlayerTracking) under its name, with capacity maxplayers + sv_maxspectators"),
		shutdownEmpty: fs.Bool("agones-shutdown-when-empty", false, "under Agones: ask Agones to shut this server down at the first match end with no human connected, once a human has joined; the fleet then starts a fresh one"),
		health:        fs.Duration("agones-health-interval", agones.DefaultHealthInterval, "under Agones: time between health pings, sent while the tick advances (a hung tick loop goes Unhealthy); keep it under the GameServer's spec.health.periodSeconds (Agones' default 5s)"),
	}
}

func (f agonesFlags) check() error {
	return outOfRange(*f.health >= agones.MinHealthInterval && *f.health <= agones.MaxHealthInterval, "agones-health-interval", *f.health,
		agones.MinHealthInterval.String()+".."+agones.MaxHealthInterval.String())
}

// agonesStall is how long the server's published tick may stand still
// before health pings are withheld (it is published 4 times a second).
const agonesStall = time.Second

// start follows Agones' lifecycle when AGONES_SDK_HTTP_PORT is set: it
// sets cfg.Lifecycle and returns what stops the SDK after the server.
// Health pings are sent only while the tick of the server that srv will
// hold advances, so a hung tick loop turns Unhealthy. Without the
// variable it does nothing.
func (f agonesFlags) start(cfg *server.Config, srv *atomic.Pointer[server.Server]) (stop func(), err error) {
	url, ok, err := agones.URLFromEnv()
	if err != nil || !ok {
		if err == nil && (*f.tracking || *f.shutdownEmpty) {
			cfg.Logger.Warn("--agones-* flags given but " + agones.EnvHTTPPort + " is not set: not running under Agones, flags ignored")
		}
		return func() {}, err
	}
	sdk, err := agones.New(agones.Config{BaseURL: url, HealthInterval: *f.health, PlayerTracking: *f.tracking,
		ShutdownWhenEmpty: *f.shutdownEmpty, Logger: cfg.Logger,
		Healthy: agones.TickAdvancing(func() uint32 {
			if s := srv.Load(); s != nil {
				return s.CurrentStatus().Tick
			}
			return 0
		}, agonesStall)})
	if err != nil {
		return nil, err
	}
	cfg.Logger.Info("running under Agones", "sidecar", url, "health_interval", *f.health,
		"player_tracking", *f.tracking, "shutdown_when_empty", *f.shutdownEmpty)
	cfg.Lifecycle = sdk
	return func() { sdk.Close(2 * time.Second) }, nil
}
