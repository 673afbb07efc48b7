#!/usr/bin/env bash
# crosstarget.sh runs the golden traces (TestGolden*) of package shared
# (movement and weapons: shared.RunCommand) and of package game (the
# interpolation game.Lerp and History.At, which the client renders with and
# the server rewinds with; hit traces, TraceShot, which the client draws its
# tracer with and the server decides hits with; and 40 s of a whole
# game.World: bots, rifle and rockets, splash, deaths and respawns) on every
# build target whose floating point could differ, and fails unless each one
# passes and reports the same four hashes:
#
#   native            the host's own GOARCH (amd64 on the build machines)
#   GOAMD64=v3        amd64 with FMA/AVX2 code generation (needs a CPU with fma+avx2)
#   GOARCH=386        32-bit x86 (SSE2), CGO_ENABLED=0: natively where the kernel
#                     runs 32-bit binaries, else under qemu-i386-static
#   GOARCH=arm64      under qemu-aarch64-static (Debian's qemu-user-static)
#   GOARCH=riscv64    under qemu-riscv64-static
#   GOOS=js/wasm      the browser client's target, run under node
#
# A foreign target whose emulator is not installed is skipped with the reason
# (apt-get install qemu-user-static), never failed, so `make test` stays green
# on a newcomer's machine; a target that runs must pass with the same hashes.
#
# It also compiles packages shared and game for FMA targets (GOAMD64=v3,
# arm64, ppc64le, s390x, riscv64) and fails if the compiler fused any
# multiply-add in shared/ or game/ (but game/camera.go, see step 5): the
# state is quantized after every command, which hides most 1-ulp
# differences, so a missing float64() conversion would rarely show in a
# trace hash. And it fails if shared/ or game/ calls a function of package
# math that Go compiles with fused multiply-adds (Sin, Cos, Sincos, Atan2,
# Hypot, Exp, ...: use shared.Sincos and game's hypot and atan2, fenced
# ports) or cp/v2 (whose vector products are fused).
#
# Last, it builds the browser client (GOOS=js GOARCH=wasm: it may run the
# server's simulation in the page, as the lag lab does, but links no
# gorilla/websocket, net/http, Prometheus, pion or internal/ tools) and the
# dedicated server (CGO_ENABLED=0 -tags headless, without Ebiten).
#
# Usage: scripts/crosstarget.sh   (from anywhere inside the repository)
set -uo pipefail

cd "$(dirname "$0")/.." || exit 2
PKGS=(./shared ./game)
RUN='^TestGolden'
GOROOT_DIR="$(go env GOROOT)"
HOSTARCH="$(go env GOHOSTARCH)"

failed=()
names=()
hashes=()

# run_target NAME [VAR=value ...] [-- extra go test flags]
run_target() {
	local name=$1
	shift
	local envs=() extra=()
	while [ $# -gt 0 ]; do
		if [ "$1" = "--" ]; then
			shift
			extra=("$@")
			break
		fi
		envs+=("$1")
		shift
	done
	echo "=== $name: ${envs[*]:-} go test -p 1 ${PKGS[*]} -run '$RUN' -count=1 ${extra[*]:-}"
	local out rc
	out="$(env "${envs[@]}" go test -p 1 "${PKGS[@]}" -run "$RUN" -count=1 -v "${extra[@]}" 2>&1)"
	rc=$?
	local hs hg hh hw hash=""
	hs="$(printf '%s\n' "$out" | grep -oE 'golden trace hash (= )?0x[0-9a-f]+' | head -n1 | grep -oE '0x[0-9a-f]+')"
	hg="$(printf '%s\n' "$out" | grep -oE 'golden interp hash (= )?0x[0-9a-f]+' | head -n1 | grep -oE '0x[0-9a-f]+')"
	hh="$(printf '%s\n' "$out" | grep -oE 'golden hit hash (= )?0x[0-9a-f]+' | head -n1 | grep -oE '0x[0-9a-f]+')"
	hw="$(printf '%s\n' "$out" | grep -oE 'golden world hash (= )?0x[0-9a-f]+' | head -n1 | grep -oE '0x[0-9a-f]+')"
	if [ -n "$hs" ] && [ -n "$hg" ] && [ -n "$hh" ] && [ -n "$hw" ]; then
		hash="shared $hs interp $hg hits $hh world $hw"
	fi
	if [ $rc -ne 0 ]; then
		printf '%s\n' "$out"
		echo "--- $name: FAIL (exit $rc)"
		failed+=("$name")
	elif [ -z "$hash" ]; then
		printf '%s\n' "$out"
		echo "--- $name: FAIL (a golden hash is missing from the output: did TestGoldenTrace, TestGoldenInterp, TestGoldenHits and TestGoldenWorld run?)"
		failed+=("$name")
	else
		printf '%s\n' "$out" | grep -E '^(--- |ok|PASS|FAIL)' | sed 's/^/    /'
		echo "--- $name: ok, hash $hash"
	fi
	if [ -n "$hash" ]; then
		names+=("$name")
		hashes+=("$hash")
	fi
}

skip() { echo "=== $1: SKIPPED: $2"; }

# 1. Native.
run_target "native $(go env GOOS)/$HOSTARCH" CGO_ENABLED=0

# 2. GOAMD64=v3: only where the CPU can run the binary.
if [ "$HOSTARCH" != amd64 ]; then
	skip "GOAMD64=v3" "host is $HOSTARCH, not amd64"
elif ! grep -qw fma /proc/cpuinfo 2>/dev/null || ! grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
	skip "GOAMD64=v3" "/proc/cpuinfo does not list both fma and avx2, so a v3 binary cannot run here"
else
	run_target "amd64 GOAMD64=v3" GOARCH=amd64 GOAMD64=v3 CGO_ENABLED=0
fi

# 3. 386: natively where the kernel runs 32-bit binaries (amd64 kernels may
#    be built without IA32 emulation: "exec format error"), else under
#    qemu-i386-static. qemu-i386 (7.2, Debian 12) mishandles the signal Go's
#    scheduler sends to preempt a running goroutine (SIGURG, asynchronous
#    preemption since Go 1.14): the handler runs on the wrong stack and the
#    test binary dies with "fatal: bad g in signal handler" or "morestack on
#    gsignal". GODEBUG=asyncpreemptoff=1 turns that signal off (goroutines
#    are then preempted only at function calls), which changes scheduling,
#    not arithmetic, so the trace is the same one the native 386 binary runs.
can_run_386() {
	local dir
	dir="$(mktemp -d)"
	printf 'package main\nfunc main() {}\n' >"$dir/main.go"
	(cd "$dir" && GOOS=linux GOARCH=386 CGO_ENABLED=0 go build -o probe main.go 2>/dev/null && ./probe 2>/dev/null)
	local rc=$?
	rm -rf "$dir"
	return $rc
}
if { [ "$HOSTARCH" = amd64 ] || [ "$HOSTARCH" = 386 ]; } && can_run_386; then
	run_target "linux/386" GOARCH=386 CGO_ENABLED=0
elif command -v qemu-i386-static >/dev/null 2>&1; then
	run_target "linux/386 (qemu)" GOARCH=386 CGO_ENABLED=0 -- -exec "env GODEBUG=asyncpreemptoff=1 qemu-i386-static"
else
	skip "GOARCH=386" "this kernel cannot execute 386 binaries (exec format error) and qemu-i386-static is not installed (apt-get install qemu-user-static)"
fi

# run_fma_target GOARCH QEMU: a target with fused multiply-add, natively on
# such a host, else under qemu-user's QEMU binary, else skipped.
run_fma_target() {
	if [ "$HOSTARCH" = "$1" ]; then
		run_target "linux/$1" CGO_ENABLED=0
	elif command -v "$2" >/dev/null 2>&1; then
		run_target "linux/$1 (qemu)" GOARCH="$1" CGO_ENABLED=0 -- -exec "$2"
	else
		skip "GOARCH=$1" "$2 not installed (apt-get install qemu-user-static)"
	fi
}

# 3b. arm64 (an FMA architecture: Apple and ARM laptops) under qemu-user.
run_fma_target arm64 qemu-aarch64-static

# 3c. riscv64 (an FMA architecture) under qemu-user.
run_fma_target riscv64 qemu-riscv64-static

# 4. js/wasm under node.
wasm_exec=""
for f in "$GOROOT_DIR/lib/wasm/go_js_wasm_exec" "$GOROOT_DIR/misc/wasm/go_js_wasm_exec"; do
	if [ -x "$f" ]; then
		wasm_exec=$f
		break
	fi
done
if [ -z "$wasm_exec" ]; then
	echo "=== js/wasm: FAIL: go_js_wasm_exec not found under $GOROOT_DIR/lib/wasm or misc/wasm"
	failed+=("js/wasm")
elif ! command -v node >/dev/null 2>&1; then
	echo "=== js/wasm: FAIL: node is not installed (needed by $wasm_exec)"
	failed+=("js/wasm")
else
	run_target "js/wasm" GOOS=js GOARCH=wasm CGO_ENABLED=0 -- -exec "$wasm_exec"
fi

# 5. No fused multiply-add in shared/ or game/ on any FMA target. shared/
#    runs on client (prediction) and server; game/ holds what both sides
#    compute and must agree on to the bit (Lerp/History.At: the client's
#    rendering and the server's rewind; TraceShot: the client's tracer and
#    the server's hit; EntityView's teleport test: the client's history and
#    the server's copy of it) and the world's rules, which must play out the
#    same on an arm64 server as on an amd64 one (the golden world trace).
#    One file is left out, honestly: game/camera.go (Camera, ViewRect)
#    places the client's drawing, the server's interest rectangle and what
#    an enemy sees of a spawn (Map.Sees, in the golden world trace), and
#    its one product is a halving (view/2), exact in binary, so a fused
#    p - view*0.5 rounds once either way and cannot change a bit. The file pattern does not use $PWD: go
#    build replays -S output from its cache, with the paths of whichever
#    checkout (or worktree) compiled the package first.
fma_re='VFN?M(ADD|SUB)[0-9]*S[SD]|[[:space:]]FN?M(ADD|SUB)[SD]?[[:space:]]|WFN?M[AS]DB|FN?M(ADD|SUB)D[[:space:]]'
fenced_re='/(shared|game)/[^/)]+\.go:[0-9]+\)'
unfenced_re='/game/camera\.go:[0-9]+\)'
sharedpath="$(go list ./shared)"
gamepath="$(go list ./game)"
for t in "amd64 GOAMD64=v3" "arm64" "ppc64le" "s390x" "riscv64"; do
	set -- $t
	arch=$1
	shift
	echo "=== no FMA in $sharedpath, $gamepath (but camera.go) on $arch $*"
	asm="$(env GOOS=linux GOARCH="$arch" CGO_ENABLED=0 "$@" go build -gcflags="$sharedpath=-S" -gcflags="$gamepath=-S" "${PKGS[@]}" 2>&1)"
	if [ $? -ne 0 ]; then
		printf '%s\n' "$asm" | tail -n 20
		echo "--- FMA check $arch: FAIL (build failed)"
		failed+=("fma-$arch")
		continue
	fi
	missing=""
	for fn in "$sharedpath.RunCommand" "$gamepath.Lerp" "$gamepath.(*History).At" "$gamepath.TraceShot" "$gamepath.(*Flight).step" "$gamepath.(*Bot).Think"; do
		if ! grep -qF "$fn" <<<"$(grep 'STEXT' <<<"$asm")"; then
			missing="$missing $fn"
		fi
	done
	if [ -n "$missing" ]; then
		echo "--- FMA check $arch: FAIL (no assembly listing of$missing from go build -gcflags=-S)"
		failed+=("fma-$arch")
		continue
	fi
	fused="$(printf '%s\n' "$asm" | grep -E "$fenced_re" | grep -vE "$unfenced_re" | grep -E "$fma_re")"
	if [ -n "$fused" ]; then
		printf '%s\n' "$fused"
		echo "--- FMA check $arch: FAIL: wrap the product on each line above in float64()"
		failed+=("fma-$arch")
	else
		echo "--- FMA check $arch: ok"
	fi
done

# 5b. No call from shared/ or game/ (but camera.go) into code whose floats
#     the step above cannot see and that is compiled with fused
#     multiply-adds: package math's Sin, Cos, Sincos, Atan, Atan2, Hypot,
#     Exp, Log, Pow, ... (math.Sqrt, Abs, Floor, Remainder, Min, Max are
#     exact or unfused), and cp/v2.
echo "=== no fused library calls in shared/, game/ (but camera.go)"
libcalls="$(grep -nE 'math\.(Sin|Cos|Sincos|Tan|Asin|Acos|Atan|Atan2|Sinh|Cosh|Tanh|Asinh|Acosh|Atanh|Hypot|Exp|Exp2|Expm1|Log|Log2|Log10|Log1p|Pow|Pow10|Cbrt|Erf|Erfc|Erfinv|Erfcinv|Gamma|Lgamma|J0|J1|Jn|Y0|Y1|Yn|FMA)\(|jakecoffman/cp' shared/*.go game/*.go |
	grep -v '_test\.go:' | grep -v '^game/camera\.go:' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//')"
if [ -n "$libcalls" ]; then
	printf '%s\n' "$libcalls"
	echo "--- library calls: FAIL: use shared.Sincos, game's hypot and atan2, and the wall clipping of game/map.go"
	failed+=("libcalls")
else
	echo "--- library calls: ok"
fi

# 6. Builds that must compile, with their dependency rules: the browser client
#    (GOOS=js) and the dedicated server (no cgo, no Ebiten). The browser build
#    may link package server: the lag lab (client/lab) runs the real server's
#    simulation in the page over in-memory links (server.New, Step,
#    ServeTransport), while its listeners and HTTP serving (server/listen.go),
#    the WebRTC host and the Prometheus metrics are native-only files with
#    browser stand-ins. It links no gorilla/websocket (no sockets there: the
#    browser's WebSocket instead), no net/http (0.45 MB gzip more to download,
#    for nothing a page uses), no Prometheus client, no pion (the browser's
#    RTCPeerConnection instead), and no command-line tools or test servers
#    from internal/ but the cvar registry that client and server share.
#    Packages server and client/lab are checked on their own too, so the rule
#    holds before main_js.go links them.
browser_pkgs=(. ./server ./client/lab)
echo "=== browser client: GOOS=js GOARCH=wasm go build ${browser_pkgs[*]}"
if out="$(GOOS=js GOARCH=wasm go build -o /dev/null . 2>&1 && GOOS=js GOARCH=wasm go build "${browser_pkgs[@]:1}" 2>&1)"; then
	deps="$(GOOS=js GOARCH=wasm go list -deps "${browser_pkgs[@]}" 2>&1)"
	bad="$(printf '%s\n' "$deps" | grep -x -e 'github.com/gorilla/websocket' -e 'net/http' -e 'github.com/prometheus/.*' -e 'github.com/pion/.*' -e 'tickshot/internal/.*' | grep -v -x 'tickshot/internal/cvar' | sort -u)"
	if [ -n "$bad" ]; then
		echo "--- browser client: FAIL: the js/wasm build of ${browser_pkgs[*]} links $(echo $bad)"
		failed+=("browser-deps")
	else
		echo "--- browser client: ok (no gorilla/websocket, net/http, Prometheus, pion or internal/ tools in its dependencies)"
	fi
else
	printf '%s\n' "$out" | tail -n 20
	echo "--- browser client: FAIL (build)"
	failed+=("browser-build")
fi
echo "=== dedicated server: CGO_ENABLED=0 go build -tags headless ."
if out="$(CGO_ENABLED=0 go build -tags headless -o /dev/null . 2>&1)"; then
	if go list -tags headless -deps . | grep -q 'hajimehoshi/ebiten'; then
		echo "--- dedicated server: FAIL: the headless build links Ebiten"
		failed+=("server-deps")
	else
		echo "--- dedicated server: ok (no cgo, no Ebiten)"
	fi
else
	printf '%s\n' "$out" | tail -n 20
	echo "--- dedicated server: FAIL (build)"
	failed+=("server-build")
fi

# Every target must agree on the hash.
if [ ${#hashes[@]} -gt 0 ]; then
	ref=${hashes[0]}
	for i in "${!hashes[@]}"; do
		if [ "${hashes[$i]}" != "$ref" ]; then
			echo "HASH MISMATCH: ${names[$i]} gives ${hashes[$i]}, ${names[0]} gives $ref"
			failed+=("hash-${names[$i]}")
		fi
	done
fi

echo
for i in "${!names[@]}"; do
	printf '  %-22s %s\n' "${names[$i]}" "${hashes[$i]}"
done
if [ ${#failed[@]} -gt 0 ]; then
	echo "crosstarget: FAILED: ${failed[*]}"
	exit 1
fi
echo "crosstarget: all targets pass with the same golden hashes"
