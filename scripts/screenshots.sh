#!/usr/bin/env bash
# Regenerates README's "Watching lag" screenshots from the real client window
# under Xvfb at 1280x720: each runs `tickshot play --autoplay` (the bot brain
# plays for you) with the experiment's settings and saves a PNG.
set -euo pipefail
cd "$(dirname "$0")/.."
go build -o tickshot .
shot() { # name seconds args...
	local name=$1 after=$2; shift 2
	echo "docs/img/$name.png: $*"
	xvfb-run -a -s "-screen 0 1280x720x24" ./tickshot play --nosound --autoplay --bots 4 \
		--screenshot "docs/img/$name.png" --screenshot-after "$after" "$@" >/dev/null 2>&1
}
shot lag-nopredict 6s --cvar net_fakelag=150 --cvar cl_predict=0 --cvar net_graph=1
shot loss-ratio1 6s --cvar net_fakeloss=10 --cvar cl_interp_ratio=1 --cvar cl_interp=0 --cvar cl_showhitboxes=1 --cvar net_graph=2
shot loss-ratio2 6s --cvar net_fakeloss=10 --cvar cl_interp_ratio=2 --cvar cl_showhitboxes=1 --cvar net_graph=2
shot unlag-off 5s --map range --bots 1 --sv sv_unlag=0 --sv sv_showimpacts=1 --cvar net_fakelag=150
shot unlag-on 5s --map range --bots 1 --sv sv_unlag=1 --sv sv_showimpacts=1 --cvar net_fakelag=150
shot cmdloss-showerror 7s --sv net_fakeloss=15 --cvar cl_cmdbackup=0 --cvar cl_showerror=2 --cvar net_graph=3
shot choke 6s --cvar rate=2500 --cvar cl_updaterate=64 --cvar net_graph=3

# docs/LAB.md's pictures: each lag lab preset at the end of its run
# (tickshot lab --screenshot), reduced to 192 colours where ImageMagick is
# installed (the lab's flat colours survive it; the file is a third).
for preset in $(xvfb-run -a ./tickshot lab --list | grep -v $'^\t' | cut -f1); do
	echo "docs/img/lab-$preset.png: tickshot lab --preset $preset"
	xvfb-run -a -s "-screen 0 1280x720x24" ./tickshot lab --preset "$preset" --screenshot "docs/img/lab-$preset.png" >/dev/null 2>&1
	if command -v convert >/dev/null; then
		convert "docs/img/lab-$preset.png" +dither -colors 192 -define png:compression-level=9 "png8:docs/img/lab-$preset.png"
	fi
done
# The same shot with lag compensation off: it misses.
xvfb-run -a -s "-screen 0 1280x720x24" ./tickshot lab --preset behind-wall --sv sv_unlag=0 --screenshot docs/img/lab-behind-wall-unlag0.png >/dev/null 2>&1
if command -v convert >/dev/null; then
	convert docs/img/lab-behind-wall-unlag0.png +dither -colors 192 -define png:compression-level=9 png8:docs/img/lab-behind-wall-unlag0.png
fi
