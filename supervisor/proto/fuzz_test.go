package proto

import (
	"bytes"
	"reflect"
	"runtime"
	"testing"
)

// FuzzDecode feeds arbitrary bytes to the frame reader and the body
// decoders. It checks that nothing panics, that decoding allocates at most
// WireMaxFrame bytes, that every frame read re-encodes to the bytes it came
// from, and that every decoded body re-encodes to a fixpoint (binary bodies
// also to an equal value).
func FuzzDecode(f *testing.F) {
	var all []byte
	for _, c := range goldenCases() {
		b := goldenFrame(f, c)
		f.Add(b)
		all = append(all, b...)
		f.Add(b[:len(b)-1])
	}
	f.Add(all)
	f.Add([]byte{})
	f.Add([]byte("CLWD\x01\x00\x00\x61\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x10" + "\x01p\x00\x00\x00\x00\x00\x00\x00\x00\x10\x10\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		frames, msgs := decodeAll(data)
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > WireMaxFrame {
			t.Fatalf("decoding %d bytes allocated %d bytes", len(data), n)
		}
		off := 0
		for i, fr := range frames {
			b, err := AppendFrame(nil, fr, WireMaxFrame)
			if err != nil || !bytes.Equal(b, data[off:off+len(b)]) {
				t.Fatalf("frame %d re-encodes to % x (%v), read from % x", i, b, err, data[off:min(off+len(b), len(data))])
			}
			off += len(b)
			if msgs[i] != nil {
				checkReencode(t, fr.Type, msgs[i])
			}
		}
	})
}

// decodeAll reads frames until the first error and decodes their bodies
// (nil where the body does not decode).
func decodeAll(data []byte) ([]Frame, []Message) {
	r := NewFrameReader(bytes.NewReader(data))
	var frames []Frame
	var msgs []Message
	for {
		fr, err := r.ReadFrame()
		if err != nil {
			return frames, msgs
		}
		m, err := fr.Message()
		if err != nil {
			m = nil
		}
		frames, msgs = append(frames, fr), append(msgs, m)
	}
}

// checkReencode: encode(decode(x)) must encode again to the same bytes.
func checkReencode(t *testing.T, typ MsgType, m Message) {
	b1, err := EncodeMessage(m)
	if err != nil {
		t.Fatalf("decoded %s %+v does not encode: %v", typ, m, err)
	}
	m2, err := DecodeMessage(typ, b1)
	if err != nil {
		t.Fatalf("re-encoded %s % x does not decode: %v", typ, b1, err)
	}
	b2, err := EncodeMessage(m2)
	if err != nil || !bytes.Equal(b1, b2) {
		t.Fatalf("%s is not a fixpoint:\n% x\n% x (%v)", typ, b1, b2, err)
	}
	if _, binary := m.(binaryAppender); binary && !reflect.DeepEqual(m, m2) {
		t.Fatalf("%s changed in a round trip:\n%+v\n%+v", typ, m, m2)
	}
}

// TestWireDeclaredLengthIsNotAllocatedUpFront pins that a peer declaring a
// 16 MiB body and sending 10 bytes does not make the reader allocate 16 MiB.
func TestWireDeclaredLengthIsNotAllocatedUpFront(t *testing.T) {
	b, _ := AppendFrame(nil, Frame{Version: MaxVersion, Type: MsgInput, Body: make([]byte, 10)}, WireMaxFrame)
	b[16], b[17], b[18], b[19] = 0x00, 0xFF, 0xFF, 0x00 // ~16 MiB declared
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := NewFrameReader(bytes.NewReader(b)).ReadFrame()
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("short body accepted")
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Fatalf("allocated %d bytes for a 10-byte body", n)
	}
}
