#!/usr/bin/env bash
# container-test.sh: the Dockerfile's image, tested without a container engine
# (`make container-test`; docs/ARCHITECTURE.md "Container image").
#
# It builds the server exactly as the Dockerfile's build stage does, puts the
# binary alone in an empty root directory with what gcr.io/distroless/static
# adds (/etc/passwd and /etc/group naming nonroot 65532, /tmp, /home/nonroot),
# and runs the image's ENTRYPOINT and CMD there the way a container engine
# does: new mount, PID and network namespaces (the server is PID 1 on its own
# loopback, port 27015), chrooted, as uid/gid 65532 with no capabilities.
# Then it checks what `docker run` and `docker stop` would show:
#   - the process runs as 65532:65532 with no effective capabilities;
#   - the image's HEALTHCHECK command (tickshot-server healthcheck), run in
#     the container's namespaces and root as 65532, exits 0;
#   - /status is a Tickshot status, the browser client (/ and
#     /tickshot.wasm) is embedded, and /metrics is Prometheus text that
#     counts the bots and the player (skipped with a message on a server
#     without a /metrics route);
#   - a player connected when SIGTERM arrives is told "server shutting
#     down", and the server exits with status 0 within 8 s, logging
#     "server stopped".
#
# Needs root (for the namespaces, chroot and uid 65532), util-linux's unshare
# and nsenter, and bash. Where those are missing or not permitted it prints
# "SKIP: <reason>" and exits 0, or exits 1 when TICKSHOT_REQUIRE_CONTAINER=1
# (.ci/run sets it). Exit 1 on any failed check.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=27015   # the Dockerfile's EXPOSE and --addr
UID_NONROOT=65532

skip() {
	if [ "${TICKSHOT_REQUIRE_CONTAINER:-}" = 1 ]; then
		echo "FAIL: container test cannot run here: $*" >&2
		exit 1
	fi
	echo "SKIP: container test: $*"
	exit 0
}
fail() {
	echo "FAIL: $*" >&2
	[ -s "${LOG:-/dev/null}" ] && { echo "--- server log:" >&2; cat "$LOG" >&2; }
	exit 1
}

[ "$(id -u)" = 0 ] || skip "needs root for the namespaces, chroot and uid $UID_NONROOT (run: sudo make container-test)"
command -v unshare >/dev/null && command -v nsenter >/dev/null || skip "needs unshare and nsenter (Debian: util-linux)"
unshare --mount --pid --net --fork true 2>/dev/null || skip "unshare --mount --pid --net is not permitted here (a container without CAP_SYS_ADMIN?)"

# The Dockerfile's build stage, line for line: if the Dockerfile changes
# how it builds, this test must change with it.
BUILD="CGO_ENABLED=0 go build -trimpath -tags headless -ldflags='-s -w' -o /out/tickshot-server ."
grep -qxF "RUN make wasm" Dockerfile || fail "the Dockerfile no longer runs 'make wasm'; update this script"
grep -qxF "RUN $BUILD" Dockerfile || fail "the Dockerfile's build line is no longer: RUN $BUILD; update this script"
grep -qF 'ENTRYPOINT ["/tickshot-server", "server", "--addr", ":27015", "--lan=false"]' Dockerfile ||
	fail "the Dockerfile's ENTRYPOINT changed; update this script"
grep -qF 'CMD ["--bots", "4"]' Dockerfile || fail "the Dockerfile's CMD changed; update this script"

WORK=$(mktemp -d /tmp/tickshot-container.XXXXXX)
ROOT=$WORK/root
LOG=$WORK/server.log
UPID=""
BOTPID=""
SPID=""
cleanup() {
	[ -n "$BOTPID" ] && kill "$BOTPID" 2>/dev/null || true
	# The server itself first: unshare's --kill-child does not reach it,
	# since the kernel clears the parent-death signal when --setuid changes
	# the credentials.
	[ -n "$UPID" ] && [ -n "$SPID" ] && kill -KILL "$SPID" 2>/dev/null || true
	[ -n "$UPID" ] && kill -KILL "$UPID" 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT

echo "== build, as the Dockerfile's build stage"
make --no-print-directory wasm >/dev/null
mkdir -p "$ROOT/out"
eval "${BUILD/\/out\//$ROOT/out/}"
mv "$ROOT/out/tickshot-server" "$ROOT/tickshot-server"
rmdir "$ROOT/out"
echo "   tickshot-server: $(stat -c %s "$ROOT/tickshot-server") bytes"

echo "== root directory, as distroless/static:nonroot"
mkdir -p "$ROOT/etc" "$ROOT/tmp" "$ROOT/home/nonroot"
chmod 1777 "$ROOT/tmp"
chown "$UID_NONROOT:$UID_NONROOT" "$ROOT/home/nonroot"
printf 'root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' >"$ROOT/etc/passwd"
printf 'root:x:0:\nnobody:x:65534:\nnonroot:x:65532:\n' >"$ROOT/etc/group"
chmod 755 "$ROOT" "$ROOT/tickshot-server"
( cd "$ROOT" && find . | sort | sed 's/^/   /' )

touch "$WORK/started"
echo "== run: ENTRYPOINT + CMD as $UID_NONROOT, PID 1 of new mount/pid/net namespaces"
unshare --mount --pid --net --fork --kill-child --root="$ROOT" --wd=/ \
	--setuid "$UID_NONROOT" --setgid "$UID_NONROOT" \
	/tickshot-server server --addr :27015 --lan=false --bots 4 >"$LOG" 2>&1 &
UPID=$!
for _ in $(seq 50); do
	SPID=$(cat "/proc/$UPID/task/$UPID/children" 2>/dev/null | tr -d ' ') || true
	[ -n "$SPID" ] && break
	sleep 0.1
done
[ -n "$SPID" ] || fail "the server process did not start"
# The container's loopback (Docker brings it up; a new network namespace has it down).
nsenter --target "$SPID" --net ip link set lo up 2>/dev/null ||
	nsenter --target "$SPID" --net ifconfig lo up 2>/dev/null ||
	fail "cannot bring up loopback in the server's network namespace (needs iproute2: make test-deps)"

# in_ct CMD...: run CMD in the server's network namespace (host tools).
in_ct() { nsenter --target "$SPID" --net "$@"; }
# http PATH: GET http://127.0.0.1:27015PATH in the container; prints the
# status line, headers and body (HTTP/1.0, bash's /dev/tcp: no curl needed).
http() {
	in_ct bash -c 'exec 3<>/dev/tcp/127.0.0.1/'"$PORT"' && printf "GET %s HTTP/1.0\r\nHost: localhost\r\n\r\n" "$1" >&3 && timeout 5 cat <&3' _ "$1"
}

uid_line=$(grep '^Uid:' "/proc/$SPID/status" | tr -s '\t ' ' ')
gid_line=$(grep '^Gid:' "/proc/$SPID/status" | tr -s '\t ' ' ')
groups_line=$(grep '^Groups:' "/proc/$SPID/status" | tr -s '\t ' ' ' | sed 's/ $//')
capeff=$(grep '^CapEff:' "/proc/$SPID/status" | awk '{print $2}')
nspid=$(grep '^NSpid:' "/proc/$SPID/status" | awk '{print $NF}')
[ "$nspid" = 1 ] || fail "the server is PID $nspid in its namespace, want 1 (as in a container)"
[ "$uid_line" = "Uid: 65532 65532 65532 65532" ] || fail "server runs as '$uid_line', want uid 65532"
[ "$gid_line" = "Gid: 65532 65532 65532 65532" ] || fail "server runs as '$gid_line', want gid 65532"
case "$groups_line" in "Groups:" | "Groups: 65532") ;; *) fail "server keeps supplementary groups: '$groups_line'" ;; esac
[ "$capeff" = 0000000000000000 ] || fail "server has effective capabilities $capeff, want none"
echo "ok: server is PID 1 in its namespace, host pid $SPID, uid/gid 65532, no capabilities"

echo "== HEALTHCHECK (the image's command, in the container's namespaces and root, as 65532)"
healthy=""
for _ in $(seq 50); do
	if out=$(nsenter --target "$SPID" --net --pid --root --wd --setuid "$UID_NONROOT" --setgid "$UID_NONROOT" \
		/tickshot-server healthcheck --url http://127.0.0.1:27015/status --timeout 1s 2>&1); then
		healthy=1
		break
	fi
	sleep 0.2
done
[ -n "$healthy" ] || fail "healthcheck did not pass within 10 s: $out"
echo "ok: $out"

echo "== /status, browser client, /metrics"
status=$(http /status)
grep -q '^HTTP/1.[01] 200' <<<"$status" || fail "/status: $(head -1 <<<"$status")"
grep -q '"map": "arena"' <<<"$status" && grep -q '"tickrate": 64' <<<"$status" ||
	fail "/status is not the image's server (arena, 64 ticks/s): $status"
bots=$(grep -c '"bot": true' <<<"$status" || true)
[ "$bots" = 4 ] || fail "/status lists $bots bots, want the CMD's 4"
echo "ok: /status: arena at 64 ticks/s with 4 bots"
page=$(http /)
grep -q '^HTTP/1.[01] 200' <<<"$page" && grep -q 'wasm_exec.js' <<<"$page" || fail "/ is not the browser client's page: $(head -c 300 <<<"$page")"
wasm=$(http /tickshot.wasm | head -c 2000 | tr -d '\0' | grep -ai '^content-type' | tr -d '\r' || true)
grep -qi 'application/wasm' <<<"$wasm" || fail "/tickshot.wasm is not served (the browser client was not embedded): '$wasm'"
echo "ok: / and /tickshot.wasm ($wasm): the browser client is in the image"
metrics=$(http /metrics)
have_metrics=""
if grep -q '^HTTP/1.[01] 404' <<<"$metrics"; then
	echo "SKIP: /metrics: this server has no /metrics route yet (404)"
else
	grep -q '^HTTP/1.[01] 200' <<<"$metrics" || fail "/metrics: $(head -1 <<<"$metrics")"
	grep -q '^# TYPE ' <<<"$metrics" || fail "/metrics is not Prometheus text: $(head -c 300 <<<"$metrics")"
	echo "ok: /metrics: $(grep -c '^# TYPE ' <<<"$metrics") metric families in Prometheus text"
	have_metrics=1
fi

echo "== SIGTERM with a player connected (docker stop)"
in_ct "$ROOT/tickshot-server" bot --server 127.0.0.1:27015 --count 1 --duration 60s >"$WORK/bot.out" 2>&1 &
BOTPID=$!
for _ in $(seq 50); do
	http /status | grep -q '"name": "netbot1"' && break
	sleep 0.2
done
http /status | grep -q '"name": "netbot1"' || fail "the player did not join"
if [ -n "$have_metrics" ]; then
	metrics=$(http /metrics | tr -d '\r')
	grep -qx 'tickshot_players{kind="human"} 1' <<<"$metrics" && grep -qx 'tickshot_players{kind="bot"} 4' <<<"$metrics" ||
		fail "/metrics does not count the player and the 4 bots: $(grep '^tickshot_players' <<<"$metrics")"
	echo "ok: /metrics counts 1 human and 4 bots"
fi
echo "   server RSS with 4 bots and 1 player: $(awk '/^VmRSS:/ {printf "%.1f MiB", $2 / 1024}' "/proc/$SPID/status")"
t0=$(date +%s%N)
kill -TERM "$SPID"
code=""
for _ in $(seq 80); do
	if ! kill -0 "$UPID" 2>/dev/null; then
		set +e
		wait "$UPID"
		code=$?
		set -e
		break
	fi
	sleep 0.1
done
[ -n "$code" ] || fail "the server did not exit within 8 s of SIGTERM"
stop_ms=$((($(date +%s%N) - t0) / 1000000))
UPID=""
[ "$code" = 0 ] || fail "the server exited with status $code after SIGTERM, want 0"
grep -q 'msg="server stopped"' "$LOG" || fail "no 'server stopped' in the log"
for _ in $(seq 50); do kill -0 "$BOTPID" 2>/dev/null || break; sleep 0.1; done
kill "$BOTPID" 2>/dev/null || true
wait "$BOTPID" 2>/dev/null || true
BOTPID=""
grep -q 'server shutting down' "$WORK/bot.out" || fail "the player was not told 'server shutting down': $(cat "$WORK/bot.out")"
echo "ok: exit status 0 ${stop_ms} ms after SIGTERM, 'server stopped' logged, the player read: $(grep -o 'ended: [^[]*' "$WORK/bot.out" | head -1)"
# deploy/k8s sets readOnlyRootFilesystem: the server must write nothing.
written=$(find "$ROOT" -newer "$WORK/started" -not -type d)
[ -z "$written" ] || fail "the server wrote to its root file system (readOnlyRootFilesystem would break it): $written"
echo "ok: nothing written to the root file system"
echo "container test passed"
