// This file is the hand-written JSON of the bodies a CLI command sends and
// reads (jsonfast.go says why): each appendJSON writes what
// encoding/json.Marshal writes for the type, field by field in its order
// with its omitempty; each decodeJSON reads what it writes. A field added
// to one of these types must be added here too:
// TestFastJSONKnowsEveryField fills every field by reflection and fails
// until it is.

package proto

import (
	"math"
	"strconv"

	"clowder/persist"
)

func (h HelloReq) appendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	dst = jsonVersion(dst, "min", h.Min)
	dst = jsonVersion(dst, "max", h.Max)
	if len(h.Caps) > 0 {
		dst = jsonStrs(dst, "caps", h.Caps)
	}
	if h.Client != "" {
		dst = jsonStr(dst, "client", h.Client)
	}
	if h.Pid != 0 {
		dst = jsonInt(dst, "pid", int64(h.Pid))
	}
	return append(dst, '}')
}

func (h *HelloReq) decodeJSON(b []byte) bool {
	s := scanJSON(b)
	ok := s.object(func(key string) (ok bool) {
		switch key {
		case "min":
			ok = s.version(&h.Min)
		case "max":
			ok = s.version(&h.Max)
		case "caps":
			h.Caps, ok = s.strs()
		case "client":
			h.Client, ok = s.str()
		case "pid":
			h.Pid, ok = s.int()
		default:
			return s.unknown(key, "min max caps client pid")
		}
		return ok
	})
	return ok && s.end()
}

func (w WelcomeReply) appendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	dst = jsonVersion(dst, "version", w.Version)
	if len(w.Caps) > 0 {
		dst = jsonStrs(dst, "caps", w.Caps)
	}
	if w.Host != "" {
		dst = jsonStr(dst, "host", w.Host)
	}
	if w.Pid != 0 {
		dst = jsonInt(dst, "pid", int64(w.Pid))
	}
	return append(dst, '}')
}

func (w *WelcomeReply) decodeJSON(b []byte) bool {
	s := scanJSON(b)
	ok := s.object(func(key string) (ok bool) {
		switch key {
		case "version":
			ok = s.version(&w.Version)
		case "caps":
			w.Caps, ok = s.strs()
		case "host":
			w.Host, ok = s.str()
		case "pid":
			w.Pid, ok = s.int()
		default:
			return s.unknown(key, "version caps host pid")
		}
		return ok
	})
	return ok && s.end()
}

// version reads a Version object into *v, over what a key given before
// left there, as encoding/json fills a struct.
func (s *jsonScan) version(v *Version) bool {
	return s.object(func(key string) bool {
		switch key {
		case "major":
			n, ok := s.unsigned(math.MaxUint8)
			v.Major = uint8(n)
			return ok
		case "minor":
			n, ok := s.unsigned(math.MaxUint8)
			v.Minor = uint8(n)
			return ok
		}
		return s.unknown(key, "major minor")
	})
}

// int reads an int.
func (s *jsonScan) int() (int, bool) {
	v, ok := s.number(minInt, maxInt)
	return int(v), ok
}

func (OKReply) appendJSON(dst []byte) []byte { return append(dst, '{', '}') }

func (r *OKReply) decodeJSON(b []byte) bool {
	s := scanJSON(b)
	return s.object(func(key string) bool { return s.unknown(key, "") }) && s.end()
}

func (e ErrorReply) appendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	dst = jsonStr(dst, "code", string(e.Code))
	dst = jsonStr(dst, "message", e.Message)
	return append(dst, '}')
}

func (e *ErrorReply) decodeJSON(b []byte) bool {
	s := scanJSON(b)
	ok := s.object(func(key string) (ok bool) {
		switch key {
		case "code":
			var c string
			c, ok = s.str()
			e.Code = ErrorCode(c)
		case "message":
			e.Message, ok = s.str()
		default:
			return s.unknown(key, "code message")
		}
		return ok
	})
	return ok && s.end()
}

func (r ListReq) appendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	if len(r.Panes) > 0 {
		dst = jsonStrs(dst, "panes", r.Panes)
	}
	return append(dst, '}')
}

func (r *ListReq) decodeJSON(b []byte) bool {
	s := scanJSON(b)
	ok := s.object(func(key string) (ok bool) {
		if key != "panes" {
			return s.unknown(key, "panes")
		}
		r.Panes, ok = s.strs()
		return ok
	})
	return ok && s.end()
}

func (r CaptureReq) appendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	dst = jsonStr(dst, "pane", r.Pane)
	if r.ANSI {
		dst = jsonBool(dst, "ansi", r.ANSI)
	}
	if r.Scrollback != 0 {
		dst = jsonInt(dst, "scrollback", int64(r.Scrollback))
	}
	if r.TextBody {
		dst = jsonBool(dst, "text_body", r.TextBody)
	}
	return append(dst, '}')
}

func (r *CaptureReq) decodeJSON(b []byte) bool {
	s := scanJSON(b)
	ok := s.object(func(key string) (ok bool) {
		switch key {
		case "pane":
			r.Pane, ok = s.str()
		case "ansi":
			r.ANSI, ok = s.boolean()
		case "scrollback":
			r.Scrollback, ok = s.int()
		case "text_body":
			r.TextBody, ok = s.boolean()
		default:
			return s.unknown(key, "pane ansi scrollback text_body")
		}
		return ok
	})
	return ok && s.end()
}

func (r PaneListReply) appendJSON(dst []byte) []byte {
	if dst == nil {
		dst = make([]byte, 0, 64+len(r.Panes)*paneJSONSize)
	}
	dst = append(dst, '{')
	dst = jsonKey(dst, "panes")
	if r.Panes == nil {
		dst = append(dst, "null"...)
		return append(dst, '}')
	}
	dst = append(dst, '[')
	for i := range r.Panes {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = r.Panes[i].appendJSON(dst)
	}
	dst = append(dst, ']')
	return append(dst, '}')
}

// paneJSONSize is about the JSON size of a pane, to size a list's buffer
// once.
const paneJSONSize = 512

// appendJSON appends p as encoding/json writes it.
func (p *PaneInfo) appendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	dst = jsonStr(dst, "id", p.ID)
	dst = jsonStr(dst, "name", p.Name)
	dst = jsonStr(dst, "kind", p.Kind)
	dst = jsonStrOmit(dst, "adapter", p.Adapter)
	dst = jsonStr(dst, "state", p.State)
	dst = jsonStr(dst, "attention", p.Attention)
	dst = jsonInt(dst, "pid", int64(p.Pid))
	dst = jsonUint(dst, "pid_start", p.PidStart)
	dst = jsonStrOmit(dst, "boot_id", p.BootID)
	dst = jsonInt(dst, "exit_code", int64(p.ExitCode))
	dst = jsonStrOmit(dst, "exit_signal", p.ExitSignal)
	dst = jsonStr(dst, "exit_reason", p.ExitReason)
	dst = jsonStr(dst, "cwd", p.Cwd)
	dst = jsonStrOmit(dst, "cwd_now", p.CwdNow)
	dst = jsonStrs(dst, "argv", p.Argv)
	dst = jsonUint(dst, "cols", uint64(p.Cols))
	dst = jsonUint(dst, "rows", uint64(p.Rows))
	dst = jsonStrOmit(dst, "title", p.Title)
	dst = jsonInt(dst, "created_ms", p.CreatedMS)
	dst = jsonUint(dst, "seq", p.Seq)
	dst = jsonStrOmit(dst, "containment", p.Containment)
	dst = jsonStrOmit(dst, "containment_fallback", p.ContainmentFallback)
	if w := p.Worktree; w != nil {
		dst = append(jsonKey(dst, "worktree"), '{')
		dst = jsonStr(dst, "repo", w.Repo)
		dst = jsonStr(dst, "path", w.Path)
		dst = jsonStr(dst, "branch", w.Branch)
		dst = jsonStr(dst, "base", w.Base)
		dst = append(dst, '}')
	}
	dst = jsonStrOmit(dst, "session", p.Session)
	dst = jsonStrOmit(dst, "note", p.Note)
	if len(p.Survivors) > 0 {
		dst = jsonKey(dst, "survivors")
		dst = append(dst, '[')
		for i, pid := range p.Survivors {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = strconv.AppendInt(dst, int64(pid), 10)
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

func (r *PaneListReply) decodeJSON(b []byte) bool {
	s := scanJSON(b)
	ok := s.object(func(key string) (ok bool) {
		if key != "panes" {
			return s.unknown(key, "panes")
		}
		if r.Panes != nil {
			return false // given twice: encoding/json fills the first's panes
		}
		r.Panes, ok = s.panes()
		return ok
	})
	return ok && s.end()
}

// panes reads an array of PaneInfo.
func (s *jsonScan) panes() ([]PaneInfo, bool) {
	return scanArray(s, func() (p PaneInfo, ok bool) {
		ok = s.object(func(key string) bool { return s.paneField(&p, key) })
		return p, ok
	})
}

// paneKeys are PaneInfo's JSON names.
const paneKeys = "id name kind adapter state attention pid pid_start boot_id exit_code exit_signal exit_reason " +
	"cwd cwd_now argv cols rows title created_ms seq containment containment_fallback worktree session note survivors"

// paneField reads the value of one PaneInfo field.
func (s *jsonScan) paneField(p *PaneInfo, key string) (ok bool) {
	if sp := p.stringField(key); sp != nil {
		*sp, ok = s.str()
		return ok
	}
	switch key {
	case "pid":
		p.Pid, ok = s.int()
	case "pid_start":
		p.PidStart, ok = s.unsigned(math.MaxUint64)
	case "exit_code":
		p.ExitCode, ok = s.int()
	case "argv":
		p.Argv, ok = s.strs()
	case "cols":
		p.Cols, ok = s.uint16()
	case "rows":
		p.Rows, ok = s.uint16()
	case "created_ms":
		p.CreatedMS, ok = s.number(math.MinInt64, math.MaxInt64)
	case "seq":
		p.Seq, ok = s.unsigned(math.MaxUint64)
	case "worktree":
		ok = s.worktree(&p.Worktree)
	case "survivors":
		p.Survivors, ok = s.ints()
	default:
		return s.unknown(key, paneKeys)
	}
	return ok
}

// stringField is the string field named key, nil if key names none.
func (p *PaneInfo) stringField(key string) *string {
	switch key {
	case "id":
		return &p.ID
	case "name":
		return &p.Name
	case "kind":
		return &p.Kind
	case "adapter":
		return &p.Adapter
	case "state":
		return &p.State
	case "attention":
		return &p.Attention
	case "boot_id":
		return &p.BootID
	case "exit_signal":
		return &p.ExitSignal
	case "exit_reason":
		return &p.ExitReason
	case "cwd":
		return &p.Cwd
	case "cwd_now":
		return &p.CwdNow
	case "title":
		return &p.Title
	case "containment":
		return &p.Containment
	case "containment_fallback":
		return &p.ContainmentFallback
	case "session":
		return &p.Session
	case "note":
		return &p.Note
	}
	return nil
}

// uint16 reads a uint16.
func (s *jsonScan) uint16() (uint16, bool) {
	v, ok := s.unsigned(math.MaxUint16)
	return uint16(v), ok
}

// worktree reads a Worktree object into *w, allocating it if nil (and
// filling the one there if the key came twice, as encoding/json does);
// null sets it to nil.
func (s *jsonScan) worktree(w **persist.Worktree) bool {
	if s.null() {
		*w = nil
		return true
	}
	if s.peek() != '{' {
		return false
	}
	if *w == nil {
		*w = new(persist.Worktree)
	}
	t := *w
	return s.object(func(key string) (ok bool) {
		switch key {
		case "repo":
			t.Repo, ok = s.str()
		case "path":
			t.Path, ok = s.str()
		case "branch":
			t.Branch, ok = s.str()
		case "base":
			t.Base, ok = s.str()
		default:
			return s.unknown(key, "repo path branch base")
		}
		return ok
	})
}
