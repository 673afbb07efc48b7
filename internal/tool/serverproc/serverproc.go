// Package serverproc runs a tickshot binary as a dedicated server process
// on a free loopback port, for the programs that measure a real server
// from outside (internal/tool/soak, scripts/measurescale): start it, wait
// until it answers, stop it cleanly.
package serverproc

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Timeouts of Start and Stop.
const (
	// StartTimeout is how long Start waits for the server's /status.
	StartTimeout = 20 * time.Second
	// StopTimeout is how long Stop waits after SIGINT (the server's clean
	// shutdown) before it kills the process.
	StopTimeout = 10 * time.Second
)

// Options of a server process.
type Options struct {
	// Bin is the tickshot binary (the headless build runs on machines
	// without a display: CGO_ENABLED=0 go build -tags headless).
	Bin string
	// Prefix, if not empty, is a command the server runs under, such as
	// "taskset -c 0".
	Prefix []string
	// Args are the flags of `tickshot server` after --addr.
	Args []string
	// Log receives the server's standard output and error; nil drops them.
	Log io.Writer
}

// Proc is a started server process.
type Proc struct {
	Addr    string // host:port it listens on, 127.0.0.1
	Argv    []string
	cmd     *exec.Cmd
	tail    tailBuf // the end of its output, for errors
	done    chan struct{}
	waitErr error // Wait's result, once done is closed
}

// Start starts `Prefix... Bin server --addr ADDR Args...` on a free
// 127.0.0.1 port and waits until its GET /status answers 200. It fails
// when the process does not start, exits first (the error carries the end
// of its output), does not answer within StartTimeout, or ctx ends; the
// process is stopped then.
func Start(ctx context.Context, opt Options) (*Proc, error) {
	addr, err := freeLoopbackAddr()
	if err != nil {
		return nil, err
	}
	p := &Proc{Addr: addr, done: make(chan struct{})}
	p.Argv = append(append(append([]string{}, opt.Prefix...), opt.Bin, "server", "--addr", addr), opt.Args...)
	p.cmd = exec.Command(p.Argv[0], p.Argv[1:]...)
	var out io.Writer = &p.tail
	if opt.Log != nil {
		out = io.MultiWriter(opt.Log, &p.tail)
	}
	p.cmd.Stdout, p.cmd.Stderr = out, out // one writer: exec writes it from one goroutine at a time (tailBuf)
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("could not start the server: %w", err)
	}
	go func() { p.waitErr = p.cmd.Wait(); close(p.done) }()
	if err := p.awaitStatus(ctx); err != nil {
		p.Stop()
		return nil, err
	}
	return p, nil
}

// awaitStatus polls GET /status every 100 ms until it answers 200.
func (p *Proc) awaitStatus(ctx context.Context) error {
	hc := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(StartTimeout)
	for {
		resp, err := hc.Get("http://" + p.Addr + "/status")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			err = fmt.Errorf("GET /status: %s", resp.Status)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the server did not answer on %s within %v: %w", p.Addr, StartTimeout, err)
		}
		select {
		case <-p.done:
			return fmt.Errorf("the server exited at start (%v): %s", p.waitErr, strings.TrimSpace(p.tail.b.String()))
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Pid is the process ID (of Prefix's command when there is one that
// execs the server, as taskset does: the server's).
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// Exited is closed when the process has exited.
func (p *Proc) Exited() <-chan struct{} { return p.done }

// Err is how the process ended (exec.Cmd.Wait's error) once Exited is
// closed; nil before.
func (p *Proc) Err() error {
	select {
	case <-p.done:
		return p.waitErr
	default:
		return nil
	}
}

// Stop sends SIGINT (the server's clean shutdown) and waits for the
// process to exit, killing it after StopTimeout. Safe to call again.
func (p *Proc) Stop() {
	select {
	case <-p.done:
		return
	default:
	}
	_ = p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.done:
	case <-time.After(StopTimeout):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// freeLoopbackAddr returns a 127.0.0.1 address with a port that was free a
// moment ago.
func freeLoopbackAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// tailKeep is how much of the end of the output tailBuf keeps, bytes.
const tailKeep = 4 << 10

// tailBuf keeps the last tailKeep bytes written to it. It needs no lock:
// exec writes a process's output from one goroutine at a time when
// Stdout and Stderr are the same writer, and Proc reads it only after the
// process has exited (Wait returns once the copying is done).
type tailBuf struct{ b bytes.Buffer }

func (t *tailBuf) Write(p []byte) (int, error) {
	t.b.Write(p)
	if over := t.b.Len() - tailKeep; over > 0 {
		t.b.Next(over)
	}
	return len(p), nil
}
