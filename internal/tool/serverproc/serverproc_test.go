package serverproc

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"testing"
	"time"
)

// fakeEnv makes this test binary a stand-in server: `server --addr ADDR
// [--fail]` serves /status on ADDR until SIGINT, or with --fail writes a
// line and exits 3 at once.
const fakeEnv = "SERVERPROC_FAKE_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(fakeEnv) == "1" {
		fakeServer(os.Args[1:])
		return
	}
	os.Exit(m.Run())
}

func fakeServer(args []string) {
	if len(args) < 3 || args[0] != "server" || args[1] != "--addr" {
		fmt.Fprintln(os.Stderr, "fake server: bad arguments", args)
		os.Exit(2)
	}
	if len(args) > 3 && args[3] == "--fail" {
		fmt.Fprintln(os.Stderr, "fake server: map not found")
		os.Exit(3)
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt)
	srv := &http.Server{Addr: args[2], Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "{}")
	})}
	go func() { _ = srv.ListenAndServe() }()
	<-stop
	_ = srv.Close()
	os.Exit(0)
}

// Start returns once the server answers /status on its address; Stop
// ends it with SIGINT, a clean exit.
func TestStartAndStop(t *testing.T) {
	t.Setenv(fakeEnv, "1")
	p, err := Start(context.Background(), Options{Bin: os.Args[0]})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + p.Addr + "/status")
	if err != nil {
		t.Fatalf("after Start, /status on %s: %v", p.Addr, err)
	}
	resp.Body.Close()
	p.Stop()
	select {
	case <-p.Exited():
	default:
		t.Fatal("Stop returned before the process exited")
	}
	if p.Err() != nil {
		t.Errorf("the server ended with %v, want a clean exit on SIGINT", p.Err())
	}
}

// A server that exits at start is an error that carries its last words.
func TestStartReportsAnEarlyExit(t *testing.T) {
	t.Setenv(fakeEnv, "1")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := Start(ctx, Options{Bin: os.Args[0], Args: []string{"--fail"}})
	if err == nil || !strings.Contains(err.Error(), "exited at start") || !strings.Contains(err.Error(), "map not found") {
		t.Fatalf("Start: %v, want an exit at start with the server's output", err)
	}
}
