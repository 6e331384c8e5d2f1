// Credentials on a command line leak: argv is world-readable in /proc,
// lands in agents.json, logs and `ls` output. So a spawn whose argv carries
// one is refused unless the caller opts in with AllowSecretArgs; then the
// argv kept for disk and logs is Redact(argv) and the run is not resumable
// (its resume command would need the secret).
//
// Detection is heuristic and errs towards refusing: flags named like
// credentials (--api-key, --token, --password, --secret, their compounds,
// in "--flag value" and "--flag=value" form, and NAME=value arguments with
// such names), and values shaped like well-known keys (sk-..., ghp_...,
// xox...-, AKIA...) or long high-entropy tokens.

package supervisor

import (
	"fmt"
	"math"
	"regexp"
	"strings"
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
	return fmt.Sprintf("argv[%d] carries a credential (%s): pass it through the environment or a file instead, or allow secret args (the command line is then stored redacted and the run is not resumable)",
		e.Index, e.What)
}

// secretNames are flag or variable names (lowercase, '_' as '-') whose value
// is a credential, matched exactly or as the last part of a compound name.
var secretNames = []string{
	"api-key", "apikey", "token", "password", "passwd", "secret",
	"access-key", "secret-key", "private-token",
}

// keyShapes are values shaped like well-known API keys.
var keyShapes = regexp.MustCompile(`^(sk-[A-Za-z0-9_-]{16,}|(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}|xox[abposr]-[A-Za-z0-9-]{10,}|(AKIA|ASIA)[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,})`)

// CheckArgs returns a *SecretArgError for the first credential in argv
// (argv[0] included), nil when there is none.
func CheckArgs(argv []string) error {
	if i, what := findSecret(argv); i >= 0 {
		return &SecretArgError{Index: i, What: what}
	}
	return nil
}

// Redact returns a copy of argv with every credential value replaced by
// Redacted ("--token=[REDACTED]", "--token [REDACTED]", "KEY=[REDACTED]").
func Redact(argv []string) []string {
	out := append([]string(nil), argv...)
	for i := range out {
		if secretFlagTakesNext(out, i) {
			out[i+1] = Redacted
		}
		if name, _, ok := splitAssign(out[i]); ok && secretName(name) {
			out[i] = name + "=" + Redacted
		} else if secretValue(out[i]) {
			out[i] = Redacted
		}
	}
	return out
}

// findSecret returns the index of the first credential value and what it is.
func findSecret(argv []string) (int, string) {
	for i, a := range argv {
		if name, v, ok := splitAssign(a); ok && secretName(name) && v != "" {
			return i, name
		}
		if secretFlagTakesNext(argv, i) {
			return i + 1, a
		}
		if secretValue(a) {
			return i, "a value shaped like an API key or token"
		}
	}
	return -1, ""
}

// secretFlagTakesNext reports "--token VALUE": a credential flag with no
// '=' followed by a value that is not itself a flag.
func secretFlagTakesNext(argv []string, i int) bool {
	a := argv[i]
	if !strings.HasPrefix(a, "-") || strings.Contains(a, "=") || i+1 >= len(argv) {
		return false
	}
	next := argv[i+1]
	return secretName(a) && next != "" && !strings.HasPrefix(next, "-")
}

// splitAssign splits "--flag=value" or "NAME=value".
func splitAssign(a string) (name, value string, ok bool) {
	name, value, ok = strings.Cut(a, "=")
	return name, value, ok && name != "" && !strings.ContainsAny(name, " /")
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

// secretValue reports values shaped like keys or long random tokens.
func secretValue(v string) bool {
	return keyShapes.MatchString(v) || highEntropyToken(v)
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
