package proto

import "testing"

// BenchmarkCodec encodes and decodes one of every message type through the
// message table: `go test ./net/proto -run '^$' -bench Codec -benchmem`.
// Encoding with an Encoder allocates nothing (TestEncoderMatchesEncode);
// decoding allocates the message and its slices.
func BenchmarkCodec(b *testing.B) {
	samples := sampleMessages()
	frames := make([][]byte, len(samples))
	for i, m := range samples {
		frames[i] = MustEncode(m)
	}
	b.Run("encode", func(b *testing.B) {
		var e Encoder
		var buf []byte
		b.ReportAllocs()
		for b.Loop() {
			for _, m := range samples {
				buf = e.Append(buf[:0], m)
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, f := range frames {
				if _, err := Decode(f); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
