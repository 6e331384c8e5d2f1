package host

import (
	"os"
	"strings"
	"testing"
	"time"

	"clowder/supervisor/internal/testproc"
	"clowder/supervisor/proto"
)

// Regression (issue 10 §4): credentials a spawn carries never reach disk.
// A bearer token in a `sh -c` header, --token=... in a script and a
// --api-key value are refused with an error naming the argument; allowed,
// they are redacted in agents.json, its .bak, the host log and every
// client's view (layout.json is written from it), and env values are
// never written at all.
func TestSecretsNeverReachAgentsJSONOrTheHostLog(t *testing.T) {
	const argTok, scriptTok, envTok = "argSecret0a1b2c3", "scriptSecret4d5e6f", "envSecret7a8b9c"
	ph := startProcHost(t)
	c := ph.dial()
	argv := []string{os.Args[0], "--api-key", argTok, "sh", "-c",
		"curl -H 'Authorization: Bearer " + scriptTok + "' https://x; gh --token=" + scriptTok}
	env := ph.o.Env(testproc.FakeAgentEnv+"=sleep", "DB_PASSWORD="+envTok)
	req := &proto.SpawnReq{Nonce: "secret-" + time.Now().String(), Argv: argv, Env: env, Kind: "run"}
	e := c.callErr(req)
	if !strings.Contains(e.Message, "argv[2]") || !strings.Contains(e.Message, "environment") ||
		strings.Contains(e.Message, argTok) || strings.Contains(e.Message, "\n") {
		t.Fatalf("refusal %q: want one line naming argv[2] and what to do, without the secret", e.Message)
	}
	req.Argv = []string{os.Args[0], "sh", "-c", "curl -H 'Authorization: Bearer " + scriptTok + "' https://x"}
	if e := c.callErr(req); !strings.Contains(e.Message, "argv[3]") || !strings.Contains(e.Message, "Authorization") {
		t.Fatalf("script refusal %q: want argv[3] and the Authorization header named", e.Message)
	}
	req.Argv, req.AllowSecretArgs, req.Nonce = argv, true, req.Nonce+"-allowed"
	p := c.call(req).(*proto.SpawnedReply).Pane
	c.call(&proto.RenameReq{Pane: p.ID, Name: "second-save"}) // so agents.json.bak holds it too
	shown := strings.Join(c.info(p.ID).Argv, " ")
	for _, where := range map[string]string{
		"agents.json":     readOrEmpty(ph.paths.AgentsFile()),
		"agents.json.bak": readOrEmpty(ph.paths.AgentsFile() + ".bak"),
		"host log":        ph.log.String(),
		"pane info":       shown,
	} {
		for _, tok := range []string{argTok, scriptTok, envTok} {
			if strings.Contains(where, tok) {
				t.Errorf("a secret reached disk or a client:\n%s", where)
			}
		}
	}
	if !strings.Contains(shown, "Authorization: [REDACTED]") || !strings.Contains(shown, "--token=[REDACTED]") {
		t.Errorf("pane argv %q: want the credentials redacted in place", shown)
	}
}

// readOrEmpty is a file's content, or "" if it cannot be read.
func readOrEmpty(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}
