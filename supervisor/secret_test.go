package supervisor

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"clowder/persist"
)

func TestCheckArgsAndRedact(t *testing.T) {
	cases := []struct {
		name   string
		argv   []string
		secret bool
		redact []string
	}{
		{"plain", []string{"claude", "--model", "opus", "-p", "hi"}, false, nil},
		{"git sha", []string{"git", "show", "3f2a9c1e0b7d4e5f60718293a4b5c6d7e8f90123"}, false, nil},
		{"uuid", []string{"x", "--session", "123e4567-e89b-12d3-a456-426614174000"}, false, nil},
		{"max tokens", []string{"x", "--max-tokens", "4096"}, false, nil},
		{"token file", []string{"x", "--token-file", "/run/tok"}, false, nil},
		{"temp path (regression: a temp dir name passed for a token)", []string{"cat", "/tmp/TestFloodCountsEveryByte3270961522/001/stream"}, false, nil},
		{"flag value", []string{"x", "--api-key", "abc123"}, true, []string{"x", "--api-key", Redacted}},
		{"flag equals", []string{"x", "--token=abc"}, true, []string{"x", "--token=" + Redacted}},
		{"compound", []string{"x", "--github-token", "abc", "--db_password=pw"}, true,
			[]string{"x", "--github-token", Redacted, "--db_password=" + Redacted}},
		{"env assign", []string{"env", "OPENAI_API_KEY=abc", "codex"}, true, []string{"env", "OPENAI_API_KEY=" + Redacted, "codex"}},
		{"sk key", []string{"x", "sk-ant-api03-abcdefghijklmnopqrstuv"}, true, []string{"x", Redacted}},
		{"github pat", []string{"x", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"}, true, []string{"x", Redacted}},
		{"slack", []string{"x", "xoxb-1234567890-abcdefghij"}, true, []string{"x", Redacted}},
		{"aws", []string{"x", "AKIAIOSFODNN7EXAMPLE"}, true, []string{"x", Redacted}},
		{"high entropy", []string{"x", "q8Zr4Tn1Lw7Vy2Kd9Hs6Pb3Jm5Xc0Gf1Ra8Ue4"}, true, []string{"x", Redacted}},
		{"flag without value", []string{"x", "--token"}, false, nil},
		{"flag then flag", []string{"x", "--password", "--verbose"}, false, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckArgs(tc.argv)
			var se *SecretArgError
			if got := errors.As(err, &se); got != tc.secret {
				t.Fatalf("CheckArgs = %v, want secret %v", err, tc.secret)
			}
			want := tc.redact
			if want == nil {
				want = tc.argv
			}
			if got := Redact(tc.argv); !reflect.DeepEqual(got, want) {
				t.Fatalf("Redact = %q, want %q", got, want)
			}
		})
	}
}

func TestSecretArgsRefusedUnlessAllowed(t *testing.T) {
	o := newOracle(t)
	sp := NewSpawner(Options{CgroupMode: persist.CgroupAuto})
	spec := Spec{PaneID: "secret-" + o.Mark, Argv: []string{"true", "--api-key", "hunter2"},
		Env: o.Env(), Pipe: &PipeArm{}}
	_, err := sp.Start(context.Background(), spec)
	var se *SecretArgError
	if !errors.As(err, &se) || se.Index != 2 {
		t.Fatalf("Start = %v", err)
	}
	if strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("error leaks the secret: %v", err)
	}
	spec.AllowSecretArgs = true
	r := start(t, sp, spec)
	if got := r.Argv(); !reflect.DeepEqual(got, []string{"true", "--api-key", Redacted}) || r.Resumable() {
		t.Fatalf("Argv %q resumable %v", got, r.Resumable())
	}
	waitExit(t, r)
}
