package proto

import "github.com/vmihailenco/msgpack/v5"

// EncodeMsgpack writes a Snapshot exactly as msgpack's reflection would
// (an array of its fields in order, integers in their compact form, nil
// slices as nil), without reflection and without allocating: the server
// encodes one per client per update (TestSnapshotEncoderMatchesReflection
// holds the two to the same bytes). Decoding still uses reflection.
func (s *Snapshot) EncodeMsgpack(e *msgpack.Encoder) error {
	e.EncodeArrayLen(19)
	e.EncodeUint(uint64(s.Tick))
	e.EncodeUint(uint64(s.Seq))
	e.EncodeUint(uint64(s.Baseline))
	e.EncodeUint(uint64(s.AckCmd))
	encodeSelf(e, &s.Self)
	e.EncodeBytes(s.EntityDelta)
	encodeArray(e, s.Projectiles, encodeProjectile)
	e.EncodeBytes(s.EventData)
	encodeArray(e, s.Scores, encodeScore)
	e.EncodeUint(uint64(s.TickTimeUs))
	e.EncodeUint(uint64(s.PingMs))
	e.EncodeUint(uint64(s.TickStdUs))
	e.EncodeUint(uint64(s.PingVarMs))
	e.EncodeUint(uint64(s.CmdLoss))
	e.EncodeUint(uint64(s.Choke))
	e.EncodeUint(uint64(s.CmdQueue))
	e.EncodeUint(uint64(s.CmdTarget))
	if m := s.Match; m != nil {
		e.EncodeArrayLen(4)
		e.EncodeUint(uint64(m.Start))
		e.EncodeUint(uint64(m.End))
		e.EncodeUint(uint64(m.FragLimit))
		e.EncodeUint(uint64(m.TimeLimit))
	} else {
		e.EncodeNil()
	}
	return e.EncodeBytes(s.PickupDelta)
}

func encodeSelf(e *msgpack.Encoder, s *SelfState) {
	e.EncodeArrayLen(17)
	encodeInts(e, s.X, s.Y, s.VX, s.VY)
	e.EncodeBool(s.Dead)
	e.EncodeUint(uint64(s.Weapon))
	e.EncodeBytes(s.Ammo)
	e.EncodeUint(uint64(s.NextAttack))
	e.EncodeUint(uint64(s.ReloadTicks))
	e.EncodeUint(uint64(s.SwitchTicks))
	e.EncodeUint(uint64(s.Health))
	e.EncodeUint(uint64(s.Teleport))
	e.EncodeBool(s.Protected)
	e.EncodeBool(s.Spectator)
	e.EncodeUint(uint64(s.Armour))
	e.EncodeUint(uint64(s.PowerTicks))
	e.EncodeUint(uint64(s.DashTicks))
}

// encodeArray writes s as a msgpack array of its elements, each written by
// one, or nil for a nil slice, as reflection does.
func encodeArray[T any](e *msgpack.Encoder, s []T, one func(*msgpack.Encoder, *T)) {
	if s == nil {
		e.EncodeNil()
		return
	}
	e.EncodeArrayLen(len(s))
	for i := range s {
		one(e, &s[i])
	}
}

func encodeProjectile(e *msgpack.Encoder, p *ProjectileState) {
	e.EncodeArrayLen(7)
	e.EncodeUint(uint64(p.ID))
	e.EncodeUint(uint64(p.Owner))
	e.EncodeUint(uint64(p.Weapon))
	encodeInts(e, p.X, p.Y, p.VX, p.VY)
}

// encodeInts writes fixed-point coordinates (position, velocity) one after
// the other.
func encodeInts(e *msgpack.Encoder, v ...int32) {
	for _, x := range v {
		e.EncodeInt(int64(x))
	}
}

func encodeScore(e *msgpack.Encoder, r *ScoreEntry) {
	e.EncodeArrayLen(8)
	e.EncodeUint(uint64(r.ID))
	e.EncodeString(r.Name)
	e.EncodeInt(int64(r.Kills))
	e.EncodeInt(int64(r.Deaths))
	e.EncodeUint(uint64(r.PingMs))
	e.EncodeBool(r.Bot)
	e.EncodeUint(uint64(r.Team))
	e.EncodeUint(uint64(r.Color))
}
