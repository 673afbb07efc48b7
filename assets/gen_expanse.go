//go:build ignore

// gen_expanse writes maps/expanse.tmx from internal/tool/mapgen (run by
// `go generate ./assets`).
package main

import (
	"log"
	"os"

	"tickshot/internal/tool/mapgen"
)

func main() {
	if err := os.WriteFile("maps/expanse.tmx", mapgen.Expanse(), 0o644); err != nil {
		log.Fatal(err)
	}
}
