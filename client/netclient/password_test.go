package netclient_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/internal/tool/testserver"
	"tickshot/net/proto"
	"tickshot/server"
)

// TestJoinPassword: a server with a join password (--password, Source's
// sv_password) refuses a client over a real websocket without one, and
// one with a wrong one, each with the reason a player understands, and
// admits the right one.
func TestJoinPassword(t *testing.T) {
	const pw = "open sesame"
	srv := testserver.Start(t, server.Config{Password: pw})
	try := func(given string) error {
		cfg := netclient.DefaultConfig("guest")
		cfg.Password = given
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c, err := netclient.Connect(ctx, netclient.Websocket, srv.Addr(), cfg)
		if err == nil {
			c.Close("test over")
		}
		return err
	}
	for _, tc := range []struct{ given, reason, sentence string }{
		{"", proto.RejectNeedPassword, "needs a password"},
		{"open sesam", proto.RejectWrongPassword, "Wrong password"},
		{"open sesame!", proto.RejectWrongPassword, "Wrong password"},
		{"OPEN SESAME", proto.RejectWrongPassword, "Wrong password"},
	} {
		err := try(tc.given)
		var rej *netclient.RejectError
		if !errors.As(err, &rej) || rej.Reason != tc.reason {
			t.Errorf("password %q: %v, want the server's refusal %q", tc.given, err, tc.reason)
			continue
		}
		if d := netclient.Describe(err, srv.Addr()); !strings.Contains(d, tc.sentence) || strings.Contains(d, pw) {
			t.Errorf("password %q: described as %q, want %q and never the password", tc.given, d, tc.sentence)
		}
	}
	if err := try(pw); err != nil {
		t.Errorf("the right password: %v", err)
	}
	// A server without a password ignores one.
	open := testserver.Start(t, server.Config{})
	cfg := netclient.DefaultConfig("guest")
	cfg.Password = "anything"
	testserver.Connect(t, open.Addr(), cfg)
}
