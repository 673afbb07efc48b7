package game

import "math"

// Sample is one entity's state at one server tick, as a snapshot carried it.
type Sample struct {
	Tick  uint32  // server tick of the snapshot
	X, Y  float64 // centre, world units
	Angle float64 // aim, radians
	Alive bool
}

// InterpPeriodMs returns the interpolation period in ms, Source's lerp_msec:
// max(cl_interp, cl_interp_ratio / cl_updaterate), where interpMs is
// cl_interp in ms, ratio is cl_interp_ratio in snapshot intervals and
// updateRate is cl_updaterate in snapshots/s (below 1 counts as 1). The
// client renders other players this far in the past and stamps it on every
// usercmd; the server bounds the usercmd's claim by it. Callers round and
// clamp (proto.MaxInterpMs) as their side needs. Source: Valve, "Source
// Multiplayer Networking", Entity interpolation.
func InterpPeriodMs(interpMs, ratio float64, updateRate int) float64 {
	return math.Max(interpMs, ratio/float64(max(updateRate, 1))*1000)
}

// HistorySize is the number of samples a History keeps: at the maximum
// update rate of 128/s that is a quarter second, at the default 20/s 1.6 s.
const HistorySize = 32

// History is one entity's recent samples in a fixed ring (no allocation),
// oldest first. Used by the client to render other players (Bernier 2001,
// "Display of Targets"; Source "Entity interpolation").
type History struct {
	buf  [HistorySize]Sample
	head int // index of the oldest sample
	n    int
}

// Len returns the number of samples held.
func (h *History) Len() int { return h.n }

// Get returns the i-th sample, 0 being the oldest.
func (h *History) Get(i int) Sample { return h.buf[(h.head+i)%HistorySize] }

// Newest returns the newest sample; ok is false when the history is empty.
func (h *History) Newest() (Sample, bool) {
	if h.n == 0 {
		return Sample{}, false
	}
	return h.Get(h.n - 1), true
}

// Reset forgets every sample (after a teleport or respawn).
func (h *History) Reset() { h.n, h.head = 0, 0 }

// Add appends a sample. Samples not newer than the newest are ignored.
// When full, the oldest is dropped.
func (h *History) Add(s Sample) {
	if last, ok := h.Newest(); ok && s.Tick <= last.Tick {
		return
	}
	if h.n == HistorySize {
		h.head = (h.head + 1) % HistorySize
		h.n--
	}
	h.buf[(h.head+h.n)%HistorySize] = s
	h.n++
}

// At returns the entity's state at renderTick (fractional server ticks):
// interpolated between the two samples that straddle it, extrapolated
// linearly from the last two for at most maxExtrap ticks beyond the newest
// (then held), and held at the oldest before the history starts. ok is false
// only when the history is empty. extrapolated tells whether the result lies
// beyond the newest sample.
func (h *History) At(renderTick, maxExtrap float64) (s Sample, extrapolated, ok bool) {
	if h.n == 0 {
		return Sample{}, false, false
	}
	first := h.Get(0)
	if renderTick <= float64(first.Tick) {
		return first, false, true
	}
	last := h.Get(h.n - 1)
	if float64(last.Tick) >= renderTick {
		// Render times sit near the newest samples: scan from that end for
		// the pair a.Tick < renderTick <= b.Tick.
		for i := h.n - 1; i >= 1; i-- {
			if a := h.Get(i - 1); float64(a.Tick) < renderTick {
				b := h.Get(i)
				t := (renderTick - float64(a.Tick)) / float64(b.Tick-a.Tick)
				return Lerp(a, b, t), false, true
			}
		}
	}
	if h.n < 2 || maxExtrap <= 0 || !last.Alive {
		return last, true, true
	}
	prev := h.Get(h.n - 2)
	ahead := math.Min(renderTick-float64(last.Tick), maxExtrap)
	t := 1 + ahead/float64(last.Tick-prev.Tick)
	return Lerp(prev, last, t), true, true
}

// Lerp interpolates two samples: t=0 gives a, t=1 gives b, t>1 extrapolates.
// Angles take the shorter way round. Alive follows a until t reaches 1.
// This one function is used by both the client's rendering and the server's
// rewind, so both compute the same positions from the same samples.
//
// Every product is wrapped in float64() so that it is rounded before the
// addition: the Go spec lets the compiler fuse x + y*z into one multiply-add
// (arm64, ppc64le, s390x, riscv64 and GOAMD64=v3 do), which rounds once and
// so differs in the last bit from amd64's two roundings, and an explicit
// conversion forbids that ("Floating-point operators", The Go Programming
// Language Specification). shared/ is fenced the same way;
// scripts/crosstarget.sh fails if any fused multiply-add appears in this
// file, and TestGoldenInterp's hash is compared across targets.
func Lerp(a, b Sample, t float64) Sample {
	da := math.Remainder(b.Angle-a.Angle, 2*math.Pi)
	s := Sample{
		X:     a.X + float64((b.X-a.X)*t),
		Y:     a.Y + float64((b.Y-a.Y)*t),
		Angle: math.Remainder(a.Angle+float64(da*t), 2*math.Pi),
		Alive: a.Alive,
	}
	if t >= 1 {
		s.Alive = b.Alive
	}
	s.Tick = a.Tick + uint32(math.Floor(float64(b.Tick-a.Tick)*t))
	return s
}
