#!/bin/sh
# cap.sh is how the golden screens were captured: helpers to drive a real
# CLI in a 100x30 tmux pane (its own server, -L clowder-screens) and save
# the screen as text, with "⌶" where the cursor is.
#
#   . panes/testdata/screens/cap.sh
#   start NAME HOME-DIR CMD...   # new session NAME running CMD
#   waitfor NAME TEXT            # until TEXT is on the screen (60s)
#   cap NAME FILE                # save the screen to FILE
#   tmux -L clowder-screens send-keys -t NAME ...
#   stop NAME
T="tmux -L clowder-screens"
start() {
	n=$1 h=$2; shift 2
	mkdir -p "$h" /tmp/clowder-screens/proj
	$T new-session -d -s "$n" -x 100 -y 30 -c /tmp/clowder-screens/proj \
		env -i HOME="$h" PATH="/work/npmcache/node_modules/.bin:/usr/local/bin:/usr/bin:/bin" \
		TERM=xterm-256color COLORTERM=truecolor LANG=C.UTF-8 \
		ANTHROPIC_API_KEY=sk-ant-fake-test-key-0000000000 OPENAI_API_KEY=sk-fake GEMINI_API_KEY=fake "$@"
	$T set-option -t "$n" remain-on-exit on >/dev/null
}
waitfor() {
	local i=0
	while ! $T capture-pane -p -t "$1" 2>/dev/null | grep -qF -- "$2"; do
		$T has-session -t "$1" 2>/dev/null || { echo "$1 ended" >&2; return 1; }
		i=$((i + 1)); [ $i -gt 600 ] && { echo "timeout waiting for $2" >&2; return 1; }
		sleep 0.1
	done
}
cap() {
	xy=$($T display -p -t "$1" '#{cursor_x} #{cursor_y}')
	$T capture-pane -p -t "$1" | python3 -c '
import sys
x, y = map(int, sys.argv[1].split())
lines = sys.stdin.read().split("\n")
if lines and lines[-1] == "": lines.pop()
while len(lines) <= y: lines.append("")
l = lines[y]; l = l + " " * max(0, x - len(l))
lines[y] = l[:x] + "\u2336" + l[x:]
sys.stdout.write("\n".join(lines) + "\n")' "$xy" >"$2"
}
# stop ends the session and the CLI's process group: Gemini CLI ignores
# the hangup that kill-session sends.
stop() {
	pid=$($T display -p -t "$1" '#{pane_pid}')
	$T kill-session -t "$1"
	kill -TERM -- "-$pid" 2>/dev/null || true
}
