//go:build race

package supervisor

// raceBuild reports a -race build, whose shadow memory multiplies a
// process's RSS several times over.
const raceBuild = true
