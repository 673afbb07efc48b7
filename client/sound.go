//go:build !headless

package client

import (
	"math"
	"math/rand/v2"
	"os"
	"runtime"

	"github.com/hajimehoshi/ebiten/v2/audio"

	"tickshot/shared"
)

const sampleRate = 44100

type soundID int

const (
	sndShot soundID = iota
	sndHit
	sndHurt
	sndKill
	sndReload
	sndLaunch
	sndBoom
	sndShotgun
	sndPickup
	numSounds
)

// shotSound is the sound of a hitscan weapon's shot: the shotgun's
// deeper blast, else the rifle's crack.
func shotSound(weapon uint8) soundID {
	if weapon == shared.WeaponShotgun {
		return sndShotgun
	}
	return sndShot
}

// sounds are short effects synthesized at start (no asset files needed).
type sounds struct {
	ctx  *audio.Context
	pcm  [numSounds][]byte
	live []*audio.Player
	// volume is the cvar volume, 0..1.
	volume float64
}

// newSounds returns nil when the machine has no sound device (Linux without
// /dev/snd, as under Xvfb in CI): Ebiten's audio would fail the game loop.
func newSounds() *sounds {
	if runtime.GOOS == "linux" {
		if _, err := os.Stat("/dev/snd"); err != nil {
			return nil
		}
	}
	return &sounds{ctx: audio.NewContext(sampleRate), volume: 1, pcm: synthSounds()}
}

// synthSounds renders every sound, the same samples on every run (a
// fixed noise seed). The hit and kill sounds are bright and pitched, so
// that they stand out of the noise of shots and explosions: the hit a
// short two-partial tick (Quake 3's hitsound is a click of this kind), the
// kill a rising three-note chime.
func synthSounds() (pcm [numSounds][]byte) {
	rng := rand.New(rand.NewPCG(1, 2))
	pcm[sndShot] = synth(0.09, func(t float64) float64 {
		return (rng.Float64()*2 - 1) * math.Exp(-t*45) * 0.5
	})
	pcm[sndHit] = synth(0.06, func(t float64) float64 {
		return (math.Sin(2*math.Pi*2300*t)*0.6 + math.Sin(2*math.Pi*3450*t)*0.4) * math.Exp(-t*75) * 0.45
	})
	pcm[sndHurt] = synth(0.14, func(t float64) float64 {
		return math.Sin(2*math.Pi*(140-300*t)*t) * math.Exp(-t*20) * 0.6
	})
	pcm[sndKill] = synth(0.36, func(t float64) float64 {
		// E6, A6, E7: each note starts its own decay.
		note, at := 1318.5, 0.0
		switch {
		case t >= 0.14:
			note, at = 2637, 0.14
		case t >= 0.07:
			note, at = 1760, 0.07
		}
		u := t - at
		return (math.Sin(2*math.Pi*note*t) + 0.3*math.Sin(4*math.Pi*note*t)) * math.Exp(-u*14) * math.Min(1, u*400) * 0.3
	})
	pcm[sndReload] = synth(0.08, func(t float64) float64 {
		if t > 0.012 && t < 0.05 {
			return 0
		}
		return (rng.Float64()*2 - 1) * 0.25
	})
	pcm[sndLaunch] = synth(0.25, func(t float64) float64 {
		return ((rng.Float64()*2-1)*0.5 + math.Sin(2*math.Pi*(220-400*t)*t)*0.5) * math.Exp(-t*10) * 0.5
	})
	pcm[sndBoom] = synth(0.6, func(t float64) float64 {
		return ((rng.Float64()*2-1)*0.7 + math.Sin(2*math.Pi*55*t)*0.3) * math.Exp(-t*6) * 0.8
	})
	// The shotgun: a longer, darker burst of noise (a one-pole low-pass)
	// over a falling thump, so that it is told from the rifle's crack.
	lp := 0.0
	pcm[sndShotgun] = synth(0.22, func(t float64) float64 {
		lp += ((rng.Float64()*2 - 1) - lp) * 0.25
		return (lp*1.6 + 0.5*math.Sin(2*math.Pi*(90-120*t)*t)) * math.Exp(-t*16) * 0.55
	})
	// The pickup: a soft rising fifth (A5 then E6), shorter and lower than
	// the kill's chime.
	pcm[sndPickup] = synth(0.2, func(t float64) float64 {
		note, at := 880.0, 0.0
		if t >= 0.06 {
			note, at = 1318.5, 0.06
		}
		u := t - at
		return math.Sin(2*math.Pi*note*t) * math.Exp(-u*18) * math.Min(1, u*300) * 0.3
	})
	return pcm
}

// synth renders f over d seconds as 16-bit little-endian stereo PCM.
func synth(d float64, f func(t float64) float64) []byte {
	n := int(d * sampleRate)
	b := make([]byte, n*4)
	for i := 0; i < n; i++ {
		v := int16(math.Max(-1, math.Min(1, f(float64(i)/sampleRate))) * 32000)
		for ch := 0; ch < 2; ch++ {
			b[i*4+ch*2] = byte(v)
			b[i*4+ch*2+1] = byte(v >> 8)
		}
	}
	return b
}

func (s *sounds) play(id soundID) {
	if s == nil {
		return
	}
	if s.volume <= 0 {
		return
	}
	p := s.ctx.NewPlayerFromBytes(s.pcm[id])
	p.SetVolume(s.volume)
	p.Play()
	s.live = append(s.live, p)
}

// update releases finished players.
func (s *sounds) update() {
	if s == nil {
		return
	}
	kept := s.live[:0]
	for _, p := range s.live {
		if p.IsPlaying() {
			kept = append(kept, p)
		} else {
			_ = p.Close()
		}
	}
	s.live = kept
}
