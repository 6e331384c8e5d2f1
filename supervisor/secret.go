// Credentials on a command line leak: argv is world-readable in /proc,
// lands in agents.json, logs and `ls` output. So a spawn whose argv carries
// one is refused unless the caller opts in with AllowSecretArgs; then the
// argv kept for disk and logs is Redact(argv) and the run is not resumable
// (its resume command would need the secret).
//
// Detection is heuristic and errs towards refusing: flags named like
// credentials (--api-key, --token, --password, --secret, their compounds,
// in "--flag value" and "--flag=value" form, and NAME=value arguments with
// such names), credential headers ("Authorization: Bearer ...", also as
// -H/--header values), URLs with a password (https://user:pw@host), and
// values shaped like well-known keys (sk-..., ghp_..., xox...-, AKIA...)
// or long high-entropy tokens. The script of a shell (`sh -c SCRIPT`,
// `bash -lc SCRIPT`) is split into words and each word is checked the same
// way, so `export TOKEN=...; curl -H 'Authorization: Bearer ...'` inside
// it is caught too. A value that is a shell reference ($TOKEN, ${TOKEN},
// $(cat file)) is not a credential: that is the way to pass one.

package supervisor

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
)

// Redacted replaces every credential value in a redacted argv.
const Redacted = "[REDACTED]"

// SecretArgError reports a credential in argv. It names the position and
// the flag, never the value.
type SecretArgError struct {
	Index int    // position in argv of the credential value
	What  string // the flag name, or the kind of value
}

// Error says where the credential is and what to do instead.
func (e *SecretArgError) Error() string {
	return fmt.Sprintf("argv[%d] carries a credential (%s): pass it through the environment (e.g. \"$TOKEN\" in a shell script) or a file instead, or allow secret args (the command line is then stored redacted and the run is not resumable)",
		e.Index, e.What)
}

// secretNames are flag or variable names (lowercase, '_' as '-') whose value
// is a credential, matched exactly or as the last part of a compound name.
var secretNames = []string{
	"api-key", "apikey", "token", "password", "passwd", "secret",
	"access-key", "secret-key", "private-token", "auth-token", "authtoken", "authorization",
	"credentials", "client-secret",
}

// keyShapes are values shaped like well-known API keys.
var keyShapes = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(sk-[A-Za-z0-9_-]{16,}|(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}|xox[abposr]-[A-Za-z0-9-]{10,}|(AKIA|ASIA)[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|npm_[A-Za-z0-9]{30,}|hf_[A-Za-z0-9]{30,})`)
})

// headerRE is an HTTP header line "Name: value".
var headerRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*([A-Za-z0-9_-]+)\s*:\s*(.*\S)\s*$`) })

// urlCredRE is a URL whose userinfo has a password: group 2 is it.
var urlCredRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://[^/@:\s]*:)([^/@\s]+)@`) })

// urlQueryRE is one parameter of a URL's query: group 2 its name, 3 its
// value.
var urlQueryRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`([?&]([A-Za-z0-9_.-]+)=)([^&#\s]+)`) })

// secretHeaders are header names whose value is a credential besides
// those secretName recognises (x-api-key, private-token, ...).
var secretHeaders = []string{"cookie", "proxy-authorization"}

// finding is one credential in argv: where, what, and the element with
// the credential replaced.
type finding struct {
	index    int
	what     string
	redacted string
}

// CheckArgs returns a *SecretArgError for the first credential in argv
// (argv[0] included), nil when there is none.
func CheckArgs(argv []string) error {
	if fs := findSecrets(argv); len(fs) > 0 {
		return &SecretArgError{Index: fs[0].index, What: fs[0].what}
	}
	return nil
}

// Redact returns a copy of argv with every credential value replaced by
// Redacted ("--token=[REDACTED]", "--token [REDACTED]", "KEY=[REDACTED]",
// "Authorization: [REDACTED]"; inside a shell script, the value in place).
func Redact(argv []string) []string {
	out := append([]string(nil), argv...)
	for _, f := range findSecrets(argv) {
		out[f.index] = f.redacted
	}
	return out
}

// findSecrets returns every credential in argv, in order, one per element
// at most (the element's redaction covers all of its credentials).
func findSecrets(argv []string) []finding {
	var out []finding
	for i := range argv {
		if f, ok := wordSecret(argv, i); ok {
			out = append(out, f)
		}
	}
	return out
}

// wordSecret checks argv[i] as a word of a command line: the value of a
// credential flag before it, a credential itself, or a shell script.
func wordSecret(argv []string, i int) (finding, bool) {
	a := argv[i]
	if i > 0 && secretFlagTakesNext(argv, i-1) {
		return finding{i, strings.TrimLeft(argv[i-1], "-") + " flag", Redacted}, true
	}
	if isShellScript(argv, i) {
		if red, what, ok := scriptSecret(a); ok {
			return finding{i, "in the shell script: " + what, red}, true
		}
		return finding{}, false
	}
	if red, what, ok := valueSecret(a); ok {
		return finding{i, what, red}, true
	}
	return finding{}, false
}

// valueSecret checks one word on its own: NAME=value, a header, a URL
// with a password, a key-shaped value. It returns the word redacted.
func valueSecret(a string) (redacted, what string, ok bool) {
	if name, v, ok := splitAssign(a); ok {
		if secretName(name) && v != "" && !isReference(v) {
			return name + "=" + Redacted, strings.TrimLeft(name, "-"), true
		}
		if red, what, ok := valueSecret(v); ok {
			return name + "=" + red, what, true
		}
		if v != "" && v[0] != '=' { // base64's padding ends a token: "TOKEN==" is no assignment
			// NAME=value, the value checked: the whole word is no token (a
			// long NAME=/path has a token's alphabet and entropy).
			return "", "", false
		}
	}
	if red, what, ok := headerSecret(a); ok {
		return red, what, true
	}
	if red, what, ok := urlSecret(a); ok {
		return red, what, true
	}
	if secretValue(a) {
		return Redacted, "a value shaped like an API key or token", true
	}
	return "", "", false
}

// urlSecret reports a URL with a password (https://user:pw@host) or a
// credential in its query (?access_token=...), and returns it redacted.
func urlSecret(a string) (redacted, what string, ok bool) {
	if urlCredRE().MatchString(a) {
		return urlCredRE().ReplaceAllString(a, "${1}"+Redacted+"@"), "a password in a URL", true
	}
	if !strings.Contains(a, "://") {
		return "", "", false
	}
	found := false
	red := urlQueryRE().ReplaceAllStringFunc(a, func(m string) string {
		sub := urlQueryRE().FindStringSubmatch(m)
		if !secretName(sub[2]) || isReference(sub[3]) {
			return m
		}
		found = true
		return sub[1] + Redacted
	})
	return red, "a credential in a URL's query", found
}

// headerSecret reports an HTTP header that carries a credential
// ("Authorization: Bearer x", "X-Api-Key: x"), unless its credential is a
// shell reference.
func headerSecret(a string) (redacted, what string, ok bool) {
	m := headerRE().FindStringSubmatch(a)
	if m == nil || !secretHeader(m[1]) {
		return "", "", false
	}
	fields := strings.Fields(m[2])
	if isReference(fields[len(fields)-1]) {
		return "", "", false
	}
	return m[1] + ": " + Redacted, m[1] + " header", true
}

// secretHeader reports whether a header name carries a credential.
func secretHeader(name string) bool {
	n := strings.ToLower(name)
	for _, h := range secretHeaders {
		if n == h {
			return true
		}
	}
	return secretName(n)
}

// secretFlagTakesNext reports "--token VALUE": a credential flag with no
// '=' followed by a value that is not itself a flag nor a reference.
func secretFlagTakesNext(argv []string, i int) bool {
	a := argv[i]
	if !strings.HasPrefix(a, "-") || strings.Contains(a, "=") || i+1 >= len(argv) {
		return false
	}
	next := argv[i+1]
	return secretName(a) && next != "" && !strings.HasPrefix(next, "-") && !isReference(next)
}

// splitAssign splits "--flag=value" or "NAME=value". A flag's name may
// hold / and : (npm's --//registry.npmjs.org/:_authToken=...); a bare
// name may not (a path or URL with '=' in it is no assignment).
func splitAssign(a string) (name, value string, ok bool) {
	name, value, ok = strings.Cut(a, "=")
	bad := " /:\t\n"
	if strings.HasPrefix(name, "--") {
		bad = " \t\n"
	}
	return name, value, ok && name != "" && !strings.ContainsAny(name, bad)
}

// secretName reports whether a flag or variable name names a credential.
func secretName(name string) bool {
	n := strings.ToLower(strings.ReplaceAll(strings.TrimLeft(name, "-"), "_", "-"))
	for _, s := range secretNames {
		if n == s || strings.HasSuffix(n, "-"+s) {
			return true
		}
	}
	return false
}

// isReference reports a value that names a credential rather than holding
// one: a shell variable or command substitution, expanded by the shell
// (in a script) or never (in argv, where it is literal text).
func isReference(v string) bool {
	return strings.HasPrefix(v, "$") || strings.HasPrefix(v, "\"$")
}

// secretValue reports values shaped like keys or long random tokens.
func secretValue(v string) bool {
	return keyShapes().MatchString(v) || highEntropyToken(v)
}

// highEntropyToken: at least 32 characters of base64/base62 alphabet with
// upper, lower and digits, and more than 4.2 bits of entropy per character
// (hex hashes and UUIDs stay below 4.1, so git SHAs pass).
func highEntropyToken(v string) bool {
	if looksLikePath(v) {
		return false
	}
	if len(v) < 32 || strings.Trim(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-") != "" {
		return false
	}
	hasUpper := strings.ContainsAny(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
	hasLower := strings.ContainsAny(v, "abcdefghijklmnopqrstuvwxyz")
	hasDigit := strings.ContainsAny(v, "0123456789")
	return hasUpper && hasLower && hasDigit && entropy(v) > 4.2
}

// looksLikePath keeps file paths (temp dirs have high-entropy names) from
// passing for tokens: a token never starts like a path.
func looksLikePath(v string) bool {
	for _, p := range []string{"/", "./", "../", "~/"} {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	return false
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	var h float64
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / float64(len(s))
			h -= p * math.Log2(p)
		}
	}
	return h
}
