//go:build !js

package portmap

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// A fake UPnP IGD on loopback: an SSDP responder (UDP: an M-SEARCH gets
// a 200 with the LOCATION of the description), the root device
// description (UPnP Device Architecture 1.1 §2.3) with one WAN connection
// service, and its SOAP control URL answering GetExternalIPAddress,
// AddPortMapping and DeletePortMapping (WANIPConnection:2 §2.5) or a
// UPnPError fault when told to refuse.
type fakeIGD struct {
	t        *testing.T
	service  string // e.g. "WANIPConnection:2"
	external string // GetExternalIPAddress's answer
	refuse   int    // AddPortMapping's UPnP error code (0: accept)
	http     *httptest.Server
	ssdp     net.PacketConn

	mu    sync.Mutex
	calls []soapCall
}

// soapCall is one SOAP action the fake received, with its arguments.
type soapCall struct {
	Action string
	Args   map[string]string
}

func newFakeIGD(t *testing.T, service, external string) *fakeIGD {
	f := &fakeIGD{t: t, service: service, external: external}
	mux := http.NewServeMux()
	mux.HandleFunc("/rootDesc.xml", f.describe)
	mux.HandleFunc("/ctl", f.control)
	f.http = httptest.NewServer(mux)
	t.Cleanup(f.http.Close)
	return f
}

// root is the description's URL (Config.UPnPRoot).
func (f *fakeIGD) root() *url.URL {
	u, _ := url.Parse(f.http.URL + "/rootDesc.xml")
	return u
}

// serveSSDP answers M-SEARCHes on a loopback UDP port and returns its
// address (Config.SSDPAddr).
func (f *fakeIGD) serveSSDP() string {
	pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		f.t.Fatal(err)
	}
	f.ssdp = pc
	f.t.Cleanup(func() { pc.Close() })
	go func() {
		buf := make([]byte, 2048)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(buf[:n])))
			if err != nil || req.Method != "M-SEARCH" || req.Header.Get("MAN") != `"ssdp:discover"` {
				continue
			}
			st := req.Header.Get("ST")
			reply := "HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=120\r\nEXT:\r\nLOCATION: " + f.root().String() +
				"\r\nSERVER: fake/1.0 UPnP/1.1 test/1.0\r\nST: " + st + "\r\nUSN: uuid:fake-igd::" + st + "\r\n\r\n"
			_, _ = pc.WriteTo([]byte(reply), from)
		}
	}()
	return pc.LocalAddr().String()
}

func (f *fakeIGD) describe(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", `text/xml; charset="utf-8"`)
	fmt.Fprintf(w, `<?xml version="1.0"?>
<root xmlns="urn:schemas-upnp-org:device-1-0">
 <specVersion><major>1</major><minor>0</minor></specVersion>
 <device>
  <deviceType>urn:schemas-upnp-org:device:InternetGatewayDevice:2</deviceType>
  <friendlyName>Fake router</friendlyName><UDN>uuid:fake-igd</UDN>
  <deviceList><device>
   <deviceType>urn:schemas-upnp-org:device:WANDevice:2</deviceType><UDN>uuid:fake-wan</UDN>
   <deviceList><device>
    <deviceType>urn:schemas-upnp-org:device:WANConnectionDevice:2</deviceType><UDN>uuid:fake-wanconn</UDN>
    <serviceList><service>
     <serviceType>urn:schemas-upnp-org:service:%s</serviceType>
     <serviceId>urn:upnp-org:serviceId:WANConn1</serviceId>
     <SCPDURL>/scpd.xml</SCPDURL><controlURL>/ctl</controlURL><eventSubURL>/evt</eventSubURL>
    </service></serviceList>
   </device></deviceList>
  </device></deviceList>
 </device>
</root>`, f.service)
}

func (f *fakeIGD) control(w http.ResponseWriter, r *http.Request) {
	_, action, _ := strings.Cut(strings.Trim(r.Header.Get("SOAPAction"), `"`), "#")
	call := soapCall{Action: action, Args: soapArgs(r)}
	f.mu.Lock()
	f.calls = append(f.calls, call)
	f.mu.Unlock()
	w.Header().Set("Content-Type", `text/xml; charset="utf-8"`)
	ns := "urn:schemas-upnp-org:service:" + f.service
	body := ""
	switch action {
	case "GetExternalIPAddress":
		body = "<NewExternalIPAddress>" + f.external + "</NewExternalIPAddress>"
	case "AddPortMapping":
		if f.refuse != 0 {
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprintf(w, `<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>UPnPError</faultstring><detail><UPnPError xmlns="urn:schemas-upnp-org:control-1-0"><errorCode>%d</errorCode><errorDescription>refused</errorDescription></UPnPError></detail></s:Fault></s:Body></s:Envelope>`, f.refuse)
			return
		}
	case "DeletePortMapping":
	default:
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	fmt.Fprintf(w, `<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body><u:%sResponse xmlns:u="%s">%s</u:%sResponse></s:Body></s:Envelope>`,
		action, ns, body, action)
}

// soapArgs reads the action's arguments: the leaf elements of the body.
func soapArgs(r *http.Request) map[string]string {
	args := map[string]string{}
	d := xml.NewDecoder(r.Body)
	var name string
	var text []byte
	for {
		tok, err := d.Token()
		if err != nil {
			return args
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name, text = t.Name.Local, nil
		case xml.CharData:
			text = append(text, t...)
		case xml.EndElement:
			if name == t.Name.Local {
				args[name] = string(text)
			}
			name = ""
		}
	}
}

// callsOf returns the calls of one action.
func (f *fakeIGD) callsOf(action string) []soapCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []soapCall
	for _, c := range f.calls {
		if c.Action == action {
			out = append(out, c)
		}
	}
	return out
}

// A fake NAT-PMP router (RFC 6886) on a loopback address of its own, on
// UDP port 5351 (the library dials that port): opcode 0 (external
// address), 1 (map UDP) and 2 (map TCP); result code refuse (0: success).
type fakePMP struct {
	addr     netip.Addr
	external [4]byte
	refuse   uint16
	lifetime uint32 // granted lifetime (0: the one asked)

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
		epoch, refuse, lifetime := uint32(100+len(f.reqs)), f.refuse, f.lifetime
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
				binary.BigEndian.PutUint16(reply[10:], req.Internal) // the port asked for
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
