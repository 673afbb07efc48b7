# Tickshot. `make play` starts the game, `make test` runs every test.
# Both install the OS packages Ebiten needs on Debian/Ubuntu when missing.

GO      ?= go
PKGS    := libgl1-mesa-dev libxcursor-dev libxi-dev libxinerama-dev libxrandr-dev libxxf86vm-dev libasound2-dev pkg-config xvfb xdotool
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Packages whose tests need no display (everything but the window). -p 1 runs one
# package at a time: several tests measure timing (RTT, snapshot rates) over loopback.
NOWINDOW = $$($(GO) list ./... | grep -v -x -e tickshot -e tickshot/client)

.PHONY: play test deps build server vet test-unit test-window crosstarget bench clean

play: deps build
	./tickshot play

build: deps
	$(GO) build -o tickshot .

# The dedicated server: no cgo, no Ebiten.
server:
	CGO_ENABLED=0 $(GO) build -tags headless -o tickshot-server .

deps:
	@missing=""; for p in $(PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	command -v node >/dev/null 2>&1 || missing="$$missing nodejs"; \
	if [ -n "$$missing" ]; then \
		echo "Installing OS packages:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

vet: deps
	$(GO) vet ./...
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed: $$out"; exit 1; fi

test-unit: deps server
	$(GO) test -race -count=1 -p 1 $(NOWINDOW)

test-window: deps
	xvfb-run -a -s "-screen 0 1280x720x24" $(GO) test -race -count=1 -v -run . . ./client

crosstarget:
	bash scripts/crosstarget.sh

test: vet server test-unit test-window crosstarget
	@echo "all tests passed"

bench:
	$(GO) test -run XXX -bench . -benchmem ./shared ./game ./server ./net

clean:
	rm -f tickshot tickshot-server
