//go:build ignore

package tagged

this file is never built, so its syntax does not matter
