package proto

import (
	"fmt"

	"github.com/vmihailenco/msgpack/v5"
)

// DecodeMsgpack reads a Hello. A Hello of this protocol version must have
// exactly its fields; a Hello of another version may have fewer or more
// (protocols 4 and 5 sent 8, protocol 6 sent 9), and only the fields both versions share are read,
// so that the server can answer an old client with the version Reject
// ("protocol version N, server speaks M: update your game") rather than a
// malformed-message error. nil decodes as the zero Hello, as for every
// other struct.
func (h *Hello) DecodeMsgpack(d *msgpack.Decoder) error {
	n, err := d.DecodeArrayLen()
	if err != nil {
		return err
	}
	*h = Hello{}
	if n < 0 {
		return nil // nil: the zero Hello
	}
	fields := []any{&h.Protocol, &h.Name, &h.Rate, &h.UpdateRate, &h.CmdRate, &h.InterpMs,
		&h.InterpRatio, &h.NoDelta, &h.Spectate, &h.Password}
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
