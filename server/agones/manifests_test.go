package agones_test

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"tickshot/server"
)

// gameServerSpec is the part of Agones' GameServer spec the manifests set.
type gameServerSpec struct {
	Container string `yaml:"container"`
	Ports     []struct {
		Name, PortPolicy, Protocol string
		ContainerPort              int `yaml:"containerPort"`
	} `yaml:"ports"`
	Health struct {
		Disabled            bool
		InitialDelaySeconds int `yaml:"initialDelaySeconds"`
		PeriodSeconds       int `yaml:"periodSeconds"`
		FailureThreshold    int `yaml:"failureThreshold"`
	} `yaml:"health"`
	Players struct {
		InitialCapacity int `yaml:"initialCapacity"`
	} `yaml:"players"`
	Template struct {
		Spec struct {
			Containers []struct {
				Name, Image string
				Args        []string
			}
		}
	} `yaml:"template"`
}

// TestManifests parses deploy/agones/*.yaml and checks them against the
// server: port 27015 over TCP, the image, health pings well inside the
// health period, player capacity = maxplayers + sv_maxspectators, and the
// flags that turn the lifecycle on.
func TestManifests(t *testing.T) {
	dir := filepath.Join("..", "..", "deploy", "agones")
	var specs []gameServerSpec
	for _, name := range []string{"gameserver.yaml", "fleet.yaml", "allocation.yaml"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			APIVersion string    `yaml:"apiVersion"`
			Kind       string    `yaml:"kind"`
			Spec       yaml.Node `yaml:"spec"`
		}
		if err := yaml.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var gs gameServerSpec
		var fleet struct {
			Replicas int `yaml:"replicas"`
			Template struct {
				Spec gameServerSpec `yaml:"spec"`
			} `yaml:"template"`
		}
		var alloc struct {
			Selectors []struct {
				MatchLabels map[string]string `yaml:"matchLabels"`
			} `yaml:"selectors"`
		}
		for _, v := range []any{&gs, &fleet, &alloc} {
			if err := doc.Spec.Decode(v); err != nil {
				t.Fatalf("%s: spec: %v", name, err)
			}
		}
		switch name {
		case "gameserver.yaml":
			if doc.APIVersion != "agones.dev/v1" || doc.Kind != "GameServer" {
				t.Errorf("%s: %s %s", name, doc.APIVersion, doc.Kind)
			}
			specs = append(specs, gs)
		case "fleet.yaml":
			if doc.APIVersion != "agones.dev/v1" || doc.Kind != "Fleet" || fleet.Replicas < 1 {
				t.Errorf("%s: %s %s replicas %d", name, doc.APIVersion, doc.Kind, fleet.Replicas)
			}
			specs = append(specs, fleet.Template.Spec)
		case "allocation.yaml":
			if doc.APIVersion != "allocation.agones.dev/v1" || doc.Kind != "GameServerAllocation" ||
				len(alloc.Selectors) != 1 || alloc.Selectors[0].MatchLabels["agones.dev/fleet"] != "tickshot" {
				t.Errorf("%s: want a GameServerAllocation from fleet tickshot, got %+v", name, alloc)
			}
		}
	}
	for i, s := range specs {
		what := []string{"gameserver.yaml", "fleet.yaml"}[i]
		if len(s.Ports) != 1 || s.Ports[0].ContainerPort != 27015 || s.Ports[0].Protocol != "TCP" {
			t.Errorf("%s: ports %+v, want one: 27015 TCP", what, s.Ports)
		}
		if len(s.Template.Spec.Containers) != 1 {
			t.Fatalf("%s: want one container", what)
		}
		c := s.Template.Spec.Containers[0]
		if c.Image != "tickshot:latest" || c.Name != s.Container {
			t.Errorf("%s: container %q image %q, spec.container %q", what, c.Name, c.Image, s.Container)
		}
		flags := map[string]string{}
		for _, a := range c.Args {
			k, v, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			flags[k] = v
		}
		for _, f := range []string{"agones-player-tracking", "agones-shutdown-when-empty"} {
			if _, ok := flags[f]; !ok {
				t.Errorf("%s: args %v lack --%s", what, c.Args, f)
			}
		}
		interval, err := time.ParseDuration(flags["agones-health-interval"])
		if err != nil {
			t.Errorf("%s: --agones-health-interval: %v", what, err)
		}
		period := time.Duration(s.Health.PeriodSeconds) * time.Second
		if s.Health.Disabled || s.Health.FailureThreshold < 1 || interval <= 0 || 2*interval > period {
			t.Errorf("%s: health %+v with pings every %v: want at least two pings per period", what, s.Health, interval)
		}
		maxPlayers, err := strconv.Atoi(flags["maxplayers"])
		if err != nil {
			t.Errorf("%s: --maxplayers: %v", what, err)
		}
		if want := maxPlayers + server.DefaultMaxSpectators; s.Players.InitialCapacity != want {
			t.Errorf("%s: players.initialCapacity %d, want maxplayers + sv_maxspectators = %d", what, s.Players.InitialCapacity, want)
		}
	}
	if len(specs) == 2 && !slices.Equal(specs[0].Template.Spec.Containers[0].Args, specs[1].Template.Spec.Containers[0].Args) {
		t.Errorf("gameserver.yaml and fleet.yaml run different args")
	}
}
