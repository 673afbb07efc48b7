//go:build !js

package portmap

import (
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tickshot/net/portmap/portmaptest"
)

// The tests never touch the real network: UPnP goes to a fake IGD on
// loopback (by a unicast SSDP search or its description URL), NAT-PMP to
// a fake router on a loopback address of its own, and each test leaves
// the other protocol out.

const (
	testPort  = 27015
	testLease = 2 * time.Second // renewed after 1 s
)

// waitDone waits for the first outcome (at most Timeout and some).
func waitDone(t *testing.T, m *Mapper) Outcome {
	t.Helper()
	select {
	case <-m.Done():
	case <-time.After(m.cfg.Timeout + 5*time.Second):
		t.Fatalf("no outcome %v after the discovery timeout (%v)", 5*time.Second, m.cfg.Timeout)
	}
	return m.Outcome()
}

// waitFor polls cond for up to 15 s (a loaded machine is slow; the lease
// is 2 s).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestUPnPMapsRenewsAndDeletes: found by an SSDP search (sent unicast to
// the fake), the IGD is asked for TCP and UDP 27015 to this computer
// with the lease asked; the outcome is the invite link; the mappings are
// renewed before the lease ends and deleted on Close.
func TestUPnPMapsRenewsAndDeletes(t *testing.T) {
	igd := portmaptest.NewIGD(t, "WANIPConnection:2", "203.0.113.7")
	m := Start(Config{Port: testPort, UDPPort: testPort, Lease: testLease, Timeout: 3 * time.Second,
		SSDPAddr: igd.ServeSSDP(), NoNATPMP: true})
	defer m.Close()
	out := waitDone(t, m)
	if out.Result != Mapped {
		t.Fatalf("result %v (%v), want Mapped", out.Result, out.Err)
	}
	if want := "Friends can join at http://203.0.113.7:27015/"; out.Sentence() != want {
		t.Errorf("sentence %q, want %q", out.Sentence(), want)
	}
	if out.Method != "UPnP IGD WANIPConnection:2" || out.Lease != testLease {
		t.Errorf("method %q lease %v, want UPnP IGD WANIPConnection:2 and %v", out.Method, out.Lease, testLease)
	}
	adds := igd.Calls("AddPortMapping")
	if len(adds) != 2 {
		t.Fatalf("%d AddPortMapping calls, want 2 (TCP and UDP): %v", len(adds), adds)
	}
	for i, proto := range []string{"TCP", "UDP"} {
		a := adds[i].Args
		if a["NewProtocol"] != proto || a["NewExternalPort"] != "27015" || a["NewInternalPort"] != "27015" ||
			a["NewInternalClient"] != "127.0.0.1" || a["NewLeaseDuration"] != "2" || a["NewEnabled"] != "1" ||
			a["NewPortMappingDescription"] != DefaultDescription {
			t.Errorf("mapping %d: %v, want %s 27015 -> 127.0.0.1:27015 enabled for 2 s named %q", i, a, proto, DefaultDescription)
		}
	}
	waitFor(t, "a renewal", func() bool { return m.Renewals() >= 1 })
	if n := len(igd.Calls("AddPortMapping")); n < 4 {
		t.Errorf("%d AddPortMapping calls after a renewal, want at least 4", n)
	}
	if n := len(igd.Calls("DeletePortMapping")); n != 0 {
		t.Errorf("%d deletions while running, want none", n)
	}
	m.Close()
	dels := igd.Calls("DeletePortMapping")
	got := map[string]bool{}
	for _, d := range dels {
		if d.Args["NewExternalPort"] == "27015" {
			got[d.Args["NewProtocol"]] = true
		}
	}
	if len(dels) != 2 || !got["TCP"] || !got["UDP"] {
		t.Errorf("deletions on Close %v, want TCP and UDP 27015", dels)
	}
	if m.Outcome().Result != Mapped {
		t.Errorf("outcome after Close %v", m.Outcome().Result)
	}
}

// TestUPnPServices: a root device URL given directly (no SSDP) works with
// each of the three WAN connection services.
func TestUPnPServices(t *testing.T) {
	for _, svc := range []string{"WANIPConnection:1", "WANIPConnection:2", "WANPPPConnection:1"} {
		t.Run(svc, func(t *testing.T) {
			igd := portmaptest.NewIGD(t, svc, "198.51.100.20")
			m := Start(Config{Port: 28000, Timeout: 3 * time.Second, UPnPRoot: igd.Root(), NoNATPMP: true})
			out := waitDone(t, m)
			m.Close()
			if out.Result != Mapped || out.Link() != "http://198.51.100.20:28000/" || out.Method != "UPnP IGD "+svc {
				t.Fatalf("outcome %+v, want mapped at http://198.51.100.20:28000/ by %s", out, svc)
			}
			adds := igd.Calls("AddPortMapping")
			if len(adds) != 1 || adds[0].Args["NewProtocol"] != "TCP" || adds[0].Args["NewLeaseDuration"] != "3600" {
				t.Errorf("mappings %v, want one TCP mapping for 3600 s (no UDP port given)", adds)
			}
			if dels := igd.Calls("DeletePortMapping"); len(dels) != 1 || dels[0].Args["NewExternalPort"] != "28000" {
				t.Errorf("deletions %v, want TCP 28000", dels)
			}
		})
	}
}

// TestUPnPRefusedGivesForwardingSentence: an IGD that answers
// AddPortMapping with a UPnPError (718, ConflictInMappingEntry) yields
// the sentence that says what to forward by hand, and where to.
func TestUPnPRefusedGivesForwardingSentence(t *testing.T) {
	igd := portmaptest.NewIGD(t, "WANIPConnection:1", "203.0.113.7")
	igd.SetRefuse(718)
	m := Start(Config{Port: testPort, UDPPort: testPort, Timeout: 3 * time.Second, UPnPRoot: igd.Root(), NoNATPMP: true})
	defer m.Close()
	out := waitDone(t, m)
	want := "Your router did not accept a port mapping: forward TCP and UDP 27015 to 127.0.0.1 (how: docs/HOSTING.md)"
	if out.Result != Refused || out.Sentence() != want || out.Link() != "" {
		t.Errorf("outcome %v %q link %q, want Refused %q", out.Result, out.Sentence(), out.Link(), want)
	}
	if out.Err == nil || !strings.Contains(out.Err.Error(), "718") {
		t.Errorf("error %v, want the router's UPnP error 718", out.Err)
	}
}

// TestCarrierGradeNAT: a router whose external address is private or in
// 100.64.0.0/10 yields the carrier-grade NAT sentence, and no mapping is
// asked (it would not reach the internet).
func TestCarrierGradeNAT(t *testing.T) {
	for _, ext := range []string{"100.72.1.5", "192.168.0.2", "10.1.2.3", "172.20.0.9"} {
		igd := portmaptest.NewIGD(t, "WANIPConnection:2", ext)
		m := Start(Config{Port: testPort, UDPPort: testPort, Timeout: 3 * time.Second, UPnPRoot: igd.Root(), NoNATPMP: true})
		out := waitDone(t, m)
		m.Close()
		want := "Your router has no public address (carrier-grade NAT): use a server with a public address or a VPN such as Tailscale"
		if out.Result != NoPublicAddress || out.Sentence() != want || out.External.String() != ext {
			t.Errorf("external %s: outcome %v %q (external %v), want NoPublicAddress %q", ext, out.Result, out.Sentence(), out.External, want)
		}
		if n := len(igd.Calls("AddPortMapping")); n != 0 {
			t.Errorf("external %s: %d mappings asked, want none", ext, n)
		}
	}
}

// TestNATPMPMapsRenewsAndDeletes: the NAT-PMP router is asked its
// external address (opcode 0), then TCP (2) and UDP (1) 27015 for the
// lease; the mappings are renewed at half the lease granted and deleted
// (lifetime 0, external port 0: RFC 6886 §3.4) on Close.
func TestNATPMPMapsRenewsAndDeletes(t *testing.T) {
	pmp := newFakePMP(t, "203.0.113.9")
	pmp.set(0, 2) // granted: 2 s, whatever is asked
	m := Start(Config{Port: testPort, UDPPort: testPort, Lease: time.Hour, Timeout: 3 * time.Second,
		NATPMPGateway: pmp.addr, NoUPnP: true})
	defer m.Close()
	out := waitDone(t, m)
	if out.Result != Mapped || out.Method != "NAT-PMP" || out.Link() != "http://203.0.113.9:27015/" || out.Lease != 2*time.Second {
		t.Fatalf("outcome %+v, want mapped by NAT-PMP at http://203.0.113.9:27015/ for the 2 s granted", out)
	}
	maps := pmp.mappings()
	if len(maps) != 2 {
		t.Fatalf("mapping requests %+v, want TCP and UDP", maps)
	}
	for i, proto := range []string{"TCP", "UDP"} {
		r := maps[i]
		if r.Protocol != proto || r.Internal != testPort || r.External != testPort || r.Lifetime != 3600 {
			t.Errorf("request %d: %+v, want %s 27015 -> 27015 for 3600 s", i, r, proto)
		}
	}
	waitFor(t, "a renewal", func() bool { return m.Renewals() >= 1 })
	m.Close()
	maps = pmp.mappings()
	var dels []pmpRequest
	for _, r := range maps {
		if r.Lifetime == 0 {
			dels = append(dels, r)
		}
	}
	if len(maps) < 6 || len(dels) != 2 || dels[0].Protocol != "TCP" || dels[1].Protocol != "UDP" ||
		dels[0].Internal != testPort || dels[0].External != 0 {
		t.Errorf("requests %+v: want 2 mappings, 2 renewals, then deletions of TCP and UDP 27015 (lifetime 0, external port 0)", maps)
	}
}

// TestNATPMPRefused: a router that answers "Not Authorized/Refused"
// (result code 2) yields the forwarding sentence.
func TestNATPMPRefused(t *testing.T) {
	pmp := newFakePMP(t, "203.0.113.9")
	pmp.set(2, 0)
	m := Start(Config{Port: 27016, Timeout: 3 * time.Second, NATPMPGateway: pmp.addr, NoUPnP: true})
	defer m.Close()
	out := waitDone(t, m)
	if out.Result != Refused || !strings.HasPrefix(out.Sentence(), "Your router did not accept a port mapping: forward TCP 27016 to ") {
		t.Errorf("outcome %v %q, want Refused with the forwarding sentence", out.Result, out.Sentence())
	}
}

// TestNoGatewayInTime: when nothing answers (an SSDP port that stays
// silent, no NAT-PMP router), Start returns at once, and within the
// timeout the outcome is the forwarding sentence.
func TestNoGatewayInTime(t *testing.T) {
	silent, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	timeout := 1500 * time.Millisecond
	began := time.Now()
	m := Start(Config{Port: testPort, UDPPort: testPort, Timeout: timeout, SSDPAddr: silent.LocalAddr().String(),
		NATPMPGateway: netip.MustParseAddr("127.0.0.1")}) // nothing on 127.0.0.1:5351 in a test
	if r := m.Outcome().Result; r != Pending {
		t.Errorf("right after Start: %v, want Pending (discovery runs in the background)", r)
	}
	if s := m.Outcome().Sentence(); s != "Asking your router to forward port 27015..." {
		t.Errorf("pending sentence %q", s)
	}
	out := waitDone(t, m)
	took := time.Since(began)
	m.Close()
	if out.Result != Refused || !strings.HasPrefix(out.Sentence(), "Your router did not accept a port mapping: forward TCP and UDP 27015 to ") {
		t.Errorf("outcome %v %q, want the forwarding sentence", out.Result, out.Sentence())
	}
	if out.Err == nil || !strings.Contains(out.Err.Error(), "no router answered") {
		t.Errorf("error %v, want no router answered", out.Err)
	}
	t.Logf("no gateway: outcome after %v (timeout %v)", took, timeout)
}

// TestCloseDuringDiscovery: Close while the router is still being asked
// returns promptly (a game that quits at once does not wait).
func TestCloseDuringDiscovery(t *testing.T) {
	silent, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	m := Start(Config{Port: testPort, Timeout: time.Minute, SSDPAddr: silent.LocalAddr().String(), NoNATPMP: true})
	closed := make(chan struct{})
	go func() { m.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close during a one-minute discovery did not return within 10 s")
	}
}

// TestPublic: which router addresses reach the internet.
func TestPublic(t *testing.T) {
	for addr, want := range map[string]bool{
		"203.0.113.7": true, "8.8.8.8": true, "100.63.255.255": true, "100.128.0.1": true, "2001:db8::1": true,
		"100.64.0.1": false, "100.127.255.254": false, "10.0.0.1": false, "172.16.5.4": false, "192.168.1.1": false,
		"127.0.0.1": false, "169.254.1.1": false, "0.0.0.0": false, "fd00::1": false, "::ffff:192.168.1.1": false,
	} {
		if got := Public(netip.MustParseAddr(addr)); got != want {
			t.Errorf("Public(%s) = %v, want %v", addr, got, want)
		}
	}
}

// TestProcRouteGateway reads the default route of a /proc/net/route.
func TestProcRouteGateway(t *testing.T) {
	p := filepath.Join(t.TempDir(), "route")
	text := "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n" +
		"eth0\t0001A8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n" +
		"eth0\t00000000\t0101A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if gw := procRouteGateway(p); gw != netip.MustParseAddr("192.168.1.1") {
		t.Errorf("gateway %v, want 192.168.1.1", gw)
	}
	if gw := procRouteGateway(filepath.Join(t.TempDir(), "none")); gw.IsValid() {
		t.Errorf("no file: %v, want none", gw)
	}
}

// TestNoPort: a port that is not one (0: the server's was unknown) is
// refused without asking any router.
func TestNoPort(t *testing.T) {
	igd := portmaptest.NewIGD(t, "WANIPConnection:2", "203.0.113.7")
	m := Start(Config{Port: 0, UPnPRoot: igd.Root(), NoNATPMP: true})
	out := waitDone(t, m)
	m.Close()
	if out.Result != Refused || out.Err == nil || !strings.Contains(out.Err.Error(), "no port to map") {
		t.Errorf("outcome %v (%v), want Refused: no port to map", out.Result, out.Err)
	}
	if n := len(igd.Calls("GetExternalIPAddress")) + len(igd.Calls("AddPortMapping")); n != 0 {
		t.Errorf("%d calls to the router, want none", n)
	}
}

// TestNATPMPOtherExternalPort: a NAT-PMP router that grants another
// external port than the one asked (its own is taken) gives the invite
// link with that port, and on Close the mappings are deleted by their
// internal port, as NAT-PMP names them (RFC 6886 §3.4), not by the
// external one.
func TestNATPMPOtherExternalPort(t *testing.T) {
	pmp := newFakePMP(t, "203.0.113.9")
	pmp.mu.Lock()
	pmp.shift = 100 // under the lock its serve goroutine reads it with
	pmp.mu.Unlock()
	m := Start(Config{Port: testPort, UDPPort: testPort, Timeout: 3 * time.Second, NATPMPGateway: pmp.addr, NoUPnP: true})
	out := waitDone(t, m)
	m.Close()
	if out.Result != Mapped || out.Link() != "http://203.0.113.9:27115/" || out.ExternalUDPPort != 27115 {
		t.Fatalf("outcome %+v, want mapped at http://203.0.113.9:27115/", out)
	}
	var dels []pmpRequest
	for _, r := range pmp.mappings() {
		if r.Lifetime == 0 {
			dels = append(dels, r)
		}
	}
	if len(dels) != 2 || dels[0].Protocol != "TCP" || dels[1].Protocol != "UDP" || dels[0].Internal != testPort || dels[1].Internal != testPort {
		t.Errorf("deletions %+v: want TCP and UDP of internal port %d", dels, testPort)
	}
}
