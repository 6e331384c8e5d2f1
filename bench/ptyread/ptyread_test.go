package ptyread

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestReadSeesEveryByte(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	file := filepath.Join(t.TempDir(), "plain")
	if err := os.WriteFile(file, []byte(strings.Repeat("hello world\r\n", 10000)), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Read(ctx, file, 80, 24)
	if err != nil {
		t.Fatal(err)
	}
	if r.Bytes != 130000 || r.Reads == 0 || r.Wall <= 0 {
		t.Fatalf("result %+v", r)
	}
}
