# clowder — one entry point for building, testing and measuring.
GO        ?= go
FUZZTIME  ?= 30s
PKGS      := ./...
BIN       ?= bin/clowder
# The version `clowder --version` and `host status` report; a build without
# it (go test, go run) says "dev".
VERSION   ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
# The pure Go resolver and user lookup (ARCHITECTURE.md, Build): nothing in
# clowder needs libc, and without cgo the binary is static, so every CLI
# command and the host skip the dynamic loader and libc's pages (issue 12).
TAGS      ?= netgo,osusergo

.PHONY: build test lint fmtcheck fuzz golden bench vtdiff run e2e e2e-agents faults clean

build:
	$(GO) build -tags $(TAGS) -ldflags "-X main.version=$(VERSION)" -o $(BIN) ./cmd/clowder

# The one test command (.ci/run calls it): format, vet, every test with the
# race detector (vtdiff's fast subset included), the darwin cross-vet (tests included), and
# the bench module's own tests. -count=1: a second run really runs, instead
# of replaying cached results that would hide a flaky test.
test: fmtcheck
	$(GO) vet $(PKGS)
	$(GO) test -race -count=1 -timeout 15m $(PKGS)
	GOOS=darwin $(GO) vet $(PKGS)
	cd bench && $(GO) vet ./... && $(GO) test -count=1 -timeout 10m ./...

fmtcheck:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

lint: fmtcheck
	$(GO) vet $(PKGS)
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 $(PKGS)

# Longer fuzzing of every fuzz target (seeds already run in `make test`).
fuzz:
	@for spec in $$(grep -rl --include='*_test.go' '^func Fuzz' . | grep -v '^./bench'); do \
	  dir=$$(dirname $$spec); \
	  for f in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' $$spec | cut -d' ' -f2); do \
	    echo "== $$dir $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$dir || exit 1; \
	  done; \
	done

# Regenerate golden files (protocol bytes, TUI views); review the diff like
# code.
golden:
	$(GO) test ./supervisor/proto/ ./tui/ -run 'Golden|View' -update

# The full differential corpus against tmux.
vtdiff:
	VTDIFF=full $(GO) test -count=1 -run 'VTDiff' -v ./vtgrid/ | grep -E '^(vtdiff|\s+vtdiff|---|ok|FAIL)|differ'

# Side-by-side figures with tmux and the other emulators (bench/README.md),
# then the in-process benchmarks: vtgrid's parser and the TUI's frame build.
bench:
	cd bench && $(GO) run ./cmd/report
	$(GO) test -run '^$$' -bench . -benchmem ./vtgrid/ ./tui/

# The fault-injection suite in full (docs/testing.md): crashes, full disks,
# spawn/kill cycles, each at its full count (CLOWDER_FAULTS=full); `make
# test` runs the same tests at a fast count. A fault test matches FAULTS.
FAULTS ?= Killed|Crash|SIGKILL|FullDisk|Cycles|AgentsJSON|Secret|CheckArgs|PIDReuse|Escrow|Upgrade|BigReplies|SocketGone|SocketIsRemoved|SecondHostOnSameStateDir|HangingUp|SurvivesHost|HostDies|HostLoss|LostInACrash
# The whole output is kept in bin/faults.log; the figures and failures are
# printed.
faults:
	@mkdir -p bin
	@CLOWDER_FAULTS=full $(GO) test -race -count=1 -timeout 30m -run '$(FAULTS)' -v \
	  ./persist/ ./supervisor/... ./cmd/clowder/ >bin/faults.log 2>&1; rc=$$?; \
	grep -E '^(--- (FAIL|SKIP)|\s+\S+_test.go:[0-9]+: |ok|FAIL)' bin/faults.log; exit $$rc

run: build
	$(BIN)

e2e:
	$(GO) test -race -count=1 -run 'E2E' ./...

# The real agent CLIs in clowder panes (docs/testing.md): npm installs each
# into AGENTS_CACHE (a failed install is reported, and that agent's test
# skips saying so), then cmd/clowder's TestAgent* run them. Slow (about a
# minute) and needs npm, so not part of `make test`. The default cache is
# /work/npmcache where it exists (an offline machine's preinstalled copy),
# else ~/.cache/clowder/e2e-agents.
AGENTS_CACHE ?= $(if $(wildcard /work/npmcache/node_modules),/work/npmcache,$(HOME)/.cache/clowder/e2e-agents)
AGENT_PACKAGES ?= @anthropic-ai/claude-code@2.1.197 @openai/codex@0.171.0 @google/gemini-cli@0.61.0
e2e-agents:
	@mkdir -p $(AGENTS_CACHE)
	@for pkg in $(AGENT_PACKAGES); do \
	  echo "== npm install $$pkg into $(AGENTS_CACHE)"; \
	  npm install --prefix $(AGENTS_CACHE) --no-audit --no-fund --prefer-offline $$pkg \
	    || echo "e2e-agents: could not install $$pkg; its test will skip"; \
	done
	@c=$(AGENTS_CACHE)/node_modules/@anthropic-ai/claude-code; \
	if [ -f $$c/install.cjs ] && [ $$(wc -c < $$c/bin/claude.exe) -lt 4096 ]; then \
	  echo "== placing Claude Code's native binary (npm skipped its postinstall)"; \
	  (cd $$c && node install.cjs); \
	fi
	CLOWDER_E2E_AGENTS=$(AGENTS_CACHE)/node_modules/.bin $(GO) test -count=1 -timeout 20m -run 'TestAgent' -v ./cmd/clowder/

clean:
	rm -rf bin
