package lab

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"tickshot/client/netclient"
)

// Advance keeps the window's time: a second of updates at 1/60 s each,
// at full speed and in slow motion, runs the lab for a second × speed
// (the clock's 1 ms steps carry what each call leaves over).
func TestAdvanceKeepsTheWindowsTime(t *testing.T) {
	for _, speed := range []float64{1, 0.5, 0.1} {
		l, err := New(Config{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for range 60 {
			l.Advance(time.Duration(float64(time.Second) / 60 * speed))
		}
		want := time.Duration(float64(time.Second) * speed)
		if d := l.Now() - want; d < -step || d > step {
			t.Errorf("speed %g: 60 updates of 1/60 s ran the lab %v, want %v", speed, l.Now(), want)
		}
	}
}

// A lab given no seed runs seeded all the same (the server would take
// seed 0 from the wall clock): its saved file names the seed it ran with.
func TestSeedZeroIsSeeded(t *testing.T) {
	l, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := l.Save(&buf); err != nil {
		t.Fatal(err)
	}
	var f struct{ Seed uint64 }
	if err := json.Unmarshal(buf.Bytes(), &f); err != nil {
		t.Fatal(err)
	}
	if f.Seed == 0 {
		t.Errorf("a lab with seed 0 saved seed %d: the server took its seed from the wall clock", f.Seed)
	}
}

// Open refuses a file whose knobs or drivers the game does not take,
// saying which (a lab file is hostile until checked): a cl_interp that
// would wrap the Hello's uint16, rates out of range, an unknown driver.
func TestOpenRefusesHostileKnobs(t *testing.T) {
	l, err := New(Config{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	l.Advance(50 * time.Millisecond)
	l.SetDriver(P2, DriveBot)
	var buf bytes.Buffer
	if err := l.Save(&buf); err != nil {
		t.Fatal(err)
	}
	saved := buf.String()
	if _, err := Open(strings.NewReader(saved)); err != nil {
		t.Fatalf("the saved file: %v", err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"InterpMs":100`, `"InterpMs":70000`, "cl_interp"},
		{`"UpdateRate":20`, `"UpdateRate":0`, "cl_updaterate"},
		{`"CmdRate":64`, `"CmdRate":100000`, "cl_cmdrate"},
		{`"InterpRatio":2`, `"InterpRatio":9`, "cl_interp_ratio"},
		{`"CmdBackup":2`, `"CmdBackup":-1`, "cl_cmdbackup"},
		{`"MaxUnlag":0.5`, `"MaxUnlag":-3`, "sv_maxunlag"},
		{`"TickRate":64`, `"TickRate":10`, "tick rate"},
		{`"drivers":[`, `"drivers":[9,`, "driver 9"},
		{`"driver":1`, `"driver":200`, "driver 200"},
	} {
		bad := strings.Replace(saved, c.from, c.to, 1)
		if bad == saved {
			t.Fatalf("no %s in the saved file %s", c.from, saved)
		}
		if _, err := Open(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Open = %v, want a refusal naming %s", c.to, err, c.want)
		}
	}
}

// Save refuses a run Open would refuse (longer than MaxFileRun, or a file
// over MaxFileBytes), saying why, rather than write a file that never opens.
func TestSaveRefusesWhatOpenRefuses(t *testing.T) {
	l, err := New(Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	l.Advance(20 * time.Millisecond)
	l.now = MaxFileRun + time.Second // as after an hour and a second
	var buf bytes.Buffer
	if err := l.Save(&buf); err == nil || buf.Len() != 0 {
		t.Errorf("Save of a run of %v: %v, %d bytes written; want a refusal and nothing", l.now, err, buf.Len())
	}
	l.now = time.Minute
	in := netclient.Input{MoveX: 1, Angle: 1.25}
	for len(l.tape.log) < MaxFileBytes/64 {
		l.tape.log = append(l.tape.log, tapeEntry{At: l.now, Input: &in})
	}
	if err := l.Save(&buf); err == nil || !strings.Contains(err.Error(), "bytes") || buf.Len() != 0 {
		t.Errorf("Save of %d log entries: %v, %d bytes written; want a refusal naming the size", len(l.tape.log), err, buf.Len())
	}
}

// Knobs turned while a seat is still joining reach its client once it has
// joined (its Hello left with the knobs of before): the lab's knobs and
// what the client runs with agree.
func TestKnobsTurnedWhileJoining(t *testing.T) {
	l, err := New(Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	k := l.Knobs()
	k.Seats[P1].InterpMs, k.Seats[P1].Predict, k.Seats[P2].UpdateRate = 50, false, 32
	l.SetKnobs(k)
	if err := l.RunFor(500 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	c1, c2 := l.Client(P1).View().Config, l.Client(P2).View().Config
	if c1.InterpMs != 50 || c1.Predict || c2.UpdateRate != 32 {
		t.Errorf("clients run with cl_interp %d, cl_predict %v and cl_updaterate %d; want the knobs turned while they joined: 50, false, 32",
			c1.InterpMs, c1.Predict, c2.UpdateRate)
	}
}

// A readout made while the seats join has run time 0 (the run has not
// begun), not the time since the lab started.
func TestReadoutBeforeTheRun(t *testing.T) {
	l, err := New(Config{Preset: "behind-wall", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	l.Advance(50 * time.Millisecond)
	if l.Started() != 0 {
		t.Fatalf("the run began at %v, before the seats could join", l.Started())
	}
	if r := l.Frame().Readout(l.Preset(), l.Started()); r.RunMs != 0 || r.AtMs == 0 {
		t.Errorf("readout at %v ms while joining says run %v ms, want 0", r.AtMs, r.RunMs)
	}
}
