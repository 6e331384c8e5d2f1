// Package host is the server behind `clowder host` (host.Server): it owns
// the panes, their output rings and vtgrid screens, screen frames,
// subscriptions, waits, the registry (agents.json), re-adoption of panes
// from a client's escrow after a host crash (escrow.go) and the request
// handlers, and serves protocol v1 on a unix socket.
//
// It starts and stops processes through supervisor and speaks only
// proto; it never imports client. cmd/clowder imports it only to run it.
package host
