module tickshot

go 1.26.8

require (
	github.com/ebitengine/gomobile v0.0.0-20240911145611-4856209ac325 // indirect
	github.com/ebitengine/hideconsole v1.0.0 // indirect
	github.com/ebitengine/purego v0.8.0 // indirect
	github.com/gorilla/websocket v1.5.3 // indirect
	github.com/hajimehoshi/ebiten/v2 v2.8.8 // indirect
	github.com/jakecoffman/cp/v2 v2.4.0 // indirect
	github.com/jezek/xgb v1.1.1 // indirect
	github.com/lafriks/go-tiled v0.15.0 // indirect
	github.com/vmihailenco/msgpack/v5 v5.3.6 // indirect
	github.com/vmihailenco/tagparser/v2 v2.0.0 // indirect
	golang.org/x/sync v0.8.0 // indirect
	golang.org/x/sys v0.25.0 // indirect
)
