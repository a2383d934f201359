// Package use calls a spawning helper of its own module and one of
// another module, once per URL each.
package use

import (
	"example.com/app/lib"
	"example.com/helpers"
)

func fetch(string) {}

func FetchAll(urls []string) {
	sem := make(chan struct{}, 8)
	for _, u := range urls {
		lib.Go(sem, func() { fetch(u) })
		helpers.Go(sem, func() { fetch(u) })
	}
}
