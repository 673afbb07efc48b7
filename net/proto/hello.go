package proto

import (
	"fmt"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"
)

// helloMap is Hello without its DecodeMsgpack: msgpack's reflection reads
// it from a map keyed by field name (docs/PROTOCOL.md §2), as it does
// every other struct.
type helloMap Hello

// DecodeMsgpack reads a Hello. A Hello of this protocol version must have
// exactly its fields; a Hello of another version may have fewer or more
// (protocols 4 and 5 sent 8, protocol 6 sent 9, protocols 7 to 11 sent 10, protocols 12 to 15 sent 11), and only the fields both versions share are read,
// so that the server can answer an old client with the version Reject
// ("protocol version N, server speaks M: update your game") rather than a
// malformed-message error. nil decodes as the zero Hello, as for every
// other struct. A map keyed by field name (the form §2 lets every struct
// take) is read as msgpack reads any struct's map: a field it lacks is
// zero and a key that names no field is skipped, so a map of another
// version also reaches the version Reject.
func (h *Hello) DecodeMsgpack(d *msgpack.Decoder) error {
	c, err := d.PeekCode()
	if err != nil {
		return err
	}
	if msgpcode.IsFixedMap(c) || c == msgpcode.Map16 || c == msgpcode.Map32 {
		*h = Hello{}
		return d.Decode((*helloMap)(h))
	}
	n, err := d.DecodeArrayLen()
	if err != nil {
		return err
	}
	*h = Hello{}
	if n < 0 {
		return nil // nil: the zero Hello
	}
	fields := []any{&h.Protocol, &h.Name, &h.Rate, &h.UpdateRate, &h.CmdRate, &h.InterpMs,
		&h.InterpRatio, &h.NoDelta, &h.Spectate, &h.Password, &h.Color}
	for i := 0; i < n; i++ {
		if i < len(fields) {
			err = d.Decode(fields[i])
		} else {
			err = d.Skip()
		}
		if err != nil {
			return err
		}
	}
	if n != len(fields) && (n == 0 || h.Protocol == ProtocolVersion) {
		return fmt.Errorf("hello has %d fields, protocol %d has %d", n, ProtocolVersion, len(fields))
	}
	return nil
}
