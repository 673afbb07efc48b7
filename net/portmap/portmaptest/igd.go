//go:build !js

// Package portmaptest is a fake home router for tests of port mapping
// (package net/portmap) and of what uses it: a UPnP IGD on loopback.
package portmaptest

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// IGD is a fake UPnP IGD on loopback: an SSDP responder (UDP: an M-SEARCH gets
// a 200 with the LOCATION of the description), the root device
// description (UPnP Device Architecture 1.1 §2.3) with one WAN connection
// service, and its SOAP control URL answering GetExternalIPAddress,
// AddPortMapping and DeletePortMapping (WANIPConnection:2 §2.5) or a
// UPnPError fault when told to refuse.
type IGD struct {
	t        *testing.T
	service  string // e.g. "WANIPConnection:2"
	external string // GetExternalIPAddress's answer
	http     *httptest.Server
	ssdp     net.PacketConn

	mu     sync.Mutex
	calls  []Call
	refuse int // AddPortMapping's UPnP error code (0: accept)
}

// Call is one SOAP action the fake received, with its arguments.
type Call struct {
	Action string
	Args   map[string]string
}

// NewIGD starts a fake IGD whose one WAN connection service is service
// (e.g. "WANIPConnection:2") and whose external address is external; it
// stops when the test ends.
func NewIGD(t *testing.T, service, external string) *IGD {
	f := &IGD{t: t, service: service, external: external}
	mux := http.NewServeMux()
	mux.HandleFunc("/rootDesc.xml", f.describe)
	mux.HandleFunc("/ctl", f.control)
	f.http = httptest.NewServer(mux)
	t.Cleanup(f.http.Close)
	return f
}

// Root is the description's URL (Config.UPnPRoot).
func (f *IGD) Root() *url.URL {
	u, _ := url.Parse(f.http.URL + "/rootDesc.xml")
	return u
}

// ServeSSDP answers M-SEARCHes on a loopback UDP port and returns its
// address (Config.SSDPAddr).
func (f *IGD) ServeSSDP() string {
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
			reply := "HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=120\r\nEXT:\r\nLOCATION: " + f.Root().String() +
				"\r\nSERVER: fake/1.0 UPnP/1.1 test/1.0\r\nST: " + st + "\r\nUSN: uuid:fake-igd::" + st + "\r\n\r\n"
			_, _ = pc.WriteTo([]byte(reply), from)
		}
	}()
	return pc.LocalAddr().String()
}

func (f *IGD) describe(w http.ResponseWriter, _ *http.Request) {
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

func (f *IGD) control(w http.ResponseWriter, r *http.Request) {
	_, action, _ := strings.Cut(strings.Trim(r.Header.Get("SOAPAction"), `"`), "#")
	call := Call{Action: action, Args: soapArgs(r)}
	f.mu.Lock()
	f.calls = append(f.calls, call)
	refuse := f.refuse
	f.mu.Unlock()
	w.Header().Set("Content-Type", `text/xml; charset="utf-8"`)
	ns := "urn:schemas-upnp-org:service:" + f.service
	body := ""
	switch action {
	case "GetExternalIPAddress":
		body = "<NewExternalIPAddress>" + f.external + "</NewExternalIPAddress>"
	case "AddPortMapping":
		if refuse != 0 {
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprintf(w, `<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>UPnPError</faultstring><detail><UPnPError xmlns="urn:schemas-upnp-org:control-1-0"><errorCode>%d</errorCode><errorDescription>refused</errorDescription></UPnPError></detail></s:Fault></s:Body></s:Envelope>`, refuse)
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

// Calls returns the calls of one action.
func (f *IGD) Calls(action string) []Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Call
	for _, c := range f.calls {
		if c.Action == action {
			out = append(out, c)
		}
	}
	return out
}

// SetRefuse makes AddPortMapping answer with the UPnP error code (e.g.
// 718, ConflictInMappingEntry); 0 accepts again.
func (f *IGD) SetRefuse(code int) {
	f.mu.Lock()
	f.refuse = code
	f.mu.Unlock()
}
