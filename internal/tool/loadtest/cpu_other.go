//go:build !unix

package loadtest

import (
	"errors"
	"time"
)

// processCPU is not measured where getrusage does not exist.
func processCPU() (time.Duration, bool) { return 0, false }

func pidCPU(pid int) (time.Duration, error) {
	return 0, errors.New("--server-pid needs Linux's /proc")
}
