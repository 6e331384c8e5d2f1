// Package client is what the TUI and the CLI use to talk to a host:
// dialing, starting one on demand, trust checks of the socket and its
// process, calls and subscriptions.
//
// It speaks proto and uses supervisor only for process identity (is the
// host the process it claims to be); it never imports host.
package client
