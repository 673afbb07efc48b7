# Tickshot. `make play` starts the game, `make test` runs every test.
# Both install the OS packages Ebiten needs on Debian/Ubuntu when missing.

GO      ?= go
PKGS    := libgl1-mesa-dev libxcursor-dev libxi-dev libxinerama-dev libxrandr-dev libxxf86vm-dev libasound2-dev pkg-config xvfb xdotool
# What the tests use beyond the build: headless Chromium for the browser
# client's end-to-end test, qemu-user for foreign targets of the golden trace,
# iproute2 for the container test's loopback.
TESTPKGS := chromium qemu-user-static iproute2 tesseract-ocr
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Packages whose tests need no display (everything but the window). -p 1 runs one
# package at a time: several tests measure timing (RTT, snapshot rates) over loopback.
NOWINDOW = $$($(GO) list ./... | grep -v -x -e tickshot -e tickshot/client -e tickshot/client/menu -e tickshot/client/keys)

.PHONY: play test deps test-deps build server wasm vet test-unit test-loaded test-window test-browser measure-browser measure-touch measure-network measure-firstminute measure-scale measure-tick crosstarget container-test bench bench-short soak clean

play: deps build
	./tickshot play

# The native game; it embeds the browser client too, so a listen server
# (tickshot play --addr :27015) hands it to friends.
build: deps wasm
	$(GO) build -o tickshot .

# The dedicated server: no cgo, no Ebiten; the browser client embedded.
server: wasm
	CGO_ENABLED=0 $(GO) build -tags headless -o tickshot-server .

# The browser client: the same game compiled to WebAssembly, gzipped, with
# the wasm_exec.js of the same Go toolchain, into assets/web/dist/ where
# package web embeds it. Rebuilt only when a Go file changed.
WASM_DIR := assets/web/dist
GO_SRC := $(shell find . -name '*.go' -not -path './.git/*' -not -name '*_test.go') go.mod go.sum
wasm: $(WASM_DIR)/tickshot.wasm.gz $(WASM_DIR)/wasm_exec.js

$(WASM_DIR)/tickshot.wasm.gz: $(GO_SRC)
	@echo "Building the browser client (GOOS=js GOARCH=wasm)..."
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o $(WASM_DIR)/tickshot.wasm .
	gzip -9 -f $(WASM_DIR)/tickshot.wasm
	@ls -l $(WASM_DIR)/tickshot.wasm.gz

$(WASM_DIR)/wasm_exec.js: go.mod
	cp "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" $@ 2>/dev/null || cp "$$($(GO) env GOROOT)/misc/wasm/wasm_exec.js" $@

deps:
	@missing=""; for p in $(PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	command -v node >/dev/null 2>&1 || missing="$$missing nodejs"; \
	if [ -n "$$missing" ]; then \
		echo "Installing OS packages:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

# Test-only packages; a machine where they cannot be installed still runs
# every other test (the browser test and the qemu target say they skipped).
test-deps: deps
	@missing=""; for p in $(TESTPKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "Installing test packages:$$missing"; \
		{ $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; } || \
		echo "WARNING: could not install$$missing: the tests that need them will be skipped"; \
	fi

vet: deps
	$(GO) vet ./...
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed: $$out"; exit 1; fi

test-unit: test-deps server
	$(GO) test -race -count=1 -p 1 -timeout 30m $(NOWINDOW)

# test-unit on a busy machine (issue 18): two busy loops pinned to cores 0
# and 1 (taskset; unpinned where it is missing) run beside it, started
# before and killed after, also when a test fails or make is interrupted.
# No test may assert a wall-clock rate or latency that load breaks: each
# compares against what the other side really did (the server's ticks and
# counters) or bounds a wait generously. CI runs it once after `make test`.
test-loaded: test-deps server
	@loop() { if command -v taskset >/dev/null 2>&1; then exec taskset -c "$$1" sh -c 'while :; do :; done'; \
		else exec sh -c 'while :; do :; done'; fi; }; \
	loop 0 & b0=$$!; loop 1 & b1=$$!; \
	trap 'kill $$b0 $$b1 2>/dev/null' EXIT INT TERM; \
	echo "test-unit beside two busy loops (pids $$b0 $$b1)"; \
	$(MAKE) --no-print-directory test-unit

test-window: deps
	xvfb-run -a -s "-screen 0 1280x720x24" $(GO) test -race -count=1 -v -run . . ./client ./client/menu

# The browser client's end-to-end tests alone (headless Chromium).
test-browser: test-deps server
	$(GO) test -count=1 -v -run Browser ./e2e

# The browser client's figures in docs/MEASUREMENTS.md (a 60 s run).
measure-browser: test-deps server
	TICKSHOT_BROWSER_MEASURE=1 $(GO) test -count=1 -v -run TestBrowserMinuteOfPlay ./e2e

# The phone figure in docs/MEASUREMENTS.md (issue 22): 30 s of touch play
# on a phone held sideways in Chromium's mobile emulation, CPU slowed 4x.
measure-touch: test-deps server
	TICKSHOT_BROWSER_MEASURE=1 $(GO) test -count=1 -v -run TestBrowserTouchFrameRate ./e2e

# The first-minute figure in docs/MEASUREMENTS.md (issue 21): a scripted
# newcomer's kills and deaths in 60 s against three bot_difficulty 0 bots on
# arena, game.World stepped with no wall clock (a fraction of a second).
measure-firstminute:
	$(GO) test -count=1 -v -run 'TestFirstMinute$$' ./game

# The game over real lossy links (issue 19), not part of `make test`; needs
# root, /dev/net/tun and iproute2: the matrix RTT 60/150 ms x jitter 0/10 ms
# x loss 0/1/2/5 % each way over internal/netem's userspace link, the server
# with 3 bots and hitreg's server on one side, two network bots and hitreg's
# clients on the other, MEASURE_SECONDS a cell (16 cells: about 7 minutes at
# 20 s). Prints a table and writes it into docs/MEASUREMENTS.md ("Real
# networks (issue 19)"). MEASURE_QUICK=1 runs 3 cells and only prints.
# TRANSPORT=websocket,webrtc picks the transports (default: webrtc beside
# websocket where the binary's bot and hitreg take --transport webrtc).
MEASURE_SECONDS ?= 20
TRANSPORT       ?= auto
MEASURE_BIN     ?= $${TMPDIR:-/tmp}/tickshot-measure-server
measure-network:
	CGO_ENABLED=0 $(GO) build -tags headless -o $(MEASURE_BIN) .
	$(GO) run ./scripts/netmeasure --server-bin $(MEASURE_BIN) --seconds $(MEASURE_SECONDS) --transport $(TRANSPORT) \
		$(if $(MEASURE_QUICK),--quick,--write docs/MEASUREMENTS.md --command "make measure-network MEASURE_SECONDS=$(MEASURE_SECONDS)")

# The server's cost against players and tick rate (issue 23), not part of
# `make test`: players 64 / 256 / 1024 (on arena, sprawl, expanse) x 64 / 128
# ticks/s, each cell a headless server process (pinned to the first
# SCALE_SERVER_CPUS CPUs with taskset when there are more; the clients keep
# to the others when at least two are left) loaded by `loadtest --lite` clients from
# scripts/measurescale, SCALE_SECONDS of window after SCALE_WARMUP. Prints the
# Markdown table for docs/MEASUREMENTS.md: tick p50/p99/max, server CPU, bytes
# per client per second. SCALE_PLAYERS=64,256 leaves out the 1 024 cells (their
# joins take minutes while a tick of 1 024 players overruns its budget).
SCALE_SECONDS ?= 5
SCALE_WARMUP  ?= 2s
SCALE_PLAYERS ?= 64,256,1024
SCALE_SERVER_CPUS ?= 1
SCALE_BIN     ?= $${TMPDIR:-/tmp}/tickshot-scale-server
measure-scale:
	CGO_ENABLED=0 $(GO) build -tags headless -o $(SCALE_BIN) .
	$(GO) run ./scripts/measurescale --server-bin $(SCALE_BIN) --seconds $(SCALE_SECONDS) --warmup $(SCALE_WARMUP) --players $(SCALE_PLAYERS) --server-cpus $(SCALE_SERVER_CPUS)

# Issue 23's first Done-when figure: BenchmarkServerTick at 64 and 1 024
# players, both tick rates, TICK_ROUNDS runs in turn, medians and the
# 1 024/64 ratio (scripts/tickratio.sh); TICK_BASE=<commit> runs that
# commit's benchmark in turn with the working tree's.
TICK_ROUNDS ?= 5
TICK_BASE   ?=
measure-tick:
	BASE=$(TICK_BASE) bash scripts/tickratio.sh $(TICK_ROUNDS)

crosstarget: test-deps
	bash scripts/crosstarget.sh

# The Dockerfile's image without a container engine: the same static binary
# alone in an empty root, run as uid 65532 in its own namespaces, checked for
# /status, the healthcheck, /metrics and a clean SIGTERM (needs root; says
# SKIP without, or fails when TICKSHOT_REQUIRE_CONTAINER=1).
container-test: test-deps
	bash scripts/container-test.sh

test: vet server test-unit test-window crosstarget container-test bench-short
	@echo "all tests passed"

# The soak test (issue 12), not part of `make test`: a headless server
# process with 16 bots and 16 network clients (websockets on loopback) for
# SOAK_DURATION, sampled every SOAK_INTERVAL: server RSS, goroutines, tick
# time p99. It prints a table and fails if RSS or goroutines grow between
# the first and the last third, or a tick p99 exceeds the tick interval
# (scripts/soak, internal/tool/soak). `make soak SOAK_DURATION=1m` is a smoke run.
SOAK_DURATION ?= 10m
SOAK_INTERVAL ?= 30s
SOAK_BIN      ?= $${TMPDIR:-/tmp}/tickshot-soak-server
soak:
	CGO_ENABLED=0 $(GO) build -tags headless -o $(SOAK_BIN) .
	$(GO) run ./scripts/soak --server-bin $(SOAK_BIN) --duration $(SOAK_DURATION) --interval $(SOAK_INTERVAL)

# Every benchmark (docs/MEASUREMENTS.md says how to read them); the server
# tick with N lite-client sessions alone: go test ./server -run '^$$' -bench ServerTick -benchmem
BENCH_PKGS := ./shared ./game ./server ./net/...
bench:
	$(GO) test -run '^$$' -bench . -benchmem $(BENCH_PKGS)

# make bench once over (-benchtime 1x: one iteration each; -short: the
# server tick's warm-up 1/8 s, not 2 s), part of make test, so a benchmark
# that no longer runs (a setup check, a panic) fails the build; its
# figures mean nothing.
bench-short:
	$(GO) test -short -run '^$$' -bench . -benchmem -benchtime 1x $(BENCH_PKGS)

clean:
	rm -f tickshot tickshot-server $(WASM_DIR)/tickshot.wasm.gz $(WASM_DIR)/wasm_exec.js
