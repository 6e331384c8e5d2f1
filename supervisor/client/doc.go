// Package client is what the TUI and the CLI use to talk to a host:
// dialing, starting one on demand, trust checks of the socket and its
// process, calls and subscriptions.
//
// It speaks proto and imports neither supervisor nor host, so a program
// built on it (the TUI) links no spawn or kill code.
package client
