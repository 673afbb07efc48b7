//go:build !js

package web

import "embed"

// dist is the browser client built by `make wasm`: tickshot.wasm.gz and
// wasm_exec.js.
//
//go:embed all:dist
var dist embed.FS
