package proto

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"tickshot/game"
)

// Pickups travel like the other players: a frame of PickupState records,
// sorted by ID, those in the client's view (interest management), written
// as a delta against the frame of the acknowledged baseline snapshot
// (Snapshot.PickupDelta, docs/PROTOCOL.md §5.15). The records share the
// entity delta's layout (delta.go: uvarint ID, mask byte, fields in bit
// order; bit 7 removed, no field follows):
//
//	mask: bit 0 Kind, 1 X, 2 Y, 3 RespawnTick, 4 Taker; bits 5, 6 must be 0
//	  Kind          one byte: the new value, 1..game.MaxPickupKind
//	  X, Y          zigzag varint: new value - baseline value (int32 fixed point)
//	  RespawnTick   uvarint: the new value (uint32)
//	  Taker         uvarint: the new value (uint16)
//
// A pickup new to the frame is written against an all-zero record of its
// ID, so its Kind is always present.

// Pickup delta mask bits.
const (
	PickupDeltaKind    = 1 << 0
	PickupDeltaX       = 1 << 1
	PickupDeltaY       = 1 << 2
	PickupDeltaRespawn = 1 << 3
	PickupDeltaTaker   = 1 << 4
	pickupDeltaFields  = PickupDeltaKind | PickupDeltaX | PickupDeltaY | PickupDeltaRespawn | PickupDeltaTaker
)

// PickupState is one of the map's pickups as a snapshot carries it.
type PickupState struct {
	// ID is 1 + the pickup's index in the map's layer "pickups": 1..game.MaxPickups.
	ID   uint16
	Kind uint8 // game.PickupKind: 1 health, 2 armour, 3 rockets, 4 double damage
	X, Y int32 // its centre, fixed-point 1/shared.PosScale world units
	// RespawnTick is the server tick it comes back; 0 while it is there.
	RespawnTick uint32
	// Taker is the player who took it last (0: nobody yet).
	Taker uint16
}

// pickupLimits bound a pickup frame.
var pickupLimits = deltaLimits{what: "pickup", fields: pickupDeltaFields, maxItems: game.MaxPickups, maxID: game.MaxPickups}

func (c PickupState) key() uint16 { return c.ID }

func (c PickupState) newer(PickupState) bool { return false }

func (c PickupState) stamped(uint32) PickupState { return c }

func (c PickupState) withKey(id uint16) PickupState { return PickupState{ID: id} }

func (c PickupState) diff(b PickupState) byte {
	return bitIf(c.Kind != b.Kind, PickupDeltaKind) | bitIf(c.X != b.X, PickupDeltaX) | bitIf(c.Y != b.Y, PickupDeltaY) |
		bitIf(c.RespawnTick != b.RespawnTick, PickupDeltaRespawn) | bitIf(c.Taker != b.Taker, PickupDeltaTaker)
}

func (c PickupState) appendFields(dst []byte, mask byte, b PickupState) []byte {
	if mask&PickupDeltaKind != 0 {
		dst = append(dst, c.Kind)
	}
	if mask&PickupDeltaX != 0 {
		dst = binary.AppendVarint(dst, int64(c.X)-int64(b.X))
	}
	if mask&PickupDeltaY != 0 {
		dst = binary.AppendVarint(dst, int64(c.Y)-int64(b.Y))
	}
	if mask&PickupDeltaRespawn != 0 {
		dst = binary.AppendUvarint(dst, uint64(c.RespawnTick))
	}
	if mask&PickupDeltaTaker != 0 {
		dst = binary.AppendUvarint(dst, uint64(c.Taker))
	}
	return dst
}

func (c PickupState) readFields(mask byte, d []byte, p int) (PickupState, int, error) {
	var err error
	if mask&PickupDeltaKind != 0 {
		if p >= len(d) {
			return c, p, errTruncated
		}
		c.Kind, p = d[p], p+1
	}
	if c.X, c.Y, p, err = readXY(mask, PickupDeltaX, PickupDeltaY, d, p, c.X, c.Y); err != nil {
		return c, p, err
	}
	var v uint64
	if mask&PickupDeltaRespawn != 0 {
		if v, p, err = readUvarint(d, p, math.MaxUint32); err != nil {
			return c, p, fmt.Errorf("respawn tick: %w", err)
		}
		c.RespawnTick = uint32(v)
	}
	if mask&PickupDeltaTaker != 0 {
		if v, p, err = readUvarint(d, p, math.MaxUint16); err != nil {
			return c, p, fmt.Errorf("taker: %w", err)
		}
		c.Taker = uint16(v)
	}
	if c.Kind == 0 || c.Kind > uint8(game.MaxPickupKind) {
		return c, p, fmt.Errorf("kind %d outside 1..%d", c.Kind, game.MaxPickupKind)
	}
	return c, p, nil
}

// readUvarint reads a uvarint at d[p:] of at most limit.
func readUvarint(d []byte, p int, limit uint64) (uint64, int, error) {
	v, n := binary.Uvarint(d[p:])
	if n <= 0 {
		return 0, p, errors.New("truncated or overlong varint")
	}
	if v > limit {
		return 0, p, fmt.Errorf("%d over %d", v, limit)
	}
	return v, p + n, nil
}

// AppendPickupDelta appends to dst the delta that turns the pickup frame
// base into cur (both sorted by ID, strictly increasing) and returns the
// extended slice; it allocates nothing when dst has room.
func AppendPickupDelta(dst []byte, base, cur []PickupState) []byte {
	return appendDelta(dst, base, cur, nil)
}

// ApplyPickupDelta rebuilds a pickup frame from its baseline and a delta
// made by AppendPickupDelta, appending to dst[:0]. It checks what a
// hostile server could send, as ApplyEntityDelta does, and more: IDs
// above game.MaxPickups, kinds outside 1..game.MaxPickupKind, more than
// game.MaxPickups pickups; the error wraps ErrDelta.
func ApplyPickupDelta(dst, base []PickupState, delta []byte) ([]PickupState, error) {
	return applyDelta(dst, base, delta, pickupLimits, 0)
}
