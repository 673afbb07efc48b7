package demo

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"tickshot/client/netclient"
	"tickshot/net/proto"
	"tickshot/shared"
)

// Dir returns the directory demos are kept in: tickshot/demos in the
// user's config directory (os.UserConfigDir: $XDG_CONFIG_HOME or ~/.config
// on Linux), as the "played" marker and autoexec.cfg are.
func Dir() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "tickshot", "demos"), nil
}

// Path turns a demo name into its file: a name without a slash is
// NAME.dem in Dir; a path (with a slash, or ending in .dem and existing)
// is used as it is.
func Path(name string) (string, error) {
	if name == "" {
		return "", errors.New("no demo name")
	}
	if strings.ContainsAny(name, `/\`) {
		return name, nil
	}
	if strings.HasSuffix(name, ".dem") {
		if _, err := os.Stat(name); err == nil {
			return name, nil
		}
		name = strings.TrimSuffix(name, ".dem")
	}
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, name+".dem"), nil
}

// CheckName refuses demo names that are not a plain file name.
func CheckName(name string) error {
	if name == "" || len(name) > 64 || strings.ContainsAny(name, `/\:*?"<>|`) || strings.HasPrefix(name, ".") ||
		proto.CleanText(name, 64) != name || strings.ContainsRune(name, ' ') {
		return fmt.Errorf("bad demo name %q: use letters, digits, - and _", name)
	}
	return nil
}

// Recorder writes a demo file: a netclient.DemoSink. Its methods run on
// the client's goroutine; writes go through a buffer, and the first write
// error ends the recording (Err).
type Recorder struct {
	path  string
	f     io.WriteCloser
	w     *bufio.Writer
	start time.Time
	last  time.Duration // the latest record's time
	err   error
	buf   []byte
	// Records and Bytes count what was written.
	Records int
	Bytes   int64
}

// StartRecording starts recording c into the file at path (its directory is
// made). Stop it with Stop.
func StartRecording(c *netclient.Client, path string) (*Recorder, error) {
	if c.View().Recording {
		return nil, netclient.ErrRecording
	}
	r, err := newRecorder(path)
	if err != nil {
		return nil, err
	}
	st, err := c.StartRecording(r)
	if err != nil {
		r.f.Close()
		os.Remove(path)
		return nil, err
	}
	r.begin(st)
	return r, nil
}

func newRecorder(path string) (*Recorder, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &Recorder{path: path, f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

// Path is the file recorded into.
func (r *Recorder) Path() string { return r.path }

// Err returns the first write error.
func (r *Recorder) Err() error { return r.err }

// Stop ends the recording of c with an end record and closes the file.
func (r *Recorder) Stop(c *netclient.Client, reason string) error {
	if c != nil {
		c.StopRecording()
	}
	b := binary.AppendVarint(r.buf[:0], int64(r.last))
	r.write(KindEnd, append(b, proto.CleanText(reason, proto.MaxReasonLen)...))
	if err := r.w.Flush(); err != nil && r.err == nil {
		r.err = err
	}
	if err := r.f.Close(); err != nil && r.err == nil {
		r.err = err
	}
	return r.err
}

func (r *Recorder) begin(st netclient.DemoStart) {
	r.start = st.Start
	h := []byte(Magic)
	h = binary.LittleEndian.AppendUint16(h, Version)
	h = binary.LittleEndian.AppendUint16(h, proto.ProtocolVersion)
	h = binary.LittleEndian.AppendUint16(h, uint16(st.TickRate))
	h = binary.LittleEndian.AppendUint16(h, st.PlayerID)
	h = binary.LittleEndian.AppendUint64(h, uint64(st.Start.UnixNano()))
	flags := byte(0)
	if st.MidGame {
		flags |= 1
	}
	h = append(h, flags)
	for _, s := range []string{st.Map, st.Name} {
		s = proto.TruncateUTF8(s, maxStr)
		h = append(append(h, byte(len(s))), s...)
	}
	r.raw(h)
	r.Packet(st.Accept, st.AcceptAt)
	r.Config(st.Config)
}

func (r *Recorder) raw(b []byte) {
	if r.err != nil {
		return
	}
	if _, err := r.w.Write(b); err != nil {
		r.err = err
	}
	r.Bytes += int64(len(b))
}

func (r *Recorder) write(kind byte, payload []byte) {
	var h [1 + binary.MaxVarintLen64]byte
	h[0] = kind
	n := binary.PutUvarint(h[1:], uint64(len(payload)))
	r.raw(h[:1+n])
	r.raw(payload)
	r.Records++
}

func (r *Recorder) at(t time.Time) []byte {
	d := t.Sub(r.start)
	r.last = max(r.last, d)
	return binary.AppendVarint(r.buf[:0], int64(d))
}

// Packet implements netclient.DemoSink.
func (r *Recorder) Packet(raw []byte, at time.Time) {
	if len(raw) > proto.MaxServerFrame {
		return
	}
	r.buf = append(r.at(at), raw...)
	r.write(KindPacket, r.buf)
}

// Frame implements netclient.DemoSink.
func (r *Recorder) Frame(f *netclient.DemoFrame) {
	b := r.at(f.Now)
	flags := byte(0)
	if f.Resync {
		flags |= 1
	}
	b = append(b, flags)
	b = binary.AppendUvarint(b, uint64(min(f.Skip, 1<<16)))
	b = binary.AppendUvarint(b, uint64(f.Ticks))
	b = binary.AppendVarint(b, int64(f.Acc))
	b = binary.AppendUvarint(b, uint64(len(f.Cmds)))
	for _, c := range f.Cmds {
		b = appendCmd(b, c)
	}
	r.buf = b
	r.write(KindFrame, b)
}

// Config implements netclient.DemoSink.
func (r *Recorder) Config(c netclient.Config) {
	le := binary.LittleEndian
	b := le.AppendUint32(r.buf[:0], uint32(c.Rate))
	b = le.AppendUint16(b, uint16(c.UpdateRate))
	b = le.AppendUint16(b, uint16(c.CmdRate))
	b = le.AppendUint16(b, uint16(c.InterpMs))
	b = le.AppendUint64(b, math.Float64bits(c.InterpRatio))
	b = append(b, uint8(c.CmdBackup))
	b = le.AppendUint16(b, uint16(c.ExtrapMs))
	b = le.AppendUint16(b, uint16(c.SmoothMs))
	flags := byte(0)
	for i, on := range []bool{c.Predict, c.Interpolate, c.Smooth, c.NoDelta} {
		if on {
			flags |= 1 << i
		}
	}
	b = append(b, flags)
	b = le.AppendUint32(b, uint32(c.Timeout/time.Millisecond))
	r.buf = b
	r.write(KindConfig, b)
}

// State implements netclient.DemoSink.
func (r *Recorder) State(st *netclient.DemoState) {
	le := binary.LittleEndian
	b := le.AppendUint32(r.buf[:0], st.CmdNum)
	b = le.AppendUint32(b, st.AckCmd)
	b = le.AppendUint32(b, st.SentUpTo)
	b = le.AppendUint32(b, st.LastEventID)
	b = appendState(b, st.Predicted)
	b = binary.AppendUvarint(b, uint64(len(st.Pending)))
	for _, p := range st.Pending {
		b = appendState(appendCmd(b, p.Cmd), p.State)
	}
	b = binary.AppendUvarint(b, uint64(len(st.Names)))
	for _, n := range st.Names {
		b = le.AppendUint16(b, n.ID)
		b = binary.AppendUvarint(b, uint64(len(n.Name)))
		b = append(b, n.Name...)
	}
	b = binary.AppendUvarint(b, uint64(len(st.Scores))) // the table, names apart (they are above)
	for _, s := range st.Scores {
		b = le.AppendUint16(b, s.ID)
		b = le.AppendUint16(b, uint16(s.Kills))
		b = le.AppendUint16(b, uint16(s.Deaths))
		b = le.AppendUint16(b, s.PingMs)
		b = append(b, boolByte(s.Bot), s.Team, s.Color)
	}
	r.buf = b
	r.write(KindState, b)
}

func appendCmd(b []byte, c shared.UserCmd) []byte {
	le := binary.LittleEndian
	b = le.AppendUint32(b, c.CommandNumber)
	b = le.AppendUint32(b, c.TickCount)
	b = append(b, c.TickFrac, c.Msec)
	b = le.AppendUint16(b, c.LerpMsec)
	b = le.AppendUint16(b, c.Buttons)
	b = le.AppendUint32(b, math.Float32bits(c.MoveX))
	b = le.AppendUint32(b, math.Float32bits(c.MoveY))
	b = le.AppendUint32(b, math.Float32bits(c.ViewAngle))
	return append(b, c.Weapon)
}

func appendState(b []byte, s shared.PlayerState) []byte {
	le := binary.LittleEndian
	for _, f := range []float64{s.X, s.Y, s.VX, s.VY} {
		b = le.AppendUint64(b, math.Float64bits(f))
	}
	dead := byte(0)
	if s.Dead {
		dead = 1
	}
	b = append(b, dead, s.Weapon)
	b = append(b, s.Ammo[:]...)
	b = le.AppendUint16(b, s.NextAttack)
	b = le.AppendUint16(b, s.ReloadTicks)
	b = le.AppendUint16(b, s.SwitchTicks)
	return le.AppendUint16(b, s.DashTicks)
}

// boolByte is 1 for true, 0 for false.
func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}
