// Package ui embeds files its build step makes; in a fresh checkout they
// are not there, so the package does not load.
package ui

import "embed"

//go:embed dist/app
var Files embed.FS
