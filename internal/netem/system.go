//go:build linux

package netem

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// nsPrefix starts the name of every namespace a link makes:
// tsnetem-PID-N-a and -b, PID the process that made it.
const nsPrefix = "tsnetem-"

// netnsDir is where `ip netns add` mounts a named namespace.
const netnsDir = "/var/run/netns"

// RequireEnv names the environment variable that, set to 1, makes the
// tests that need a link fail instead of skipping where it cannot run.
const RequireEnv = "TICKSHOT_REQUIRE_NETEM"

// ErrUnavailable is wrapped by Available's and Start's error when this
// machine cannot run a link.
var ErrUnavailable = errors.New("netem: unavailable")

// Available reports why a link cannot run here, or nil: it needs root
// (namespaces and TUN devices, where no sandbox forbids them),
// /dev/net/tun and iproute2's ip. The error wraps ErrUnavailable and says
// what is missing, for a test's Skip (or its failure where the test is
// required: RequireEnv).
func Available() error {
	if os.Geteuid() != 0 {
		return fmt.Errorf("%w: needs root to make network namespaces and TUN devices (running as uid %d)", ErrUnavailable, os.Geteuid())
	}
	if _, err := exec.LookPath("ip"); err != nil {
		return fmt.Errorf("%w: needs iproute2's ip on PATH: %v", ErrUnavailable, err)
	}
	f, err := os.OpenFile("/dev/net/tun", os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("%w: needs /dev/net/tun: %v", ErrUnavailable, err)
	}
	f.Close()
	if err := probeNetns(); err != nil {
		return fmt.Errorf("%w: cannot make a network namespace (a sandbox that forbids unshare?): %v", ErrUnavailable, err)
	}
	return nil
}

// probeNetns makes a network namespace on a thread of its own, which the
// runtime then ends (its goroutine exits still locked), so that no other
// goroutine ever runs in it.
func probeNetns() error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		errc <- unix.Unshare(unix.CLONE_NEWNET)
	}()
	return <-errc
}

// ip runs iproute2's ip with args; its error carries ip's own message.
func ip(args ...string) error {
	var out bytes.Buffer
	cmd := exec.Command("ip", args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("ip %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	return nil
}

// inNamespace runs fn on a locked OS thread that has joined the named
// namespace (setns), then returns the thread to its own namespace. Were
// that return to fail, the thread stays locked and the runtime ends it
// with the goroutine, so no other goroutine ever runs in the namespace.
func inNamespace(name string, fn func() error) error {
	target, err := os.Open(filepath.Join(netnsDir, name))
	if err != nil {
		return fmt.Errorf("netem: namespace %s: %w", name, err)
	}
	defer target.Close()
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		own, err := os.Open("/proc/thread-self/ns/net")
		if err != nil {
			runtime.UnlockOSThread()
			errc <- err
			return
		}
		defer own.Close()
		if err := unix.Setns(int(target.Fd()), unix.CLONE_NEWNET); err != nil {
			runtime.UnlockOSThread()
			errc <- fmt.Errorf("netem: setns %s: %w", name, err)
			return
		}
		ferr := fn()
		if err := unix.Setns(int(own.Fd()), unix.CLONE_NEWNET); err != nil {
			errc <- errors.Join(ferr, fmt.Errorf("netem: setns back from %s: %w", name, err))
			return // still locked: the thread ends with this goroutine
		}
		runtime.UnlockOSThread()
		errc <- ferr
	}()
	return <-errc
}

// openTUN makes TUN device dev (IP packets, no extra header) inside the
// named namespace and returns it, non-blocking so that Go's poller serves
// its reads and a Close ends them. The device lives as long as the file.
// IPv6 is switched off in the namespace first, so that the kernel sends
// no router solicitations over the link.
func openTUN(ns, dev string) (*os.File, error) {
	var f *os.File
	err := inNamespace(ns, func() error {
		for _, c := range []string{"all", "default"} {
			// Absent when the kernel has no IPv6: then there is nothing to silence.
			_ = os.WriteFile("/proc/sys/net/ipv6/conf/"+c+"/disable_ipv6", []byte("1"), 0)
		}
		fd, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
		if err != nil {
			return fmt.Errorf("open /dev/net/tun: %w", err)
		}
		ifr, err := unix.NewIfreq(dev)
		if err == nil {
			ifr.SetUint16(unix.IFF_TUN | unix.IFF_NO_PI)
			err = unix.IoctlIfreq(fd, unix.TUNSETIFF, ifr)
		}
		if err != nil {
			unix.Close(fd)
			return fmt.Errorf("TUNSETIFF %s: %w", dev, err)
		}
		f = os.NewFile(uintptr(fd), "/dev/net/tun:"+dev)
		return nil
	})
	return f, err
}

// namespaceExists reports whether the named namespace is mounted.
func namespaceExists(name string) bool {
	_, err := os.Stat(filepath.Join(netnsDir, name))
	return err == nil
}

// killIn kills (SIGKILL) every process inside the named namespace: only
// what this harness started there, or a crashed run of it did.
func killIn(name string) {
	out, err := exec.Command("ip", "netns", "pids", name).Output()
	if err != nil {
		return
	}
	for _, f := range strings.Fields(string(out)) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 1 && pid != os.Getpid() {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// removeLeftovers deletes the namespaces of links whose process has
// died (a crash, a killed test binary), with whatever still runs in them.
// Those of live processes, this one's included, are left alone.
func removeLeftovers() {
	entries, err := os.ReadDir(netnsDir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, nsPrefix) {
			continue
		}
		pidText, _, _ := strings.Cut(strings.TrimPrefix(name, nsPrefix), "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || processAlive(pid) {
			continue
		}
		killIn(name)
		_ = ip("netns", "del", name)
	}
}

// processAlive reports whether process pid exists.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
