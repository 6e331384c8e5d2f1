package main

// The host process itself: `clowder host --foreground`.

import (
	"context"
	"log"
	"os"
	"os/signal"
	"syscall"

	"clowder/supervisor"
)

// runHost serves until SIGINT or SIGTERM (or the host decides to stop).
func runHost(parent context.Context, a *app) error {
	p, cfg, err := a.setup()
	if err != nil {
		return err
	}
	logger := log.New(a.stderr, "clowder host: ", log.LstdFlags|log.Lmicroseconds)
	h, err := supervisor.NewHost(supervisor.HostOptions{Paths: p, Config: cfg, Build: version, Log: logger})
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	defer stop()
	return h.Serve(ctx)
}
