//go:build unix

package loadtest

import (
	"fmt"
	"syscall"
)

// ensureFiles raises this process's soft limit on open files
// (RLIMIT_NOFILE) to n if it is lower, as far as the hard limit allows
// (Go already raises it to the hard limit at start on Linux; other
// systems may not), and says how to raise it when n is beyond the hard
// limit.
func ensureFiles(n int) error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return nil // unknown: let the sockets say
	}
	want := uint64(n)
	if lim.Cur >= want {
		return nil
	}
	if lim.Max < want {
		return fmt.Errorf("this run needs about %d open files (sockets), and the limit is %d (hard %d): raise it with `ulimit -n %d`, or run fewer clients",
			n, lim.Cur, lim.Max, n)
	}
	was := lim.Cur
	lim.Cur = want
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return fmt.Errorf("this run needs about %d open files (sockets): raising the limit from %d failed: %w", n, was, err)
	}
	return nil
}
