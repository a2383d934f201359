//go:build integration

// Package only builds only with the integration tag.
package only

func Helper() {}
