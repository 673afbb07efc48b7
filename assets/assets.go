// Package assets holds Tickshot's maps (Tiled .tmx files), embedded into the
// binary with go:embed so that nothing has to be installed beside it.
package assets

import "embed"

// maps/expanse.tmx is generated (internal/tool/mapgen).
//
//go:generate go run gen_expanse.go

// FS holds maps/*.tmx.
//
//go:embed maps/*.tmx
var FS embed.FS
