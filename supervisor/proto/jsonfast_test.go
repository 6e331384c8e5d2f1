package proto

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// trickyStrings are strings whose JSON has every kind of escape.
var trickyStrings = []string{"", "plain", `quote " and \ backslash`, "<script>&</script>", "\x00\x01\b\f\n\r\t\x1b\x7f",
	"日本語 ✳ 🐈", "bad \xff utf-8 \xc3", "line\u2028para\u2029", "/slash", "\ufffd", strings.Repeat("x", 300)}

// fastBodies are values of every body with hand-written JSON, with
// fields set and unset.
func fastBodies() []Message {
	var out []Message
	for _, s := range trickyStrings {
		p := samplePane()
		p.Name, p.Cwd, p.Argv, p.Title = s, s, []string{s, "-c", s}, s
		out = append(out,
			&HelloReq{Min: Version{1, 0}, Max: Version{1, 255}, Caps: []string{s, CapScreen}, Client: s, Pid: -3},
			&WelcomeReply{Version: Version{1, 2}, Caps: []string{s}, Host: s, Pid: 1 << 40},
			&ErrorReply{Code: ErrorCode(s), Message: s},
			&ListReq{Panes: []string{s}},
			&CaptureReq{Pane: s, ANSI: true, Scrollback: -1, TextBody: true},
			&PaneListReply{Panes: []PaneInfo{p}})
	}
	return append(out, &HelloReq{}, &WelcomeReply{}, &OKReply{}, &ErrorReply{}, &ListReq{}, &ListReq{Panes: []string{}},
		&CaptureReq{}, &PaneListReply{}, &PaneListReply{Panes: []PaneInfo{}}, &HelloReq{Caps: []string{}},
		&PaneListReply{Panes: []PaneInfo{fullPane(), {Argv: []string{}, Survivors: []int{}}}})
}

// fullPane has every field of PaneInfo set, by reflection, so that a
// field added to PaneInfo is in it too.
func fullPane() PaneInfo {
	var p PaneInfo
	fill(reflect.ValueOf(&p).Elem(), 1)
	return p
}

// fill sets every field of v to a value that is not its zero value.
func fill(v reflect.Value, n int) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), n+i)
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		fill(v.Index(0), n)
		fill(v.Index(1), n+1)
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d \"<é>\"", n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(-int64(n) * 1000003)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(n) + 7)
	default:
		panic("fill: no value for " + v.Kind().String())
	}
}

// TestFastJSONWritesWhatEncodingJSONWrites: the hand-written bodies are
// byte for byte encoding/json's, so hosts and clients of any build read
// them as before.
func TestFastJSONWritesWhatEncodingJSONWrites(t *testing.T) {
	for _, m := range fastBodies() {
		a, ok := m.(jsonAppender)
		if !ok {
			continue
		}
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.appendJSON(nil); string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", m.MsgType(), got, want)
		}
	}
}

// TestFastJSONReadsWhatEncodingJSONWrites: every body encoding/json writes
// is read by the fast path (no fallback), into what encoding/json reads.
func TestFastJSONReadsWhatEncodingJSONWrites(t *testing.T) {
	for _, m := range fastBodies() {
		body, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		checkFastDecode(t, m.MsgType(), body, true)
	}
}

// TestFastJSONKnowsEveryField pins the maintenance rule of jsonmsgs.go: a
// field added to a body with hand-written JSON and not to its codec fails
// here (every field is set by reflection).
func TestFastJSONKnowsEveryField(t *testing.T) {
	for _, mk := range []func() Message{
		func() Message { return new(HelloReq) }, func() Message { return new(WelcomeReply) },
		func() Message { return new(ErrorReply) }, func() Message { return new(ListReq) },
		func() Message { return new(CaptureReq) }, func() Message { return new(PaneListReply) },
	} {
		m := mk()
		fill(reflect.ValueOf(m).Elem(), 1)
		body, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if a, ok := m.(jsonAppender); ok && string(a.appendJSON(nil)) != string(body) {
			t.Errorf("%s: appendJSON misses a field:\n got %s\nwant %s", m.MsgType(), a.appendJSON(nil), body)
		}
		checkFastDecode(t, m.MsgType(), body, true)
	}
}

// TestFastJSONLeavesOddFormsToEncodingJSON: what encoding/json never
// writes but reads (a key in another case, null, whitespace, a duplicate
// key, unknown fields) still decodes exactly as encoding/json decodes it.
func TestFastJSONLeavesOddFormsToEncodingJSON(t *testing.T) {
	for _, c := range []struct {
		typ  MsgType
		body string
		fast bool // the fast path reads it itself
	}{
		{MsgWelcome, `{"Version":{"major":1,"minor":0}}`, false},
		{MsgWelcome, `{"version":{"MAJOR":1,"minor":0}}`, false},
		{MsgWelcome, `{"version":null,"caps":null}`, false},
		{MsgWelcome, ` { "version" : { "major" : 1 , "minor" : 0 } , "new" : [ {"a": [1, 2.5e3, -0, true, false, null, "x"]} ] } `, true},
		{MsgWelcome, `{"version":{"major":1,"minor":0},"caps":["a"],"caps":["b","c"]}`, true},
		{MsgWelcome, `{"version":{"major":256,"minor":0}}`, false},
		{MsgWelcome, `{"version":{"major":1.0,"minor":0}}`, false},
		{MsgWelcome, `{"version":{"major":01,"minor":0}}`, false},
		{MsgWelcome, `{"version":{"major":1,"minor":0}} x`, false},
		{MsgWelcome, `{"host":"a\u00e9\ud83d\ude00\ud800z\/"}`, true},
		{MsgWelcome, `{"host":"bad \'"}`, false},
		{MsgWelcome, "{\"host\":\"bad \xff\"}", false},
		{MsgWelcome, "{\"host\":\"tab\tinside\"}", false},
		{MsgPaneList, `{"panes":[{"id":"p1","worktree":{"repo":"r"},"worktree":{"path":"p"}}]}`, true},
		{MsgPaneList, `{"panes":[{"id":"p1","worktree":{"repo":"r"},"worktree":null,"argv":["a"],"argv":null}]}`, true},
		{MsgPaneList, `{"panes":[{"id":"p1","id":null}]}`, false},
		{MsgPaneList, `{"panes":[{"id":"p1","pid":-1,"pid_start":-1}]}`, false},
		{MsgError, `{"code":"not_found","message":"no pane","detail":{"x":[]}}`, true},
		{MsgHello, `{"min":{"major":1},"max":{"major":1},"pid":12345678901234567890}`, false},
		{MsgCapture, `{"pane":"p1","ansi":1}`, false},
	} {
		checkFastDecode(t, c.typ, []byte(c.body), c.fast)
	}
}

// checkFastDecode decodes body with DecodeMessage and with encoding/json:
// both must agree, and the fast path must (or must not) have read it.
func checkFastDecode(t *testing.T, typ MsgType, body []byte, fast bool) {
	t.Helper()
	want := msgBodies[typ]()
	wantErr := json.Unmarshal(body, want)
	got, err := DecodeMessage(typ, body)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%s %s: err %v, encoding/json's %v", typ, body, err, wantErr)
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		t.Errorf("%s %s:\n got %#v\nwant %#v", typ, body, got, want)
	}
	if read := msgBodies[typ]().(jsonDecoder).decodeJSON(body); read != fast {
		t.Errorf("%s %s: fast path read it: %v, want %v", typ, body, read, fast)
	}
}

// FuzzFastJSONDecodeMatchesEncodingJSON: whatever the bytes, a body the
// fast path reads is read as encoding/json reads it.
func FuzzFastJSONDecodeMatchesEncodingJSON(f *testing.F) {
	for _, m := range fastBodies() {
		body, _ := json.Marshal(m)
		f.Add(uint8(m.MsgType()), body)
	}
	types := []MsgType{MsgHello, MsgWelcome, MsgOK, MsgError, MsgList, MsgCapture, MsgPaneList}
	f.Fuzz(func(t *testing.T, typ uint8, body []byte) {
		tp := types[int(typ)%len(types)]
		m := msgBodies[tp]()
		if !m.(jsonDecoder).decodeJSON(body) {
			return
		}
		want := msgBodies[tp]()
		if err := json.Unmarshal(body, want); err != nil {
			t.Fatalf("%s %q: fast path read it, encoding/json refuses it: %v", tp, body, err)
		}
		if !reflect.DeepEqual(m, want) {
			t.Fatalf("%s %q:\n got %#v\nwant %#v", tp, body, m, want)
		}
	})
}

// FuzzFastJSONStringMatchesEncodingJSON: a string is quoted as
// encoding/json quotes it.
func FuzzFastJSONStringMatchesEncodingJSON(f *testing.F) {
	for _, s := range trickyStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	})
}

// envFirstUse makes the test binary run firstUseAllocs and exit.
const envFirstUse = "CLOWDER_TEST_JSON_FIRST_USE"

// TestCLIBodiesNeedNoReflectionCache pins issue 12 (CLI): a command's
// first hello, welcome, list, pane list and capture went through
// encoding/json, whose first use of each type builds its field and
// encoder caches by reflection: about a fifth of an `ls`'s CPU. In a fresh
// process, encoding and decoding them now allocates only the messages
// themselves.
func TestCLIBodiesNeedNoReflectionCache(t *testing.T) {
	if os.Getenv(envFirstUse) != "" {
		fmt.Println(firstUseAllocs())
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCLIBodiesNeedNoReflectionCache$")
	cmd.Env = append(os.Environ(), envFirstUse+"=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("re-exec: %v", err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("re-exec said %q", out)
	}
	t.Logf("first use: %d allocations", n)
	if n > 80 {
		t.Fatalf("the first hello, welcome, list, pane list and capture of a process allocate %d times; want the messages alone (at most 80)", n)
	}
}

// firstUseAllocs is the allocations of encoding and decoding the CLI's
// bodies once in this process. The bodies it decodes are literals:
// encoding/json must not have seen their types before.
func firstUseAllocs() uint64 {
	hello := &HelloReq{Min: MinVersion, Max: MaxVersion, Caps: []string{CapFdPassing, CapScreen}, Client: "clowder", Pid: 42}
	bodies := map[MsgType]string{
		MsgWelcome: `{"version":{"major":1,"minor":0},"caps":["fd-passing","screen"],"host":"clowder host dev","pid":7}`,
		MsgPaneList: `{"panes":[{"id":"p1","name":"sh","kind":"run","state":"running","attention":"working","pid":23711,` +
			`"pid_start":2783122,"exit_code":0,"exit_reason":"","cwd":"/tmp","argv":["sh","-c","echo \u003chi\u003e"],` +
			`"cols":200,"rows":50,"created_ms":1767000000123,"seq":98211}]}`,
		MsgError: `{"code":"not_found","message":"no pane named \"web\""}`,
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, m := range []Message{hello, &ListReq{}, &CaptureReq{Pane: "p1", TextBody: true}} {
		if _, err := EncodeMessage(m); err != nil {
			panic(err)
		}
	}
	for t, body := range bodies {
		if _, err := DecodeMessage(t, []byte(body)); err != nil {
			panic(err)
		}
	}
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs
}

// BenchmarkPaneListEncode is the host's side of a 100-pane ls: the
// hand-written JSON against encoding/json's (warm) reflection.
func BenchmarkPaneListEncode(b *testing.B) {
	list := PaneListReply{}
	for range 100 {
		list.Panes = append(list.Panes, samplePane())
	}
	b.Run("hand", func(b *testing.B) {
		for b.Loop() {
			_ = list.appendJSON(nil)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			_, _ = json.Marshal(list)
		}
	})
}
