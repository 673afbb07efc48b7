//go:build !unix

package loadtest

// ensureFiles does nothing where there is no RLIMIT_NOFILE.
func ensureFiles(int) error { return nil }
