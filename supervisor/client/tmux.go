package client

// This file is the client's side of adopt-tmux (docs/protocol.md,
// "adopt-tmux"): which tmux server the user means, and the call.

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"clowder/supervisor/proto"
)

// TmuxSocket is the socket path of the tmux server that `tmux -L label`
// or `tmux -S path` (at most one of them set) would talk to, chosen as
// tmux 3 chooses it: -S as given, else $TMUX's socket when set, else the
// label (default "default") in $TMUX_TMPDIR (or /tmp) /tmux-UID/.
func TmuxSocket(label, path string, getenv func(string) string) (string, error) {
	switch {
	case label != "" && path != "":
		return "", errors.New("adopt tmux: give -L NAME or -S PATH, not both")
	case path != "":
		return filepath.Abs(path)
	case label == "":
		if s := getenv("TMUX"); s != "" && s[0] != ',' {
			sock, _, _ := strings.Cut(s, ",")
			return sock, nil
		}
		label = "default"
	}
	if strings.ContainsRune(label, '/') {
		return "", errors.New("adopt tmux: -L takes a socket name without /; give a path with -S")
	}
	dir := getenv("TMUX_TMPDIR")
	if dir == "" {
		dir = "/tmp"
	}
	base := filepath.Join(dir, "tmux-"+strconv.Itoa(os.Getuid()))
	if real, err := filepath.EvalSymlinks(base); err == nil {
		base = real // tmux resolves the directory with realpath
	}
	return filepath.Join(base, label), nil
}

// AdoptTmux brings an existing tmux pane in as a clowder pane
// (proto.AdoptTmuxReq). It is not retried on a lost connection: the pane
// may have been adopted already (a second try is refused as a conflict).
func (c *Client) AdoptTmux(ctx context.Context, req proto.AdoptTmuxReq) (proto.AdoptedReply, error) {
	r, err := call[*proto.AdoptedReply](ctx, c, req)
	if err != nil {
		return proto.AdoptedReply{}, err
	}
	return *r, nil
}
