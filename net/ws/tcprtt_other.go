//go:build !js && (!linux || 386)

package ws

import "net"

// tcpRTTFunc reads the kernel's smoothed round trip of one TCP socket, ms.
type tcpRTTFunc func() (ms float64, ok bool)

// tcpRTTOf returns nil: the kernel's TCP round trip is read on Linux only
// (not on linux/386, whose syscall package has no direct getsockopt).
func tcpRTTOf(net.Conn) tcpRTTFunc { return nil }
