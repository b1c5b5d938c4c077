// Package leakcheck holds only a test: every package of the module whose
// code starts goroutines checks its tests for leaked ones with goleak.
package leakcheck
