// This file is paste as bytes and in parts (the paste-data capability,
// docs/protocol.md "paste"). JSON strings cannot carry invalid UTF-8, so
// a paste's text travels as bytes in data; and a paste larger than a
// frame travels as parts, each under the limit, sent in order on one
// connection: the first part opens the bracket (mode 2004), the last
// closes it and presses Enter if asked, so the program sees one paste.
// The client checks the whole text before it sends any part, so a bad
// byte near the end refuses the paste rather than cutting it short.

package proto

import (
	"fmt"
	"time"
	"unicode/utf8"

	"clowder/panes"
)

// Parts of a paste split over several requests (PasteReq.Part).
const (
	PastePartFirst  = "first"
	PastePartMiddle = "middle"
	PastePartLast   = "last"
)

// Submission bounds (docs/protocol.md, paste): a host may hold a pane's
// first submission up to MaxSubmitHold until the program's prompt is
// ready, and confirm it (pressing Enter again while the text is left in
// the prompt) for up to FirstSubmitConfirm; a client's deadline for a
// submitting paste allows both, plus wait_ms.
const (
	MaxSubmitHold      = 30 * time.Second
	FirstSubmitConfirm = 15 * time.Second
)

// PasteChunkBytes is the most text one paste or input request carries.
// As base64 (4/3) inside JSON it stays well under WireMaxFrame; and it is
// small enough that a program reading it steadily at 17 KB/s takes it
// within a request's 15 s deadline (the host writes a part as fast as the
// program reads it): with 4 MiB parts, a program reading under 280 KB/s
// failed the paste with "the host did not answer" while the host went on
// writing the part.
const PasteChunkBytes = 256 << 10

// PasteText is the text req pastes: Data's bytes when set, else Text.
func (r *PasteReq) PasteText() string {
	if len(r.Data) > 0 {
		return string(r.Data)
	}
	return r.Text
}

// PasteOptions are the panes.Paste options for req's part.
func (r *PasteReq) PasteOptions() (panes.PasteOptions, error) {
	switch r.Part {
	case "":
		return panes.PasteOptions{}, nil
	case PastePartFirst:
		return panes.PasteOptions{NoEnd: true}, nil
	case PastePartMiddle:
		return panes.PasteOptions{NoStart: true, NoEnd: true}, nil
	case PastePartLast:
		return panes.PasteOptions{NoStart: true}, nil
	}
	return panes.PasteOptions{}, fmt.Errorf("paste: unknown part %q; want first, middle or last", r.Part)
}

// PasteSubmits reports whether req ends with Enter: Submit on a whole
// paste or on its last part.
func (r *PasteReq) PasteSubmits() bool {
	return r.Submit && (r.Part == "" || r.Part == PastePartLast)
}

// SplitPaste checks req's whole text as the host would (panes.CheckPaste)
// and returns the requests that paste it as bytes: req alone if it fits
// in size bytes, else a first, middles and a last part, the last one
// carrying Submit and WaitMS.
func SplitPaste(req PasteReq, size int) ([]PasteReq, error) {
	text := req.PasteText()
	if err := panes.CheckPaste(text); err != nil {
		return nil, err
	}
	data := []byte(text)
	if len(data) <= size {
		req.Text, req.Data = "", data
		return []PasteReq{req}, nil
	}
	var parts []PasteReq
	for off := 0; off < len(data); {
		end := pasteCut(data, off, size)
		parts = append(parts, PasteReq{Pane: req.Pane, Data: data[off:end], Part: PastePartMiddle})
		off = end
	}
	parts[0].Part = PastePartFirst
	last := &parts[len(parts)-1]
	last.Part, last.Submit, last.WaitMS = PastePartLast, req.Submit, req.WaitMS
	return parts, nil
}

// pasteCut is where a part starting at off ends: at most size bytes on,
// never between CR and LF (each part's newlines are converted on their
// own; with size 1 a CR takes its LF along) and, where it can, not inside
// a UTF-8 character. It always moves.
func pasteCut(data []byte, off, size int) int {
	end := off + max(size, 1)
	if end >= len(data) {
		return len(data)
	}
	for i := 1; i < utf8.UTFMax && end-1 > off && !utf8.RuneStart(data[end]); i++ {
		end--
	}
	if data[end-1] == '\r' && data[end] == '\n' {
		if end-1 > off {
			return end - 1
		}
		return end + 1 // a part of one CR: take its LF along
	}
	return end
}

// SplitInput returns the requests that write req: req alone if its data
// fits in size bytes, else the data in order in parts, the keys with the
// last one.
func SplitInput(req InputReq, size int) []InputReq {
	if len(req.Data) <= size {
		return []InputReq{req}
	}
	var parts []InputReq
	for off := 0; off < len(req.Data); off += size {
		parts = append(parts, InputReq{Pane: req.Pane, Data: req.Data[off:min(off+size, len(req.Data))]})
	}
	parts[len(parts)-1].Keys = req.Keys
	return parts
}
