//go:build race

package testproc

// RaceBuild reports a -race build, whose shadow memory multiplies a
// process's RSS several times over.
const RaceBuild = true
