//go:build !js

package portmap

import (
	"encoding/binary"
	"math/rand/v2"
	"net"
	"net/netip"
	"sync"
	"testing"
)

// A fake NAT-PMP router (RFC 6886) on a loopback address of its own, on
// UDP port 5351 (the library dials that port): opcode 0 (external
// address), 1 (map UDP) and 2 (map TCP); result code refuse (0: success).
type fakePMP struct {
	addr     netip.Addr
	external [4]byte
	refuse   uint16
	lifetime uint32 // granted lifetime (0: the one asked)
	shift    uint16 // the external port granted is the one asked + shift

	mu   sync.Mutex
	reqs []pmpRequest
}

// pmpRequest is one request the fake received.
type pmpRequest struct {
	Op                     byte
	Internal, External     uint16
	Lifetime               uint32
	Protocol               string
	ExternalAddressRequest bool
}

// newFakePMP listens on 127.X.Y.Z:5351 (Linux routes all of 127/8 to
// loopback); it skips the test where that address cannot be bound.
func newFakePMP(t *testing.T, external string) *fakePMP {
	var pc net.PacketConn
	var addr netip.Addr
	for range 20 {
		addr = netip.AddrFrom4([4]byte{127, byte(rand.IntN(250) + 2), byte(rand.IntN(256)), byte(rand.IntN(250) + 2)})
		var err error
		if pc, err = net.ListenPacket("udp4", netip.AddrPortFrom(addr, natpmpPort).String()); err == nil {
			break
		}
	}
	if pc == nil {
		t.Skip("cannot bind a loopback address of its own on UDP 5351 (only Linux routes all of 127/8 to loopback)")
	}
	t.Cleanup(func() { pc.Close() })
	f := &fakePMP{addr: addr, external: netip.MustParseAddr(external).As4()}
	go f.serve(pc)
	return f
}

func (f *fakePMP) serve(pc net.PacketConn) {
	buf := make([]byte, 64)
	for {
		n, from, err := pc.ReadFrom(buf)
		if err != nil {
			return
		}
		if n < 2 || buf[0] != 0 {
			continue
		}
		op := buf[1]
		f.mu.Lock()
		epoch, refuse, lifetime, shift := uint32(100+len(f.reqs)), f.refuse, f.lifetime, f.shift
		f.mu.Unlock()
		var reply []byte
		switch {
		case op == 0 && n == 2:
			f.note(pmpRequest{Op: 0, ExternalAddressRequest: true})
			reply = make([]byte, 12)
			copy(reply[8:], f.external[:])
		case (op == 1 || op == 2) && n == 12:
			req := pmpRequest{Op: op, Internal: binary.BigEndian.Uint16(buf[4:6]), External: binary.BigEndian.Uint16(buf[6:8]),
				Lifetime: binary.BigEndian.Uint32(buf[8:12]), Protocol: map[byte]string{1: "UDP", 2: "TCP"}[op]}
			f.note(req)
			reply = make([]byte, 16)
			binary.BigEndian.PutUint16(reply[8:], req.Internal)
			lt := req.Lifetime
			if lifetime != 0 && lt != 0 {
				lt = lifetime
			}
			if lt != 0 {
				binary.BigEndian.PutUint16(reply[10:], req.Internal+shift) // the port asked for, or another
			}
			binary.BigEndian.PutUint32(reply[12:], lt)
		default:
			continue
		}
		reply[1] = 128 + op
		binary.BigEndian.PutUint16(reply[2:], refuse)
		binary.BigEndian.PutUint32(reply[4:], epoch)
		_, _ = pc.WriteTo(reply, from)
	}
}

// set makes the fake answer with result code refuse (0: success) and
// grant lifetime seconds (0: the lifetime asked).
func (f *fakePMP) set(refuse uint16, lifetime uint32) {
	f.mu.Lock()
	f.refuse, f.lifetime = refuse, lifetime
	f.mu.Unlock()
}

func (f *fakePMP) note(r pmpRequest) {
	f.mu.Lock()
	f.reqs = append(f.reqs, r)
	f.mu.Unlock()
}

// mappings returns the mapping requests (opcodes 1 and 2) received.
func (f *fakePMP) mappings() []pmpRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []pmpRequest
	for _, r := range f.reqs {
		if !r.ExternalAddressRequest {
			out = append(out, r)
		}
	}
	return out
}
