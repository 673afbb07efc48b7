//go:build linux && !386

package ws

import (
	"net"
	"syscall"
	"unsafe"
)

// tcpRTTFunc reads the kernel's smoothed round trip of one TCP socket, ms.
type tcpRTTFunc func() (ms float64, ok bool)

// tcpRTTOf returns a reader of the kernel's TCP round-trip estimate of c
// (getsockopt TCP_INFO, tcpi_rtt in µs: RFC 6298's SRTT, taken from the
// kernel's own ACK timing, which a peer cannot stretch without delaying
// everything it sends), or nil when c is not a TCP socket. Wrappers that
// expose NetConn (crypto/tls, the server's connection limiter) are
// unwrapped.
func tcpRTTOf(c net.Conn) tcpRTTFunc {
	for {
		u, ok := c.(interface{ NetConn() net.Conn })
		if !ok {
			break
		}
		c = u.NetConn()
	}
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return nil
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nil
	}
	return func() (float64, bool) {
		var info syscall.TCPInfo
		var errno syscall.Errno
		err := rc.Control(func(fd uintptr) {
			n := uint32(syscall.SizeofTCPInfo)
			_, _, errno = syscall.Syscall6(syscall.SYS_GETSOCKOPT, fd, syscall.IPPROTO_TCP, syscall.TCP_INFO,
				uintptr(unsafe.Pointer(&info)), uintptr(unsafe.Pointer(&n)), 0)
		})
		if err != nil || errno != 0 || info.Rtt == 0 {
			return 0, false
		}
		return float64(info.Rtt) / 1000, true
	}
}
