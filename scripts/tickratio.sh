#!/usr/bin/env bash
# tickratio.sh measures issue 23's first Done-when figure: the server tick
# at 1 024 players (expanse) over the tick at 64 (arena), at 64 and 128
# ticks/s, from BenchmarkServerTick (server/servertick_bench_test.go). This
# machine is noisy (single 1 024-player runs vary by a quarter), so it runs
# the populations in turn ROUNDS times and prints each cell's median and
# range and the medians' ratio; a last row per build is the same at 64
# ticks/s with the caches emptied before every tick
# (BenchmarkServerTickColdCache, docs/MEASUREMENTS.md "The tick's ratio
# and the caches"). With BASE=<commit> it builds that commit's
# test binary too (in a temporary worktree) and runs the two in turn, the
# way docs/MEASUREMENTS.md compares a change with what it replaced.
#
# Usage: scripts/tickratio.sh [ROUNDS]          (default 5)
#        BASE=6ebe2ab scripts/tickratio.sh 5
#        make measure-tick [TICK_ROUNDS=5] [TICK_BASE=commit]
# Each round takes a few minutes on a 2-core machine; keep it quiet.
set -euo pipefail

rounds="${1:-5}"
root="$(git rev-parse --show-toplevel)"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/tickratio.XXXXXX")"
trap 'git -C "$root" worktree remove --force "$tmp/base" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT

echo "building the test binary of the working tree" >&2
(cd "$root" && go test -c -o "$tmp/head.test" ./server)
bins=(head)
if [ -n "${BASE:-}" ]; then
	echo "building the test binary of $BASE" >&2
	git -C "$root" worktree add -q --detach "$tmp/base" "$BASE"
	(cd "$tmp/base" && go test -c -o "$tmp/base.test" ./server)
	bins=(base head)
fi

out="$tmp/runs"
: >"$out"
for r in $(seq "$rounds"); do
	for b in "${bins[@]}"; do
		echo "round $r of $rounds: $b" >&2
		# The benchmark reads nothing relative to its directory, but run it
		# where go test would.
		(cd "$root/server" && "$tmp/$b.test" -test.run '^$' \
			-test.bench '^BenchmarkServerTick$/players=(64|1024)/tickrate=(64|128)$' -test.benchtime 200x) |
			awk -v b="$b" '/^BenchmarkServerTick\// { split($1, p, "/"); sub(/players=/, "", p[2]); sub(/tickrate=/, "", p[3]); sub(/-[0-9]+$/, "", p[3]); print b, p[2], p[3], $3 }' >>"$out"
		# The same at 64 ticks/s with the caches emptied before each tick
		# (BenchmarkServerTickColdCache): both populations served from
		# memory, where the one above serves 64 players from the caches.
		# A base without that benchmark prints no cold row.
		(cd "$root/server" && "$tmp/$b.test" -test.run '^$' \
			-test.bench '^BenchmarkServerTickColdCache$/players=(64|1024)$' -test.benchtime 200x) |
			awk -v b="$b" '/^BenchmarkServerTickColdCache\// { split($1, p, "/"); sub(/players=/, "", p[2]); sub(/-[0-9]+$/, "", p[2]); print b, p[2], "cold", $3 }' >>"$out"
	done
done

# Medians, ranges and ratios.
sort -k1,1 -k2,2n -k3,3n -k4,4n "$out" | awk '
function flush() {
	if (n == 0) return
	med = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	key = bin " " pl " " tr
	m[key] = med; lo[key] = v[1]; hi[key] = v[n]
	n = 0
}
{
	if ($1 != bin || $2 != pl || $3 != tr) { flush(); bin = $1; pl = $2; tr = $3 }
	v[++n] = $4
}
END {
	flush()
	printf "| build | sv_tickrate | 64 players (arena) | 1 024 players (expanse) | 1 024 / 64 |\n|---|---|---|---|---|\n"
	split("base head", bs, " ")
	split("64 128 cold", ts, " ")
	for (i = 1; i <= 2; i++) for (j = 1; j <= 3; j++) {
		t = ts[j]; a = bs[i] " 64 " t; z = bs[i] " 1024 " t
		if (!(a in m) || !(z in m)) continue
		printf "| %s | %s | %.0f µs (%.0f–%.0f) | %.2f ms (%.2f–%.2f) | %.1f× |\n", bs[i], (t == "cold" ? "64, caches emptied" : t),
			m[a] / 1e3, lo[a] / 1e3, hi[a] / 1e3, m[z] / 1e6, lo[z] / 1e6, hi[z] / 1e6, m[z] / m[a]
	}
}'
echo "medians of $rounds runs in turn (ns/op of BenchmarkServerTick and BenchmarkServerTickColdCache, -test.benchtime 200x); the target is 20× or less" >&2
