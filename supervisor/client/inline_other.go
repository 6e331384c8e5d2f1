//go:build !unix

package client

// inlineReads is whether a call may read its own reply here: the reader
// goroutine always reads.
const inlineReads = false

// readable is never called here.
func readable(uintptr) bool { return true }
