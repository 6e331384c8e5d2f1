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
		{"a long NAME=/path is no token (trial 6)", []string{"env", "CLOWDER_E2E_FAKE_PASTEHOLD=/tmp/t6env/go", "prog"}, false, nil},
		{"an assigned token still is", []string{"env", "X=q8Zr4Tn1Lw7Vy2Kd9Hs6Pb3Jm5Xc0Gf1Ra8Ue4", "prog"}, true, []string{"env", "X=" + Redacted, "prog"}},
		{"b64 padding is no assignment", []string{"x", "q8Zr4Tn1Lw7Vy2Kd9Hs6Pb3Jm5Xc0Gf1Ra8Ue4=="}, true, []string{"x", Redacted}},
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

// Regression (issue 10 §4): a bearer token in a header and --token=...
// inside a `sh -c` string passed the check and reached agents.json in
// clear. Each case is a real-world form; want is the redacted argv (nil:
// no credential, argv kept as is).
func TestCheckArgsCatchesHeadersURLsAndShellScripts(t *testing.T) {
	const tok = "abc123secretvalue"
	cases := []struct {
		name string
		argv []string
		want []string
	}{
		{"curl -H bearer", []string{"curl", "-H", "Authorization: Bearer " + tok, "https://api.x"},
			[]string{"curl", "-H", "Authorization: " + Redacted, "https://api.x"}},
		{"curl --header=", []string{"curl", "--header=Authorization: token " + tok, "u"},
			[]string{"curl", "--header=Authorization: " + Redacted, "u"}},
		{"curl --header value", []string{"curl", "--header", "X-Api-Key: " + tok},
			[]string{"curl", "--header", "X-Api-Key: " + Redacted}},
		{"wget --header=private-token", []string{"wget", "--header=PRIVATE-TOKEN: " + tok, "u"},
			[]string{"wget", "--header=PRIVATE-TOKEN: " + Redacted, "u"}},
		{"basic auth header", []string{"http", "Authorization:Basic dXNlcjpwYXNz"},
			[]string{"http", "Authorization: " + Redacted}},
		{"cookie header", []string{"curl", "-H", "Cookie: session=" + tok},
			[]string{"curl", "-H", "Cookie: " + Redacted}},
		{"url password", []string{"git", "clone", "https://bob:" + tok + "@github.com/o/r.git"},
			[]string{"git", "clone", "https://bob:" + Redacted + "@github.com/o/r.git"}},
		{"url query token", []string{"curl", "https://x.io/api?user=bob&access_token=" + tok + "&n=1"},
			[]string{"curl", "https://x.io/api?user=bob&access_token=" + Redacted + "&n=1"}},
		{"sh -c --token=", []string{"sh", "-c", "gh api --token=" + tok + " /user"},
			[]string{"sh", "-c", "gh api --token=" + Redacted + " /user"}},
		{"bash -lc bearer in double quotes", []string{"bash", "-lc", `curl -s -H "Authorization: Bearer ` + tok + `" https://api.x | jq .`},
			[]string{"bash", "-lc", `curl -s -H "Authorization: ` + Redacted + `" https://api.x | jq .`}},
		{"sh -c export", []string{"/bin/sh", "-c", "export OPENAI_API_KEY=" + tok + "; codex"},
			[]string{"/bin/sh", "-c", "export OPENAI_API_KEY=" + Redacted + "; codex"}},
		{"sh -c prefix assignment", []string{"sh", "-c", "GITHUB_TOKEN=" + tok + " gh pr list"},
			[]string{"sh", "-c", "GITHUB_TOKEN=" + Redacted + " gh pr list"}},
		{"sh -c --password value", []string{"sh", "-ec", "mysql --password '" + tok + "' db"},
			[]string{"sh", "-ec", "mysql --password '" + Redacted + "' db"}},
		{"env then bash -c", []string{"env", "A=1", "bash", "-c", "npm publish --//registry.npmjs.org/:_authToken=" + tok},
			[]string{"env", "A=1", "bash", "-c", "npm publish --//registry.npmjs.org/:_authToken=" + Redacted}},
		{"docker exec sh -c", []string{"docker", "exec", "c1", "sh", "-c", "curl -H 'X-Auth-Token: " + tok + "' u"},
			[]string{"docker", "exec", "c1", "sh", "-c", "curl -H 'X-Auth-Token: " + Redacted + "' u"}},
		{"nested sh -c", []string{"sh", "-c", `bash -c "export DB_PASSWORD=` + tok + `"`},
			[]string{"sh", "-c", `bash -c "export DB_PASSWORD=` + Redacted + `"`}},
		{"escaped secret redacts the whole script", []string{"sh", "-c", `export TOKEN=ab\c123secretvalue`},
			[]string{"sh", "-c", Redacted}},
		{"key-shaped in script", []string{"bash", "-c", "echo ghp_abcdefghijklmnopqrstuvwxyz0123456789 | gh auth login --with-token"},
			[]string{"bash", "-c", "echo " + Redacted + " | gh auth login --with-token"}},
		{"kubectl from-literal", []string{"kubectl", "create", "secret", "generic", "db", "--from-literal=password=" + tok},
			[]string{"kubectl", "create", "secret", "generic", "db", "--from-literal=password=" + Redacted}},
		{"postgres url", []string{"psql", "postgres://app:" + tok + "@db:5432/app"},
			[]string{"psql", "postgres://app:" + Redacted + "@db:5432/app"}},
		{"docker -e", []string{"docker", "run", "-e", "ANTHROPIC_API_KEY=" + tok, "img"},
			[]string{"docker", "run", "-e", "ANTHROPIC_API_KEY=" + Redacted, "img"}},
		{"npm authToken flag", []string{"npm", "--//registry.npmjs.org/:_authToken=" + tok, "publish"},
			[]string{"npm", "--//registry.npmjs.org/:_authToken=" + Redacted, "publish"}},
		// Not credentials: references (the way to pass one), look-alikes.
		{"header from env var", []string{"curl", "-H", "Authorization: Bearer $TOKEN", "u"}, nil},
		{"sh -c header from env var", []string{"sh", "-c", `curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com`}, nil},
		{"sh -c export from var", []string{"sh", "-c", "export GH_TOKEN=$(cat ~/.tok); gh pr list"}, nil},
		{"sh -c token flag from var", []string{"bash", "-c", `gh --token "${TOKEN}" api /user`}, nil},
		{"plain header", []string{"curl", "-H", "Content-Type: application/json", "u"}, nil},
		{"prompt with words", []string{"claude", "-p", "explain how the --token flag works: Authorization is hard"}, nil},
		{"sh -c harmless", []string{"sh", "-c", "cd /src && make test; echo done # token here"}, nil},
		{"-c not after a shell is no script", []string{"python3", "-c", "print('--token x')"}, nil},
		{"url without password", []string{"git", "clone", "https://github.com/o/r.git", "git@github.com:o/r.git"}, nil},
		{"url harmless query", []string{"curl", "https://x.io/?page=2&max_tokens=5"}, nil},
		{"ssh url without password", []string{"git", "clone", "ssh://git@github.com:22/o/r.git"}, nil},
		{"host and port", []string{"curl", "http://localhost:8080/a@b"}, nil},
		{"sh -c max tokens", []string{"sh", "-c", "run --max-tokens 4096 --token-file /run/t"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckArgs(tc.argv)
			var se *SecretArgError
			if got := errors.As(err, &se); got != (tc.want != nil) {
				t.Fatalf("CheckArgs = %v, want a credential: %v", err, tc.want != nil)
			}
			want := tc.want
			if want == nil {
				want = tc.argv
			} else if strings.Contains(err.Error(), tok) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error leaks the secret or is not one line: %v", err)
			}
			got := Redact(tc.argv)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("Redact =\n %q\nwant\n %q", got, want)
			}
			if strings.Contains(strings.Join(got, " "), tok) {
				t.Fatalf("Redact leaves the secret: %q", got)
			}
		})
	}
}
