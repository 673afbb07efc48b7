//go:build race

package demo

// The race detector's shadow memory multiplies a process's RSS (7× the
// hostile demo's file where the plain build stays at 2.6×).
func init() { raceBuild = true }
