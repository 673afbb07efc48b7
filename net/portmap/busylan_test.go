//go:build !js

package portmap

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"tickshot/net/portmap/portmaptest"
)

// TestUPnPRouterAmongOtherDevices: on a home LAN every UPnP device (TVs,
// speakers, printers, a NAS) answers the search for root devices, often
// before the router. Here six answer first: five whose description is not
// found and one whose description never comes (a device that hangs);
// then the router. The router is still found and mapped within the
// timeout.
func TestUPnPRouterAmongOtherDevices(t *testing.T) {
	igd := portmaptest.NewIGD(t, "WANIPConnection:2", "203.0.113.7")
	hang := make(chan struct{})
	devices := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hang.xml" {
			select {
			case <-r.Context().Done():
			case <-hang:
			}
			return
		}
		http.NotFound(w, r)
	}))
	defer devices.Close()
	defer close(hang)
	locations := []string{devices.URL + "/hang.xml"}
	for i := range 5 {
		locations = append(locations, fmt.Sprintf("%s/tv%d.xml", devices.URL, i))
	}
	locations = append(locations, igd.Root().String())

	pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	go func() {
		buf := make([]byte, 2048)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(buf[:n])))
			if err != nil || req.Method != "M-SEARCH" {
				continue
			}
			st := req.Header.Get("ST")
			for i, loc := range locations {
				reply := fmt.Sprintf("HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=120\r\nEXT:\r\nLOCATION: %s\r\n"+
					"SERVER: fake/1.0 UPnP/1.1 test/1.0\r\nST: %s\r\nUSN: uuid:device-%d::%s\r\n\r\n", loc, st, i, st)
				_, _ = pc.WriteTo([]byte(reply), from)
				time.Sleep(5 * time.Millisecond) // in this order
			}
		}
	}()

	m := Start(Config{Port: testPort, Timeout: 3 * time.Second, SSDPAddr: pc.LocalAddr().String(), NoNATPMP: true})
	defer m.Close()
	out := waitDone(t, m)
	if out.Result != Mapped || out.Link() != "http://203.0.113.7:27015/" {
		t.Fatalf("outcome %v %q (%v): want the router behind six other devices mapped", out.Result, out.Sentence(), out.Err)
	}
}
