//go:build unix

package loadtest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// processCPU is the user plus system CPU time this process has used
// (getrusage RUSAGE_SELF: every thread, so the clients too when they run here).
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

// userHz is the unit of /proc/PID/stat's times (USER_HZ, 100 on Linux).
const userHz = 100

// pidCPU is the user plus system CPU time of process pid, from
// /proc/PID/stat (Linux).
func pidCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("--server-pid %d: cannot read the process's CPU time (needs Linux's /proc): %w", pid, err)
	}
	// The command name, field 2, is in parentheses and may hold spaces.
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		s = s[i+1:]
	}
	f := strings.Fields(s) // f[0] is field 3 (state); utime and stime are fields 14 and 15
	if len(f) < 13 {
		return 0, fmt.Errorf("--server-pid %d: /proc/%d/stat has an unexpected format", pid, pid)
	}
	ut, err1 := strconv.ParseUint(f[11], 10, 64)
	st, err2 := strconv.ParseUint(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("--server-pid %d: /proc/%d/stat has an unexpected format", pid, pid)
	}
	return time.Duration(ut+st) * time.Second / userHz, nil
}
