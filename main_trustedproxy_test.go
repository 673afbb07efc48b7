//go:build !js

package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"tickshot/server"
)

// TestTrustedProxyFlag: --trusted-proxy is repeatable (an address is a /32
// or /128), overrides the file's sv_trusted_proxy, and a name or a bad
// prefix is refused with exit status 2 before the server listens.
func TestTrustedProxyFlag(t *testing.T) {
	p := writeCfg(t, "server.cfg", "sv_trusted_proxy 10.0.0.0/8\n")
	fs := newFlags("server", "", io.Discard)
	sf := addServerFlags(fs, server.DefaultAddr, 0)
	if err := fs.Parse([]string{"--config", p}); err != nil {
		t.Fatal(err)
	}
	cfg, err := sf.resolve(fs, io.Discard)
	if err != nil || fmt.Sprint(cfg.TrustedProxies) != "[10.0.0.0/8]" {
		t.Errorf("from the file: %v, %v", cfg.TrustedProxies, err)
	}
	fs = newFlags("server", "", io.Discard)
	sf = addServerFlags(fs, server.DefaultAddr, 0)
	if err := fs.Parse([]string{"--config", p, "--trusted-proxy", "127.0.0.1", "--trusted-proxy", "::1"}); err != nil {
		t.Fatal(err)
	}
	if cfg, err = sf.resolve(fs, io.Discard); err != nil || fmt.Sprint(cfg.TrustedProxies) != "[127.0.0.1/32 ::1/128]" {
		t.Errorf("flags over the file: %v, %v", cfg.TrustedProxies, err)
	}
	for _, bad := range []string{"localhost", "10.0.0.0/40"} {
		var out, errb bytes.Buffer
		if code := run([]string{"server", "--trusted-proxy", bad, "--addr", "127.0.0.1:0", "--lan=false"}, &out, &errb); code != 2 ||
			!strings.Contains(errb.String(), "want an IP address or CIDR prefix") {
			t.Errorf("--trusted-proxy %s: exit %d, stderr %q", bad, code, errb.String())
		}
	}
}
