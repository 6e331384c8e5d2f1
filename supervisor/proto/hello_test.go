package proto

import (
	"errors"
	"net"
	"reflect"
	"strings"
	"testing"
)

func TestHelloNegotiate(t *testing.T) {
	v := func(maj, min uint8) Version { return Version{maj, min} }
	tests := []struct {
		name          string
		cmin, cmax    Version
		hmin, hmax    Version
		want          Version
		wantCode      ErrorCode
		wantInMessage []string
	}{
		{"same", v(1, 0), v(1, 0), v(1, 0), v(1, 0), v(1, 0), "", nil},
		{"newer client minor", v(1, 0), v(1, 5), v(1, 0), v(1, 2), v(1, 2), "", nil},
		{"newer host minor", v(1, 0), v(1, 1), v(1, 0), v(1, 4), v(1, 1), "", nil},
		{"client spans majors", v(1, 0), v(2, 3), v(1, 0), v(1, 4), v(1, 4), "", nil},
		{"client too new", v(2, 0), v(2, 3), v(1, 0), v(1, 4), v(0, 0), CodeVersion, []string{"2.0-2.3", "1.0-1.4"}},
		{"client too old", v(1, 0), v(1, 0), v(2, 0), v(2, 1), v(0, 0), CodeVersion, []string{"1.0-1.0", "2.0-2.1"}},
		{"empty range", v(1, 3), v(1, 2), v(1, 0), v(1, 4), v(0, 0), CodeBadRequest, []string{"1.3-1.2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Negotiate(HelloReq{Min: tc.cmin, Max: tc.cmax}, tc.hmin, tc.hmax)
			if tc.wantCode == "" {
				if err != nil || got != tc.want {
					t.Fatalf("got %s, %v; want %s", got, err, tc.want)
				}
				return
			}
			var e *ErrorReply
			if !errors.As(err, &e) || e.Code != tc.wantCode {
				t.Fatalf("got %v, want code %s", err, tc.wantCode)
			}
			for _, s := range tc.wantInMessage {
				if !strings.Contains(e.Message, s) {
					t.Errorf("message %q does not name %s", e.Message, s)
				}
			}
		})
	}
}

// pipeConns returns two StreamConns joined by net.Pipe.
func pipeConns(t *testing.T) (client, host *StreamConn) {
	a, b := net.Pipe()
	t.Cleanup(func() { _ = a.Close(); _ = b.Close() })
	return NewStreamConn(a, a), NewStreamConn(b, b)
}

func TestHelloHandshakeOverPlainStream(t *testing.T) {
	client, host := pipeConns(t)
	type result struct {
		h   HelloReq
		w   WelcomeReply
		err error
	}
	done := make(chan result, 1)
	go func() {
		h, w, err := AcceptHello(host, MinVersion, MaxVersion,
			WelcomeReply{Caps: []string{CapFdPassing, CapScreen, CapRaw, CapEvents}, Host: "test"})
		done <- result{h, w, err}
	}()
	w, err := Hello(client, HelloReq{Min: MinVersion, Max: MaxVersion, Caps: []string{CapScreen, CapFdPassing, CapEvents}})
	if err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	// fd passing is dropped: a plain stream cannot carry fds.
	want := []string{CapScreen, CapEvents}
	if w.Version != MaxVersion || !reflect.DeepEqual(w.Caps, want) || !reflect.DeepEqual(r.w.Caps, want) {
		t.Fatalf("welcome %+v, host side %+v; want %s with caps %v", w, r.w, MaxVersion, want)
	}
}

func TestHelloMismatchNamesBothVersions(t *testing.T) {
	client, host := pipeConns(t)
	done := make(chan error, 1)
	go func() {
		_, _, err := AcceptHello(host, Version{1, 0}, Version{1, 2}, WelcomeReply{})
		done <- err
	}()
	_, err := Hello(client, HelloReq{Min: Version{2, 0}, Max: Version{2, 1}})
	if !errors.Is(err, &ErrorReply{Code: CodeVersion}) || !strings.Contains(err.Error(), "2.0-2.1") ||
		!strings.Contains(err.Error(), "1.0-1.2") {
		t.Fatalf("client got %v; want a version error naming 2.0-2.1 and 1.0-1.2", err)
	}
	if err := <-done; !errors.Is(err, &ErrorReply{Code: CodeVersion}) {
		t.Fatalf("host got %v", err)
	}
}

func TestHelloMustComeFirst(t *testing.T) {
	client, host := pipeConns(t)
	done := make(chan error, 1)
	go func() {
		_, _, err := AcceptHello(host, MinVersion, MaxVersion, WelcomeReply{})
		done <- err
	}()
	if err := writeMessage(client, 9, 0, ListReq{}); err != nil {
		t.Fatal(err)
	}
	f, err := client.ReadFrame()
	if err != nil {
		t.Fatal(err)
	}
	m, err := f.Message()
	if err != nil || f.ReqID != 9 || m.(*ErrorReply).Code != CodeBadRequest {
		t.Fatalf("got %s id %d %+v %v; want a bad-request error for request 9", f.Type, f.ReqID, m, err)
	}
	if err := <-done; !errors.Is(err, &ErrorReply{Code: CodeBadRequest}) {
		t.Fatalf("host got %v", err)
	}
}
