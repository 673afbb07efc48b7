package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// testClient is a Client holding a small stand-in for the wasm.
func testClient(t *testing.T, raw []byte) *Client {
	t.Helper()
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(raw)
	zw.Close()
	c := &Client{page: pages(), wasmGz: gz.Bytes(),
		wasmSize: len(raw), execJS: []byte("// wasm_exec")}
	c.wasmTag, c.execTag = etag(c.wasmGz), etag(c.execJS)
	return c
}

func get(t *testing.T, h http.Handler, method, path string, hdr map[string]string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func TestServeWasm(t *testing.T) {
	raw := bytes.Repeat([]byte("\x00asm wasm body "), 5000)
	c := testClient(t, raw)
	mux := http.NewServeMux()
	c.Register(mux)

	// A browser: gzip bytes as stored, with the headers a page needs.
	r := get(t, mux, "GET", "/tickshot.wasm", map[string]string{"Accept-Encoding": "gzip, deflate, br"})
	body, _ := io.ReadAll(r.Body)
	if r.StatusCode != 200 || r.Header.Get("Content-Encoding") != "gzip" || r.Header.Get("Content-Type") != "application/wasm" {
		t.Fatalf("status %d, headers %v", r.StatusCode, r.Header)
	}
	if !bytes.Equal(body, c.wasmGz) || r.Header.Get("Content-Length") != itoa(len(c.wasmGz)) {
		t.Errorf("body %d bytes, Content-Length %s, want the %d stored bytes", len(body), r.Header.Get("Content-Length"), len(c.wasmGz))
	}
	if r.Header.Get("X-Uncompressed-Length") != itoa(len(raw)) {
		t.Errorf("X-Uncompressed-Length %q, want %d", r.Header.Get("X-Uncompressed-Length"), len(raw))
	}
	tag := r.Header.Get("ETag")
	// Revalidation: 304 with no body.
	r = get(t, mux, "GET", "/tickshot.wasm", map[string]string{"Accept-Encoding": "gzip", "If-None-Match": tag})
	if b, _ := io.ReadAll(r.Body); r.StatusCode != 304 || len(b) != 0 {
		t.Errorf("If-None-Match: status %d, %d bytes", r.StatusCode, len(b))
	}
	// No gzip (or gzip refused with q=0): the raw wasm.
	for _, ae := range []string{"", "identity", "gzip;q=0", "gzip; q=0.0"} {
		r = get(t, mux, "GET", "/tickshot.wasm", map[string]string{"Accept-Encoding": ae})
		b, _ := io.ReadAll(r.Body)
		if r.Header.Get("Content-Encoding") != "" || !bytes.Equal(b, raw) {
			t.Errorf("Accept-Encoding %q: encoding %q, %d bytes, want the raw %d", ae, r.Header.Get("Content-Encoding"), len(b), len(raw))
		}
	}
	// HEAD: headers, no body.
	r = get(t, mux, "HEAD", "/tickshot.wasm", map[string]string{"Accept-Encoding": "gzip"})
	if b, _ := io.ReadAll(r.Body); r.StatusCode != 200 || len(b) != 0 || r.Header.Get("Content-Length") == "" {
		t.Errorf("HEAD: status %d, %d bytes, Content-Length %q", r.StatusCode, len(b), r.Header.Get("Content-Length"))
	}
	// The page: Play enabled, the wasm's version in the URL; other paths 404.
	r = get(t, mux, "GET", "/", nil)
	b, _ := io.ReadAll(r.Body)
	if !regexp.MustCompile(`const available = \s*true`).Match(b) || !strings.Contains(string(b), strings.Trim(c.wasmTag, `"`)) {
		t.Error("the index page does not announce the built client and its version")
	}
	if r := get(t, mux, "GET", "/nope", nil); r.StatusCode != 404 {
		t.Errorf("/nope: %d", r.StatusCode)
	}
}

// A server built without the client says how to build it.
func TestServeWithoutClient(t *testing.T) {
	c := &Client{page: pages()}
	mux := http.NewServeMux()
	c.Register(mux)
	r := get(t, mux, "GET", "/tickshot.wasm", nil)
	b, _ := io.ReadAll(r.Body)
	if r.StatusCode != 404 || !strings.Contains(string(b), "make server") {
		t.Errorf("status %d: %s", r.StatusCode, b)
	}
	r = get(t, mux, "GET", "/", nil)
	b, _ = io.ReadAll(r.Body)
	if !regexp.MustCompile(`const available = \s*false`).Match(b) {
		t.Error("the page does not say the client is missing")
	}
	r = get(t, mux, "GET", "/lab", nil)
	b, _ = io.ReadAll(r.Body)
	if !regexp.MustCompile(`const available = \s*false`).Match(b) || !strings.Contains(string(b), "tickshot lab") {
		t.Error("the lab's page does not say the client is missing and how to run the lab natively")
	}
}

// /lab serves the lag lab's page: the same wasm, started with a config
// that asks for the lab and the preset of the URL's query; the page loads
// the wasm with the game page's loader.
func TestServeLab(t *testing.T) {
	c := testClient(t, []byte("\x00asm lab"))
	mux := http.NewServeMux()
	c.Register(mux)
	version := strings.Trim(c.wasmTag, `"`)
	for _, path := range []string{"/lab", "/lab?preset=behind-wall"} {
		r := get(t, mux, "GET", path, nil)
		b, _ := io.ReadAll(r.Body)
		page := string(b)
		if r.StatusCode != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("%s: status %d, Content-Type %q", path, r.StatusCode, r.Header.Get("Content-Type"))
		}
		for _, want := range []string{
			"<title>Tickshot lag lab</title>",
			"three seats at once", // the line that explains the lab
			`window.tickshotConfig = {lab: true, preset: params.get("preset") || ""}`, // main_js.go starts client.RunLab
			`fetch("tickshot.wasm?v=" + wasmVersion)`,                                 // the shared loader
			`<script src="wasm_exec.js"></script>`,
		} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: the page lacks %q", path, want)
			}
		}
		if !regexp.MustCompile(`const available = \s*true`).Match(b) || !strings.Contains(page, version) {
			t.Errorf("%s: the page does not announce the built client and its version %s", path, version)
		}
	}
	// The game's page keeps its own config and the same loader.
	r := get(t, mux, "GET", "/", nil)
	b, _ := io.ReadAll(r.Body)
	if page := string(b); strings.Contains(page, "lab: true") || !strings.Contains(page, "async function loadWasm()") ||
		!strings.Contains(page, "<title>Tickshot</title>") {
		t.Error("the index page lost its title or loader, or asks for the lab")
	}
	// Each page's script defines what it uses from the loader before its
	// first use (a const used earlier throws, and the page is dead).
	for _, path := range []string{"/", "/lab"} {
		b, _ := io.ReadAll(get(t, mux, "GET", path, nil).Body)
		page := string(b)
		def, use := strings.Index(page, "const $ = "), strings.Index(page, `$("`)
		if def < 0 || use < def {
			t.Errorf("%s: $ is used at byte %d, defined at %d", path, use, def)
		}
	}
	if r := get(t, mux, "GET", "/lab/x", nil); r.StatusCode != 404 {
		t.Errorf("/lab/x: %d, want 404", r.StatusCode)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
