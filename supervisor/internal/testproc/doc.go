// Package testproc is what the process tests of every supervisor package
// share: the fake agent (the test binary re-executed in one exact
// behaviour), the no-orphan oracle, and an output buffer with
// deadline-bounded waits.
//
// It is imported only by _test.go files. It must never import supervisor or
// its sub-packages, so that supervisor's own in-package tests can use it, and
// so that the oracle judges process identity independently of the code under
// test.
package testproc
