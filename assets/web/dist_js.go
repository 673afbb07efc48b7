//go:build js

package web

import "embed"

// dist is empty in the browser build, so its Client is not Available: the
// page already runs the client, and embedding dist/ there would put the
// previous build's wasm inside the next one.
var dist embed.FS
