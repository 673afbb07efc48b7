package server_test

import (
	"strings"
	"testing"

	"tickshot/server"
)

// TestConfigMasters: sv_master lines add masters in file order, sv_region
// sets the region; a master that is not an http(s) URL, a region that is
// too long or not printable, and more than MaxMasters masters are refused
// naming the line, by the file and by Config (server.New).
func TestConfigMasters(t *testing.T) {
	var cfg server.Config
	if err := server.ParseConfig("server.cfg", "sv_master http://a.example:8300\nsv_master https://b.example/list\nsv_region \"eu west\"\n", &cfg); err != nil {
		t.Fatal(err)
	}
	if strings.Join(cfg.Masters, " ") != "http://a.example:8300 https://b.example/list" || cfg.Region != "eu west" {
		t.Errorf("masters %q, region %q", cfg.Masters, cfg.Region)
	}
	for _, bad := range []string{"sv_master a.example:8300", "sv_master ftp://a.example", "sv_master http://",
		"sv_region " + strings.Repeat("x", server.MaxRegionLen+1), "sv_region \"a\u202eb\"",
		strings.Repeat("sv_master http://a.example\n", server.MaxMasters+1)} {
		var c server.Config
		err := server.ParseConfig("server.cfg", bad, &c)
		if err == nil || !strings.Contains(err.Error(), "server.cfg:") {
			t.Errorf("%.40q: %v, want an error naming the line", bad, err)
		}
	}
	if _, err := server.New(server.Config{Masters: []string{"master.example"}}); err == nil {
		t.Error("server.New took a master without a scheme")
	}
}
