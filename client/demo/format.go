// Package demo records and plays back Tickshot demos (Source's record,
// stop and playdemo; Quake 3's and Teeworlds' demos work alike): a file of
// what one client received, exactly as the bytes arrived and when, and the
// usercmds it made, played back through the same client code
// (client/netclient) by a transport that delivers the recorded frames at
// their recorded times. The file format is documented in
// docs/PROTOCOL.md, "Demo files".
package demo

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"tickshot/client/netclient"
	"tickshot/net/proto"
	"tickshot/shared"
)

// Format constants.
const (
	// Magic opens every demo file.
	Magic = "TSDEMO\r\n"
	// Version is the demo format version written; only it is read.
	Version = 1
	// MaxRecord is the largest record payload accepted, bytes: a frame
	// of the largest size a server may send, and its time.
	MaxRecord = proto.MaxServerFrame + 16
	// MaxFile is the largest demo file read (about 3 hours at 64 Hz).
	MaxFile = 256 << 20
	// MaxRecords is the most records a demo may hold.
	MaxRecords = 4 << 20
	// maxStr bounds the header's strings, bytes.
	maxStr = 64
	// cmdSize is the bytes of one usercmd in a frame record.
	cmdSize = 27
	// stateSize is the bytes of one PlayerState.
	stateSize = 4*8 + 1 + 1 + shared.NumWeapons + 3*2
)

// Record kinds.
const (
	KindPacket = 1 // a frame received from the server
	KindFrame  = 2 // a client Frame and the usercmds it made
	KindConfig = 3 // the client's Config changed
	KindState  = 4 // mid-game start: what the client held (netclient.DemoState)
	KindEnd    = 5 // the recording stopped
)

// Header is a demo's header.
type Header struct {
	Version  uint16
	Protocol uint16 // proto.ProtocolVersion of the recording client
	TickRate int    // sv_tickrate, ticks/s
	PlayerID uint16 // the recording player's entity id
	Start    time.Time
	MidGame  bool // started after the connection (a state record follows the Accept)
	Map      string
	Name     string // the player's name
}

// Record is one record of a demo, decoded from the file when it is
// played (Demo.record).
type Record struct {
	Kind   byte
	Offset int64         // of the record in the file
	At     time.Duration // since Header.Start
	Data   []byte        // KindPacket: the frame (a slice of the file's bytes)
	Tick   uint32        // KindPacket holding a snapshot, when read by Read: its tick
	Frame  *netclient.DemoFrame
	Config *netclient.Config
	State  *netclient.DemoState
	Reason string // KindEnd
}

// Error is a demo that cannot be read: the file, the byte offset where
// the trouble is, and what it is.
type Error struct {
	File   string
	Offset int64
	Msg    string
}

func (e *Error) Error() string {
	return fmt.Sprintf("demo %s: at byte %d: %s", e.File, e.Offset, e.Msg)
}

// Demo is a demo file read into memory and checked. It holds the file's
// bytes, read once, and the offset of each whole record in them (4 bytes
// a record); records are decoded again as they are played. A record takes
// at least 3 bytes of the file, so a demo holds at most about 2.4× its
// file's size however its records are cut (TestHostileDemoPeakRSS).
type Demo struct {
	File   string
	Header Header
	// Duration is the time of the last record; FirstTick and LastTick
	// the ticks of the first and last snapshots.
	Duration            time.Duration
	FirstTick, LastTick uint32
	Complete            bool // ends with an end record (stop, not a crash)
	// Cut is the bytes after the last whole record of a demo cut in the
	// middle of one (a crashed recording): they are not played. 0 when
	// the file ends at a record's end.
	Cut int64

	data    []byte   // the file
	offsets []uint32 // of each whole record in data (MaxFile fits 32 bits)
	played  bool     // a frame or packet after the accept was read
}

// Len returns the number of whole records.
func (d *Demo) Len() int { return len(d.offsets) }

// record decodes record i (0 ≤ i < Len), checked when the demo was read;
// the frame of a packet is not decoded again (the client decodes it).
func (d *Demo) record(i int) (Record, error) {
	rd := &reader{b: d.data, off: int64(d.offsets[i]), name: d.File}
	return rd.record(&d.Header, false)
}

// at returns the time of record i without decoding it: the leading
// varint of a packet, frame or end; 0 for a config or state (applied
// when reached).
func (d *Demo) at(i int) time.Duration {
	off := int(d.offsets[i])
	switch d.data[off] {
	case KindPacket, KindFrame, KindEnd:
	default:
		return 0
	}
	_, n := binary.Uvarint(d.data[off+1:])
	v, _ := binary.Varint(d.data[off+1+n:])
	return time.Duration(v)
}

// Load reads and checks the demo file at path.
func Load(path string) (*Demo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("demo %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("demo %s: %w", path, err)
	}
	return Read(path, f, fi.Size())
}

// Read reads and checks a demo of size bytes from r; name names it in
// errors. The file is read once into one buffer of its size (at most
// MaxFile); every length is checked against the bytes left, and every
// frame is decoded and checked as the client would (proto.Decode), so a
// damaged file gives an Error, never a panic or a huge allocation. A file
// cut in the middle of a record (a crashed recording, PROTOCOL.md §13)
// reads up to its last whole record, Cut saying how much was left off.
func Read(name string, r io.Reader, size int64) (*Demo, error) {
	if size > MaxFile {
		return nil, &Error{name, 0, fmt.Sprintf("file of %d bytes, more than the %d a demo may have", size, MaxFile)}
	}
	data := make([]byte, size)
	n, err := io.ReadFull(r, data)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, fmt.Errorf("demo %s: %w", name, err)
	}
	rd := &reader{b: data[:n], name: name}
	d := &Demo{File: name, data: rd.b}
	if err := rd.header(&d.Header); err != nil {
		return nil, err
	}
	count, cutAt, cut, err := rd.count()
	if err != nil {
		return nil, err
	}
	d.offsets = make([]uint32, 0, count)
	for len(d.offsets) < count {
		rec, err := rd.record(&d.Header, true)
		if err != nil {
			return nil, err
		}
		if err := d.check(rd, &rec); err != nil {
			return nil, err
		}
		d.offsets = append(d.offsets, uint32(rec.Offset))
		if rec.Kind == KindEnd {
			d.Complete = true
			break
		}
	}
	if cut != nil {
		if len(d.offsets) == 0 {
			return nil, cut
		}
		d.Cut = int64(len(rd.b)) - cutAt
	}
	if len(d.offsets) == 0 {
		return nil, rd.fail(rd.off, "no records: the file ends after the header")
	}
	return d, nil
}

// count walks the records' kinds and lengths from rd's offset without
// moving it. It returns the number of records to read: the whole ones (at
// most MaxRecords), and one more when a record that is not right follows
// (record says what is wrong with it). For a file cut in the middle of a
// record it also returns where that record starts and an Error saying so
// (nil when the file ends at a record's end). A varint length that
// overflows and more than MaxRecords records are errors.
func (rd *reader) count() (n int, cutAt int64, cut *Error, err error) {
	w := *rd
	for w.left() > 0 {
		off := w.off
		kind, _ := w.read(1, "a record's kind")
		l, err := w.uvarint()
		var e *Error
		switch {
		case kind[0] < KindPacket || kind[0] > KindEnd:
		case err != nil && errors.As(err, &e) && strings.HasPrefix(e.Msg, "truncated"):
			return n, off, e, nil
		case err != nil:
			return 0, 0, nil, err
		case l > MaxRecord:
		case int64(l) > w.left():
			return n, off, w.fail(off+1, fmt.Sprintf("truncated: record length %d beyond the end of the file (%d bytes left)", l, w.left())), nil
		case n >= MaxRecords:
			return 0, 0, nil, w.fail(off, fmt.Sprintf("more than %d records", MaxRecords))
		default:
			n++
			w.off += int64(l)
			if kind[0] == KindEnd {
				return n, 0, nil, nil
			}
			continue
		}
		return n + 1, 0, nil, nil // not right: record reports it
	}
	return n, 0, nil, nil
}

// check applies the rules between records: the first is the Accept, a
// mid-game demo's state comes before its first frame of commands.
func (d *Demo) check(rd *reader, rec *Record) error {
	if len(d.offsets) == 0 {
		if rec.Kind != KindPacket {
			return rd.fail(rec.Offset, fmt.Sprintf("first record is of kind %d, not the accept", rec.Kind))
		}
		m, _ := proto.Decode(rec.Data) // decoded by record already
		a, ok := m.(*proto.Accept)
		if !ok {
			return rd.fail(rec.Offset, fmt.Sprintf("first frame is %s, not accept", m.Type()))
		}
		if int(a.TickRate) != d.Header.TickRate || a.PlayerID != d.Header.PlayerID || a.Map != d.Header.Map {
			return rd.fail(rec.Offset, "the accept does not match the header (tick rate, player, map)")
		}
		return nil
	}
	if rec.Kind == KindState && (!d.Header.MidGame || d.played) {
		return rd.fail(rec.Offset, "a state record belongs after the accept of a mid-game demo, before its frames")
	}
	if rec.Kind == KindPacket || rec.Kind == KindFrame {
		d.played = true
	}
	if rec.At > d.Duration {
		d.Duration = rec.At
	}
	if rec.Tick != 0 {
		if d.FirstTick == 0 {
			d.FirstTick = rec.Tick
		}
		d.LastTick = max(d.LastTick, rec.Tick)
	}
	return nil
}

// reader reads a demo's bytes.
type reader struct {
	b    []byte // the file
	off  int64  // bytes read
	name string
}

func (rd *reader) fail(off int64, msg string) *Error { return &Error{rd.name, off, msg} }

// left returns the bytes left in the file.
func (rd *reader) left() int64 { return int64(len(rd.b)) - rd.off }

// read returns the next n bytes (a slice of the file), n checked against
// the bytes left.
func (rd *reader) read(n int, what string) ([]byte, error) {
	if int64(n) > rd.left() {
		return nil, rd.fail(rd.off, fmt.Sprintf("truncated: %s needs %d bytes, %d left", what, n, rd.left()))
	}
	b := rd.b[rd.off : rd.off+int64(n) : rd.off+int64(n)]
	rd.off += int64(n)
	return b, nil
}

func (rd *reader) header(h *Header) error {
	b, err := rd.read(len(Magic), "the magic")
	if err != nil {
		return err
	}
	if string(b) != Magic {
		return rd.fail(0, fmt.Sprintf("not a Tickshot demo (magic %q, want %q)", b, Magic))
	}
	b, err = rd.read(2+2+2+2+8+1, "the header")
	if err != nil {
		return err
	}
	h.Version = binary.LittleEndian.Uint16(b)
	h.Protocol = binary.LittleEndian.Uint16(b[2:])
	h.TickRate = int(binary.LittleEndian.Uint16(b[4:]))
	h.PlayerID = binary.LittleEndian.Uint16(b[6:])
	h.Start = time.Unix(0, int64(binary.LittleEndian.Uint64(b[8:])))
	flags := b[16]
	h.MidGame = flags&1 != 0
	if h.Version != Version {
		return rd.fail(8, fmt.Sprintf("demo format version %d, this game reads version %d", h.Version, Version))
	}
	if h.Protocol != proto.ProtocolVersion {
		return rd.fail(10, fmt.Sprintf("recorded with protocol version %d, this game speaks %d", h.Protocol, proto.ProtocolVersion))
	}
	if h.TickRate < shared.MinTickRate || h.TickRate > shared.MaxTickRate {
		return rd.fail(12, fmt.Sprintf("tick rate %d outside %d..%d", h.TickRate, shared.MinTickRate, shared.MaxTickRate))
	}
	if flags&^1 != 0 {
		return rd.fail(24, fmt.Sprintf("unknown header flags 0x%02x", flags))
	}
	if h.Map, err = rd.str("the map name"); err != nil {
		return err
	}
	h.Name, err = rd.str("the player name")
	return err
}

func (rd *reader) str(what string) (string, error) {
	off := rd.off
	b, err := rd.read(1, what)
	if err != nil {
		return "", err
	}
	if b[0] > maxStr {
		return "", rd.fail(off, fmt.Sprintf("%s of %d bytes, at most %d", what, b[0], maxStr))
	}
	s, err := rd.read(int(b[0]), what)
	if err != nil {
		return "", err
	}
	if proto.CleanText(string(s), maxStr) != string(s) {
		return "", rd.fail(off, what+" holds control characters or invalid UTF-8")
	}
	return string(s), nil
}

// record reads the next record; io.EOF at a clean end of the file.
// verify decodes a packet's frame to check it (Read); playback leaves
// that to the client.
func (rd *reader) record(h *Header, verify bool) (Record, error) {
	rec := Record{Offset: rd.off}
	if rd.left() == 0 {
		return rec, io.EOF
	}
	b, err := rd.read(1, "a record's kind")
	if err != nil {
		return rec, err
	}
	rec.Kind = b[0]
	if rec.Kind < KindPacket || rec.Kind > KindEnd {
		return rec, rd.fail(rec.Offset, fmt.Sprintf("unknown record kind %d", rec.Kind))
	}
	n, err := rd.uvarint()
	if err != nil {
		return rec, err
	}
	if n > MaxRecord {
		return rec, rd.fail(rec.Offset+1, fmt.Sprintf("record length %d beyond the limit of %d bytes", n, MaxRecord))
	}
	if int64(n) > rd.left() {
		return rec, rd.fail(rec.Offset+1, fmt.Sprintf("truncated: record length %d beyond the end of the file (%d bytes left)", n, rd.left()))
	}
	payload, err := rd.read(int(n), "a record")
	if err != nil {
		return rec, err
	}
	if err := decodeRecord(&rec, payload, h, verify); err != nil {
		return rec, rd.fail(rec.Offset, fmt.Sprintf("record of kind %d: %v", rec.Kind, err))
	}
	return rec, nil
}

func (rd *reader) uvarint() (uint64, error) {
	off := rd.off
	var x uint64
	for i := 0; ; i++ {
		b, err := rd.read(1, "a record's length")
		if err != nil {
			return 0, err
		}
		if i == 9 || (i == 8 && b[0] > 1) {
			return 0, rd.fail(off, "record length: varint overflows 64 bits")
		}
		x |= uint64(b[0]&0x7f) << (7 * i)
		if b[0] < 0x80 {
			return x, nil
		}
	}
}

// dec reads fields from one record's payload.
type dec struct {
	b   []byte
	err error
}

func (d *dec) fail(msg string) {
	if d.err == nil {
		d.err = errors.New(msg)
	}
}

func (d *dec) take(n int, what string) []byte {
	if d.err != nil {
		return nil
	}
	if n > len(d.b) {
		d.fail("truncated " + what)
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *dec) u8(what string) uint8 {
	if b := d.take(1, what); b != nil {
		return b[0]
	}
	return 0
}

func (d *dec) u16(what string) uint16 {
	if b := d.take(2, what); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (d *dec) u32(what string) uint32 {
	if b := d.take(4, what); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *dec) f32(what string) float32 { return math.Float32frombits(d.u32(what)) }

func (d *dec) f64(what string) float64 {
	if b := d.take(8, what); b != nil {
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	}
	return 0
}

// varintOf reads one varint with read (binary.Uvarint or binary.Varint);
// 0 after a failure.
func varintOf[T uint64 | int64](d *dec, what string, read func([]byte) (T, int)) T {
	if d.err != nil {
		return 0
	}
	v, n := read(d.b)
	if n <= 0 {
		d.fail("bad varint: " + what)
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) uvarint(what string, limit uint64) uint64 {
	v := varintOf(d, what, binary.Uvarint)
	if v > limit {
		d.fail(fmt.Sprintf("%s %d beyond %d", what, v, limit))
		return 0
	}
	return v
}

func (d *dec) varint(what string) int64 { return varintOf(d, what, binary.Varint) }

// at reads a record's time: ns since the header's start, within ±100 h.
func (d *dec) at() time.Duration {
	v := d.varint("time")
	if v < -int64(100*time.Hour) || v > int64(100*time.Hour) {
		d.fail(fmt.Sprintf("time %d ns out of range", v))
	}
	return time.Duration(v)
}

func (d *dec) cmd() shared.UserCmd {
	var c shared.UserCmd
	c.CommandNumber = d.u32("usercmd")
	c.TickCount = d.u32("usercmd")
	c.TickFrac = d.u8("usercmd")
	c.Msec = d.u8("usercmd")
	c.LerpMsec = d.u16("usercmd")
	c.Buttons = d.u16("usercmd")
	c.MoveX, c.MoveY, c.ViewAngle = d.f32("usercmd"), d.f32("usercmd"), d.f32("usercmd")
	c.Weapon = d.u8("usercmd")
	return c
}

func (d *dec) state() shared.PlayerState {
	var s shared.PlayerState
	s.X, s.Y, s.VX, s.VY = d.f64("state"), d.f64("state"), d.f64("state"), d.f64("state")
	s.Dead = d.u8("state") != 0
	s.Weapon = d.u8("state")
	for i := range s.Ammo {
		s.Ammo[i] = d.u8("state")
	}
	s.NextAttack, s.ReloadTicks, s.SwitchTicks = d.u16("state"), d.u16("state"), d.u16("state")
	s.DashTicks = d.u16("state")
	return s
}

func finite(fs ...float64) bool {
	for _, f := range fs {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	return true
}

// decodeRecord decodes payload into rec (its Kind set); verify decodes
// a packet's frame to check it and take its tick.
func decodeRecord(rec *Record, payload []byte, h *Header, verify bool) error {
	d := &dec{b: payload}
	switch rec.Kind {
	case KindPacket:
		rec.At = d.at()
		rec.Data = d.b
		d.b = nil
		if d.err != nil {
			return d.err
		}
		if len(rec.Data) == 0 {
			return errors.New("empty frame")
		}
		if !verify {
			break
		}
		m, err := proto.Decode(rec.Data)
		if err != nil {
			return fmt.Errorf("undecodable frame: %w", err)
		}
		switch m := m.(type) {
		case *proto.Snapshot:
			rec.Tick = m.Tick
		case *proto.Accept, *proto.Print, *proto.Reject, *proto.Disconnect:
		default:
			return fmt.Errorf("a %s frame, which servers never send", m.Type())
		}
	case KindFrame:
		f := &netclient.DemoFrame{}
		rec.At = d.at()
		flags := d.u8("flags")
		f.Resync = flags&1 != 0
		f.Skip = int(d.uvarint("skipped ticks", 1<<16))
		f.Ticks = int(d.uvarint("ticks", proto.MaxCmdsPerMsg))
		acc := d.varint("leftover time")
		n := int(d.uvarint("command count", uint64(f.Ticks)))
		if d.err == nil && flags&^1 != 0 {
			d.fail(fmt.Sprintf("unknown frame flags 0x%02x", flags))
		}
		if d.err == nil && (acc < 0 || acc > int64(time.Second)) {
			d.fail(fmt.Sprintf("leftover time %d ns outside 0..1 s", acc))
		}
		f.Acc = time.Duration(acc)
		if d.err == nil && len(d.b) != n*cmdSize {
			d.fail(fmt.Sprintf("%d commands need %d bytes, the record has %d", n, n*cmdSize, len(d.b)))
		}
		for i := 0; i < n && d.err == nil; i++ {
			c := d.cmd()
			if err := proto.ValidateUserCmd(&c, h.TickRate); err != nil && d.err == nil {
				d.fail(err.Error())
			}
			if i > 0 && c.CommandNumber != f.Cmds[i-1].CommandNumber+1 {
				d.fail("command numbers not consecutive")
			}
			f.Cmds = append(f.Cmds, c)
		}
		rec.Frame = f
	case KindConfig:
		c := &netclient.Config{}
		c.Rate = int(d.u32("rate"))
		c.UpdateRate = int(d.u16("cl_updaterate"))
		c.CmdRate = int(d.u16("cl_cmdrate"))
		c.InterpMs = int(d.u16("cl_interp"))
		c.InterpRatio = d.f64("cl_interp_ratio")
		c.CmdBackup = int(d.u8("cl_cmdbackup"))
		c.ExtrapMs = int(d.u16("cl_extrapolate_amount"))
		c.SmoothMs = int(d.u16("cl_smoothtime"))
		flags := d.u8("switches")
		c.Predict, c.Interpolate, c.Smooth, c.NoDelta = flags&1 != 0, flags&2 != 0, flags&4 != 0, flags&8 != 0
		c.Timeout = time.Duration(d.u32("cl_timeout")) * time.Millisecond
		if d.err == nil && (!finite(c.InterpRatio) || c.InterpRatio < 0 || c.InterpRatio > 5 || c.InterpMs > proto.MaxInterpMs ||
			c.UpdateRate > shared.MaxTickRate || c.CmdRate > shared.MaxTickRate || c.CmdBackup > 10 || c.ExtrapMs > 10000 || c.SmoothMs > 10000 || flags > 15) {
			d.fail("a setting out of range")
		}
		rec.Config = c
	case KindState:
		st := &netclient.DemoState{}
		st.CmdNum, st.AckCmd, st.SentUpTo, st.LastEventID = d.u32("state"), d.u32("state"), d.u32("state"), d.u32("state")
		st.Predicted = d.state()
		np := int(d.uvarint("pending commands", 256))
		for i := 0; i < np && d.err == nil; i++ {
			c := d.cmd()
			st.Pending = append(st.Pending, netclient.DemoCmd{Cmd: c, State: d.state()})
		}
		nn := int(d.uvarint("names", 2*1024)) // players and spectators of a full server
		for i := 0; i < nn && d.err == nil; i++ {
			id := d.u16("name")
			l := int(d.uvarint("name length", proto.MaxNameLen*4))
			s := string(d.take(l, "name"))
			st.Names = append(st.Names, netclient.DemoName{ID: id, Name: proto.CleanText(s, proto.MaxNameLen*4)})
		}
		ns := int(d.uvarint("scoreboard rows", 2*1024))
		for i := 0; i < ns && d.err == nil; i++ {
			r := proto.ScoreEntry{ID: d.u16("score"), Kills: int16(d.u16("score")), Deaths: int16(d.u16("score")), PingMs: d.u16("score")}
			r.Bot, r.Team, r.Color = d.u8("score") != 0, d.u8("score"), d.u8("score")
			if d.err == nil && (r.Team > proto.MaxTeam || r.Color > proto.MaxColor) {
				d.fail("a scoreboard row out of range")
			}
			st.Scores = append(st.Scores, r)
		}
		if d.err == nil && !finite(st.Predicted.X, st.Predicted.Y, st.Predicted.VX, st.Predicted.VY) {
			d.fail("predicted state not finite")
		}
		for _, p := range st.Pending {
			if d.err == nil && !finite(p.State.X, p.State.Y, p.State.VX, p.State.VY) {
				d.fail("pending state not finite")
			}
		}
		rec.State = st
	case KindEnd:
		rec.At = d.at()
		rec.Reason = proto.CleanText(string(d.b), proto.MaxReasonLen)
		d.b = nil
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail(fmt.Sprintf("%d bytes after the fields", len(d.b)))
	}
	return d.err
}
