// Package web serves the browser client: the index page (server name, map
// and players above a name field and a Play button), the lag lab's page
// (/lab: the same wasm runs the lab, server included, in the page), wasm_exec.js from the
// Go toolchain that built the client, and the client itself compiled with
// GOOS=js GOARCH=wasm. All of it is embedded with go:embed, so a host ships
// one binary. The wasm is stored gzip-compressed and sent as is to browsers
// that accept gzip (all do), with Content-Type application/wasm and an
// ETag of its content hash.
//
// dist/ is filled by `make wasm`; a server built without it serves a page
// that says how to build the browser client. The browser build embeds no
// dist/ (dist_js.go): the lag lab runs the server in the page, and the
// wasm must not carry a copy of the previous wasm.
package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/binary"
	"encoding/hex"
	"html/template"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

//go:embed index.html
var indexHTML string

//go:embed lab.html
var labHTML string

// loaderTmpl defines the template "loader", the script both pages load the
// wasm with.
//
//go:embed loader.tmpl
var loaderTmpl string

// pages parses the pages: "index" (the game) and "lab" (the lag lab).
func pages() *template.Template {
	t := template.Must(template.New("loader").Parse(loaderTmpl))
	template.Must(t.New("index").Parse(indexHTML))
	template.Must(t.New("lab").Parse(labHTML))
	return t
}

// Client is the embedded browser client.
type Client struct {
	wasmGz   []byte // gzip-compressed wasm
	wasmSize int    // uncompressed bytes
	wasmTag  string // ETag: quoted hash prefix of the compressed bytes
	execJS   []byte
	execTag  string
	page     *template.Template // pages()
	rawOnce  sync.Once
	raw      []byte // the inflated wasm, for clients without gzip
	rawErr   error
}

// Load reads the embedded files. A build without the wasm gives a Client
// whose Available is false.
func Load() *Client {
	gz, err1 := dist.ReadFile("dist/tickshot.wasm.gz")
	js, err2 := dist.ReadFile("dist/wasm_exec.js")
	if err1 != nil || err2 != nil {
		return New(nil, nil)
	}
	return New(gz, js)
}

// New makes a Client of a gzip-compressed wasm gz (RFC 1952) and the
// wasm_exec.js js that goes with it (Load reads them from the embedded
// dist/; tests pass their own, e.g. a synthetic wasm of a real one's
// size). A gz shorter than a gzip header and trailer (18 bytes) makes
// a Client whose Available is false.
func New(gz, js []byte) *Client {
	c := &Client{page: pages()}
	if len(gz) < 18 {
		return c
	}
	c.wasmGz, c.execJS = gz, js
	// gzip's trailer holds the uncompressed size mod 2^32 (RFC 1952).
	c.wasmSize = int(binary.LittleEndian.Uint32(gz[len(gz)-4:]))
	c.wasmTag = etag(gz)
	c.execTag = etag(js)
	return c
}

func etag(b []byte) string {
	h := sha256.Sum256(b)
	return `"` + hex.EncodeToString(h[:8]) + `"`
}

// Available reports whether the wasm client was built into this binary.
func (c *Client) Available() bool { return c.wasmGz != nil }

// Sizes returns the wasm's size uncompressed and gzip-compressed, in bytes.
func (c *Client) Sizes() (raw, compressed int) { return c.wasmSize, len(c.wasmGz) }

// Register adds the pages and the client's files to mux: "/" (index page;
// any other unknown path is 404), "/lab" (the lag lab; ?preset=NAME opens
// an experiment), "/tickshot.wasm" and "/wasm_exec.js".
func (c *Client) Register(mux *http.ServeMux) { c.RegisterGated(mux, nil) }

// WasmPath is the URL path of the wasm client, the one large download
// (a few MB; the pages and wasm_exec.js are a few kB).
const WasmPath = "/tickshot.wasm"

// RegisterGated is Register with gate wrapping the wasm's handler (WasmPath)
// when gate is not nil: the server caps how many are sent at once
// (server/downloads.go), so that its health endpoints stay quick.
func (c *Client) RegisterGated(mux *http.ServeMux, gate func(http.Handler) http.Handler) {
	var wasm http.Handler = http.HandlerFunc(c.serveWasm)
	if gate != nil {
		wasm = gate(wasm)
	}
	mux.HandleFunc("/", c.serveIndex)
	mux.HandleFunc("/lab", c.serveLab)
	mux.Handle(WasmPath, wasm)
	mux.HandleFunc("/wasm_exec.js", c.serveExec)
}

type pageData struct {
	Available bool
	WasmSize  int
	Version   string // cache-busting query of the wasm URL
}

func (c *Client) serveIndex(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	c.servePage(w, "index")
}

// serveLab serves the lag lab's page. The page starts the same wasm with
// window.tickshotConfig = {lab: true, preset} (main_js.go), the preset
// taken from ?preset= by the page's script.
func (c *Client) serveLab(w http.ResponseWriter, r *http.Request) {
	c.servePage(w, "lab")
}

// servePage writes the page of that name (pages).
func (c *Client) servePage(w http.ResponseWriter, name string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	_ = c.page.ExecuteTemplate(w, name, pageData{Available: c.Available(), WasmSize: c.wasmSize, Version: strings.Trim(c.wasmTag, `"`)})
}

func (c *Client) serveExec(w http.ResponseWriter, r *http.Request) {
	if !c.Available() {
		http.Error(w, "this server was built without the browser client (make server builds it)", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	serveTagged(w, r, c.execTag, c.execJS, "")
}

func (c *Client) serveWasm(w http.ResponseWriter, r *http.Request) {
	if !c.Available() {
		http.Error(w, "this server was built without the browser client (make server builds it)", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/wasm")
	w.Header().Set("X-Uncompressed-Length", strconv.Itoa(c.wasmSize))
	w.Header().Add("Vary", "Accept-Encoding")
	if acceptsGzip(r) {
		serveTagged(w, r, c.wasmTag, c.wasmGz, "gzip")
		return
	}
	// A client without gzip (rare: curl without --compressed) gets it
	// inflated, once per process.
	raw, err := c.inflated()
	if err != nil {
		http.Error(w, "corrupt embedded client", http.StatusInternalServerError)
		return
	}
	serveTagged(w, r, c.wasmTag, raw, "")
}

// inflated returns the uncompressed wasm, inflated at the first call.
func (c *Client) inflated() ([]byte, error) {
	c.rawOnce.Do(func() {
		zr, err := gzip.NewReader(bytes.NewReader(c.wasmGz))
		if err != nil {
			c.rawErr = err
			return
		}
		c.raw, c.rawErr = io.ReadAll(zr)
	})
	return c.raw, c.rawErr
}

// serveTagged writes body with an ETag, answering If-None-Match with 304.
// Browsers revalidate (no-cache), so a new build is fetched at once and an
// unchanged one costs one round trip.
func serveTagged(w http.ResponseWriter, r *http.Request, tag string, body []byte, encoding string) {
	h := w.Header()
	if encoding != "" {
		tag = strings.TrimSuffix(tag, `"`) + "-" + encoding + `"`
	}
	h.Set("ETag", tag)
	h.Set("Cache-Control", "no-cache")
	if match := r.Header.Get("If-None-Match"); match != "" && (strings.Contains(match, tag) || strings.TrimSpace(match) == "*") {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if encoding != "" {
		h.Set("Content-Encoding", encoding)
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body)
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
			continue
		}
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		return q > 0
	}
	return false
}
