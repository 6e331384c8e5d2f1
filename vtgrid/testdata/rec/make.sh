#!/bin/sh
# make.sh re-records the real-program corpus of vtgrid/testdata/rec at 120x40.
# Run from the main module root: sh vtgrid/testdata/rec/make.sh [NAME...]
# It builds fixtures in a temporary directory; Claude Code and Codex must be
# installed under $NPMDIR (npm install @anthropic-ai/claude-code @openai/codex).
# Recordings differ run to run (timings, dates, versions); review the screens
# with the harness before committing new ones.
set -eu
OUT=$(pwd)/vtgrid/testdata/rec
W=${WORK:-/tmp/vtrec}
NPMDIR=${NPMDIR:-$W/npm}
mkdir -p "$W"
go build -o "$W/record" vtgrid/testdata/record.go
R="$W/record -size 120x40"

fixtures() {
	rm -rf "$W/edit" "$W/lsdir" "$W/gitrepo" "$W/home"
	mkdir -p "$W/edit" "$W/home"
	cp "$OUT/grid.go.txt" "$W/edit/grid.go"
	# A directory with every kind of file ls colours.
	D="$W/lsdir"
	mkdir -p "$D" && cd "$D"
	mkdir src docs .hidden_dir sticky_other other_writable
	chmod 1777 sticky_other; chmod 0777 other_writable
	printf 'hello\n' >README.md; printf '#!/bin/sh\necho hi\n' >run.sh; chmod +x run.sh
	cp /bin/true setuid_prog; chmod u+s setuid_prog; cp /bin/true setgid_prog; chmod g+s setgid_prog
	ln -s README.md link_to_readme; ln -s missing_target broken_link; ln -s src link_to_dir
	mkfifo a_fifo; python3 -c "import socket; socket.socket(socket.AF_UNIX).bind('$D/a_socket')"
	head -c 2000 /dev/zero >archive.tar.gz; head -c 300 /dev/zero >photo.png; head -c 500 /dev/zero >clip.mp4
	echo x >song.flac; echo x >.bashrc; echo '{}' >data.json; echo é >'café ünïcode.txt'
	echo wide >'日本語ファイル.txt'; touch 'file with spaces.txt' empty; head -c 123456 /dev/zero >big.bin
	find . -exec touch -h -d '2024-05-01 12:34:56' {} +
	# A repository with branches, merges, a tag and a Unicode commit.
	G="$W/gitrepo"; mkdir -p "$G"; cd "$G"
	export GIT_AUTHOR_NAME="Ada Lovelace" GIT_AUTHOR_EMAIL=ada@example.com
	export GIT_COMMITTER_NAME="Ada Lovelace" GIT_COMMITTER_EMAIL=ada@example.com HOME="$W/home"
	n=0
	c() {
		n=$((n + 1))
		export GIT_AUTHOR_DATE="2024-03-0$((n % 9 + 1))T10:0$((n % 10)):00Z" GIT_COMMITTER_DATE="2024-03-0$((n % 9 + 1))T10:0$((n % 10)):00Z"
		echo "$1 $n" >>f.txt; git add f.txt; git commit -q -m "$1"
	}
	git init -q -b main .
	c "Initial commit"; c "Add parser skeleton"; c "Add grid"
	git checkout -q -b feature/scrollback; c "Scrollback ring buffer"; c "Reflow on resize"
	git checkout -q main; git checkout -q -b fix/wide-chars; c "Fix wide char at right margin"
	git checkout -q main; c "Document the API"
	export GIT_AUTHOR_DATE="2024-03-09T11:00:00Z" GIT_COMMITTER_DATE="2024-03-09T11:00:00Z"
	git merge -q --no-ff -m "Merge branch 'feature/scrollback'" -X theirs feature/scrollback
	git merge -q --no-ff -m "Merge branch 'fix/wide-chars'" -X theirs fix/wide-chars
	git tag -a v0.1.0 -m "release v0.1.0"; git checkout -q -b topic/ünïcode-täg
	c "Unicode commit message: 日本語 ✓ émoji 🎉"; git checkout -q main; c "Bump version"
	cd "$OUT/../../.."
}

rec_ls() {
	LSC=$(bash -c 'eval "$(dircolors -b)"; echo "$LS_COLORS"')
	$R -o "$OUT/ls.bin" -dir "$W/lsdir" -env "LS_COLORS=$LSC" -env TZ=UTC -- ls --color=always -la
}

rec_gitlog() {
	$R -o "$OUT/gitlog.bin" -dir "$W/gitrepo" -env HOME="$W/home" -env TZ=UTC -- \
		git --no-pager log --graph --color=always --decorate=short --all --stat --date=iso
}

rec_vim() {
	$R -o "$OUT/vim.bin" -dir "$W/edit" -env HOME="$W/home" \
		-step 'wait:grid.go' -step 'idle:300ms' \
		-step 'send::syntax on\r' -step 'idle:200ms' \
		-step 'send::set number\r' -step 'idle:200ms' \
		-step 'send:/func\r' -step 'idle:200ms' -step 'send:n' -step 'idle:200ms' \
		-step 'send:O// Set ignores writes outside the grid; wide runes take two cells: 日本語 ✓\x1b' -step 'idle:200ms' \
		-step 'send:Gonew line at the end\rand another\x1b' -step 'idle:200ms' \
		-step 'send:gg' -step 'idle:200ms' -step 'send:5j' -step 'idle:100ms' -step 'send:dd' -step 'idle:100ms' \
		-step 'send:u' -step 'idle:200ms' \
		-step 'send::set cursorline list\r' -step 'idle:200ms' \
		-step 'send:/Width\r' -step 'idle:200ms' \
		-step 'send::vsplit\r' -step 'idle:300ms' \
		-step 'send:\x17l30G' -step 'idle:300ms' \
		-step 'send::echo "done"\r' -step 'wait:done' -step 'idle:300ms' -step 'end:' \
		-- vim -N -u DEFAULTS -i NONE grid.go
}

rec_less() {
	$R -o "$OUT/less.bin" -dir "$W" -env HOME="$W/home" -env LESSHISTFILE=- \
		-step 'wait:GNU' -step 'idle:300ms' -step 'send: ' -step 'idle:200ms' \
		-step 'send:/software\r' -step 'idle:300ms' -step 'send:n' -step 'idle:200ms' -step 'send:n' -step 'idle:200ms' \
		-step 'send:N' -step 'idle:200ms' -step 'send:G' -step 'idle:200ms' -step 'send:?Program\r' -step 'idle:300ms' \
		-step 'send:-N\r' -step 'idle:300ms' -step 'send:kkkk' -step 'idle:300ms' -step 'end:' \
		-- less /usr/share/common-licenses/GPL-3
}

rec_curses() {
	$R -o "$OUT/curses.bin" -dir "$W" -step 'wait:curses demo' -step 'idle:300ms' \
		-step 'send:\x1bOB' -step 'idle:200ms' -step 'send:\x1bOB' -step 'idle:200ms' -step 'send:\x1bOB' -step 'idle:200ms' \
		-step 'send:\x1bOB' -step 'idle:200ms' -step 'send:\x1bOA' -step 'idle:300ms' -step 'end:' \
		-- python3 "$OUT/curses_demo.py"
}

rec_man() {
	$R -o "$OUT/man.bin" -dir "$W" -env HOME="$W/home" -env LESSHISTFILE=- -env MANPAGER=less -env PAGER=less \
		-step 'wait:NAME' -step 'idle:500ms' -step 'send:/sort\r' -step 'idle:300ms' -step 'send:n' -step 'idle:300ms' \
		-step 'send:d' -step 'idle:300ms' -step 'end:' -- man ls
}

rec_claude_offline() {
	rm -rf "$W/home-claude-offline"; mkdir -p "$W/home-claude-offline"
	$R -o "$OUT/claude-offline.bin" -dir "$W/edit" -env HOME="$W/home-claude-offline" -env PATH="$NPMDIR/node_modules/.bin:/usr/bin:/bin" \
		-- "$NPMDIR/node_modules/.bin/claude" # it exits by itself
}

rec_claude() {
	rm -rf "$W/home-claude"; mkdir -p "$W/home-claude"
	echo '{"hasCompletedOnboarding": true, "theme": "dark"}' >"$W/home-claude/.claude.json"
	$R -o "$OUT/claude.bin" -dir "$W/edit" -env HOME="$W/home-claude" -env PATH="$NPMDIR/node_modules/.bin:/usr/bin:/bin" -timeout 30s \
		-step 'wait:trust' -step 'idle:1s' -step 'send:\x1b[B' -step 'idle:500ms' -step 'send:\x1b[A' -step 'idle:500ms' \
		-step 'send:\r' -step 'wait:for shortcuts' -step 'idle:2s' -step 'send:/' -step 'idle:1s' -step 'send:he' -step 'idle:1s' \
		-step 'send:\x1b' -step 'idle:1s' -step 'send:explain grid.go, then add tests 日本語 ✓' -step 'idle:1s' \
		-step 'send:\x1b[D\x1b[D\x1b[D' -step 'idle:1s' -step 'end:' -- "$NPMDIR/node_modules/.bin/claude"
}

rec_codex() {
	rm -rf "$W/home-codex"; mkdir -p "$W/home-codex"
	# --no-daemon: no app-server process that outlives the recording.
	$R -o "$OUT/codex.bin" -dir "$W/edit" -env HOME="$W/home-codex" -env PATH="$NPMDIR/node_modules/.bin:/usr/bin:/bin" -timeout 30s \
		-step 'wait:Press enter' -step 'idle:1s' -step 'send:\x1b[B' -step 'idle:500ms' -step 'send:\x1b[B' -step 'idle:500ms' \
		-step 'send:\r' -step 'idle:1500ms' -step 'send:\x1b[B' -step 'idle:1s' -step 'end:' \
		-- "$NPMDIR/node_modules/.bin/codex" --no-daemon
}

fixtures
for n in ${@:-ls gitlog vim less curses man claude_offline claude codex}; do
	"rec_$n"
done
