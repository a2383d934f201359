// Package lengths holds functions that return a length, and twins that
// return a count of another kind: package uselengths counts up to them.
package lengths

// A Queue holds the pending jobs.
type Queue struct {
	items []string
}

// Len is the number of jobs: a length, known to importers as a fact.
func (q *Queue) Len() int { // want Len:`length\(q.items\)`
	return len(q.items)
}

// At returns job i.
func (q *Queue) At(i int) string { return q.items[i] }

// Count returns the length of what it is given.
func Count(keys map[string]bool) int { // want Count:`length\(keys\)`
	return len(keys)
}

// A Pool runs a configured number of workers.
type Pool struct {
	workers int
	items   []string
}

// Workers is a configured count, not a length: no fact.
func (p *Pool) Workers() int { return p.workers }

// Capped is a length on one path only: no fact.
func (p *Pool) Capped() int {
	if len(p.items) > p.workers {
		return p.workers
	}
	return len(p.items)
}

// A Ring has a fixed number of slots.
type Ring struct {
	slots [8]string
}

// Size is the length of an array, a constant: no fact.
func (r *Ring) Size() int { return len(r.slots) }
