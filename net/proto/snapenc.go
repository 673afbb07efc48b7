package proto

import "github.com/vmihailenco/msgpack/v5"

// EncodeMsgpack writes a Snapshot exactly as msgpack's reflection would
// (an array of its fields in order, integers in their compact form, nil
// slices as nil), without reflection and without allocating: the server
// encodes one per client per update (TestSnapshotEncoderMatchesReflection
// holds the two to the same bytes). Decoding still uses reflection.
func (s *Snapshot) EncodeMsgpack(e *msgpack.Encoder) error {
	e.EncodeArrayLen(15)
	e.EncodeUint(uint64(s.Tick))
	e.EncodeUint(uint64(s.Seq))
	e.EncodeUint(uint64(s.Baseline))
	e.EncodeUint(uint64(s.AckCmd))
	encodeSelf(e, &s.Self)
	e.EncodeBytes(s.EntityDelta)
	if s.Projectiles == nil {
		e.EncodeNil()
	} else {
		e.EncodeArrayLen(len(s.Projectiles))
		for i := range s.Projectiles {
			p := &s.Projectiles[i]
			e.EncodeArrayLen(7)
			e.EncodeUint(uint64(p.ID))
			e.EncodeUint(uint64(p.Owner))
			e.EncodeUint(uint64(p.Weapon))
			e.EncodeInt(int64(p.X))
			e.EncodeInt(int64(p.Y))
			e.EncodeInt(int64(p.VX))
			e.EncodeInt(int64(p.VY))
		}
	}
	e.EncodeBytes(s.EventData)
	if s.Scores == nil {
		e.EncodeNil()
	} else {
		e.EncodeArrayLen(len(s.Scores))
		for i := range s.Scores {
			r := &s.Scores[i]
			e.EncodeArrayLen(7)
			e.EncodeUint(uint64(r.ID))
			e.EncodeString(r.Name)
			e.EncodeInt(int64(r.Kills))
			e.EncodeInt(int64(r.Deaths))
			e.EncodeUint(uint64(r.PingMs))
			e.EncodeBool(r.Bot)
			e.EncodeUint(uint64(r.Team))
		}
	}
	e.EncodeUint(uint64(s.TickTimeUs))
	e.EncodeUint(uint64(s.PingMs))
	e.EncodeUint(uint64(s.TickStdUs))
	e.EncodeUint(uint64(s.PingVarMs))
	e.EncodeUint(uint64(s.CmdLoss))
	return e.EncodeUint(uint64(s.Choke))
}

func encodeSelf(e *msgpack.Encoder, s *SelfState) {
	e.EncodeArrayLen(14)
	e.EncodeInt(int64(s.X))
	e.EncodeInt(int64(s.Y))
	e.EncodeInt(int64(s.VX))
	e.EncodeInt(int64(s.VY))
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
}
