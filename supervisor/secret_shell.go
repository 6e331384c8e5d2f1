// Credentials inside a shell script given on the command line
// (`sh -c 'export TOKEN=...; curl -H "Authorization: Bearer ..." ...'`):
// the script is split into words as a POSIX shell would (quotes,
// backslashes, operators), the words are checked like argv, and a
// credential found is replaced in the script's own text. A credential that
// cannot be found verbatim in the text (it was written with escapes)
// makes the whole script Redacted: redaction never lets one through.

package supervisor

import (
	"path/filepath"
	"strings"
)

// shells are the programs whose -c operand is a script.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "ash": true, "mksh": true, "fish": true}

// isShellScript reports whether argv[i] is the operand of a shell's -c
// option (-c, -lc, -ec, ...), with the shell somewhere before it (env,
// sudo, docker exec, ssh may come first).
func isShellScript(argv []string, i int) bool {
	if i < 2 || !isCOption(argv[i-1]) {
		return false
	}
	for _, a := range argv[:i-1] {
		if shells[filepath.Base(a)] {
			return true
		}
	}
	return false
}

// isCOption reports a cluster of short options that includes c.
func isCOption(a string) bool {
	if len(a) < 2 || a[0] != '-' || a[1] == '-' || !strings.Contains(a, "c") {
		return false
	}
	return strings.Trim(a[1:], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == ""
}

// scriptSecret checks a shell script's words and returns the script with
// every credential replaced, and what the first one is.
func scriptSecret(script string) (redacted, what string, ok bool) {
	words := shellWords(script)
	fs := findSecrets(words)
	if len(fs) == 0 {
		return "", "", false
	}
	redacted = script
	for _, f := range fs {
		secret := removed(words[f.index], f.redacted)
		if secret == "" || !strings.Contains(redacted, secret) {
			return Redacted, fs[0].what, true
		}
		redacted = strings.ReplaceAll(redacted, secret, Redacted)
	}
	return redacted, fs[0].what, true
}

// removed is the part of orig that redaction replaced: what lies between
// their common prefix and common suffix.
func removed(orig, red string) string {
	p := 0
	for p < len(orig) && p < len(red) && orig[p] == red[p] {
		p++
	}
	s := 0
	for s < len(orig)-p && s < len(red)-p && orig[len(orig)-1-s] == red[len(red)-1-s] {
		s++
	}
	return orig[p : len(orig)-s]
}

// shellWords splits a script into words: whitespace and the operators
// ; & | ( ) < > end a word, quotes and backslashes are removed as the
// shell removes them, and a # at the start of a word comments out the
// rest of its line. Expansions stay as written ($TOKEN).
func shellWords(script string) []string {
	var words []string
	var w strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, w.String())
		}
		w.Reset()
		inWord = false
	}
	for i := 0; i < len(script); i++ {
		c := script[i]
		switch {
		case c == '#' && !inWord:
			for i < len(script) && script[i] != '\n' {
				i++
			}
		case strings.IndexByte(" \t\n;&|()<>", c) >= 0:
			flush()
		case c == '\'':
			i = quoted(script, i, '\'', &w)
			inWord = true
		case c == '"':
			i = quoted(script, i, '"', &w)
			inWord = true
		case c == '\\' && i+1 < len(script):
			i++
			w.WriteByte(script[i])
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return words
}

// quoted copies the quoted text that starts at script[open] into w and
// returns the index of the closing quote (or the end). Inside double
// quotes a backslash escapes only $ ` " \ and newline, as in sh.
func quoted(script string, open int, q byte, w *strings.Builder) int {
	i := open + 1
	for ; i < len(script) && script[i] != q; i++ {
		if q == '"' && script[i] == '\\' && i+1 < len(script) && strings.IndexByte("$`\"\\\n", script[i+1]) >= 0 {
			i++
		}
		w.WriteByte(script[i])
	}
	return i
}
