// Package tested is clean; its external test is not.
package tested

// Double doubles x.
func Double(x int) int { return 2 * x }
