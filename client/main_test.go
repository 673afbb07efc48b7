//go:build !headless

package client

import (
	"os"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
)

// The package's tests run beside an Ebiten game loop (TestMain), as
// Ebiten's own tests do: images can only be drawn and read back while one
// runs. onFrames hands the loop frames to draw. It needs a display:
//
//	xvfb-run -a -s "-screen 0 1280x720x24" go test ./client

// testScreenW and testScreenH are the test window's size in pixels, the
// default window size of the game.
const testScreenW, testScreenH = 1280, 720

// frameJob is frames handed to the test loop.
type frameJob struct {
	n     int
	draw  func(i int, screen *ebiten.Image)
	times []time.Duration // each frame's, from the start of its Draw to the next one's
	i     int
	last  time.Time
	done  chan struct{}
}

type testLoop struct {
	jobs chan *frameJob
	job  *frameJob
	quit chan struct{}
}

var loop = &testLoop{jobs: make(chan *frameJob), quit: make(chan struct{})}

func (l *testLoop) Update() error {
	select {
	case <-l.quit:
		return ebiten.Termination
	default:
		return nil
	}
}

func (l *testLoop) Draw(screen *ebiten.Image) {
	if l.job == nil {
		select {
		case l.job = <-l.jobs:
		default:
			return
		}
	}
	j := l.job
	now := time.Now()
	if j.i > 0 {
		j.times[j.i-1] = now.Sub(j.last)
	}
	if j.i == j.n {
		l.job = nil
		close(j.done)
		return
	}
	j.last = now
	j.draw(j.i, screen)
	j.i++
}

func (*testLoop) Layout(int, int) (int, int) { return testScreenW, testScreenH }

// onFrames draws n consecutive frames of the test loop with draw (i counts
// them from 0), each onto the window's screen image, and returns how long
// each frame took: from the start of its Draw to the start of the next
// one, so that a frame's time includes what Ebiten and the driver do
// after Draw (running the queued draw calls, presenting).
func onFrames(n int, draw func(i int, screen *ebiten.Image)) []time.Duration {
	j := &frameJob{n: n, draw: draw, times: make([]time.Duration, n), done: make(chan struct{})}
	loop.jobs <- j
	<-j.done
	return j.times
}

// onFrame runs f once inside a frame of the test loop.
func onFrame(f func(screen *ebiten.Image)) {
	onFrames(1, func(_ int, screen *ebiten.Image) { f(screen) })
}

func TestMain(m *testing.M) {
	code := 1
	go func() {
		defer close(loop.quit)
		code = m.Run()
	}()
	ebiten.SetWindowSize(testScreenW, testScreenH)
	ebiten.SetVsyncEnabled(false)
	ebiten.SetScreenClearedEveryFrame(false) // as the game runs (Run)
	ebiten.SetWindowTitle("tickshot client tests")
	if err := ebiten.RunGame(loop); err != nil {
		panic(err)
	}
	os.Exit(code)
}
