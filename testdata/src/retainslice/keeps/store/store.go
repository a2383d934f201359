// Package store keeps what it is given: a cache of keys, a registry of
// names. Its functions are not reported themselves (a parameter is not a
// piece of anything here); the Keeps facts tell callers in other
// packages that a piece passed to them outlives the call.
package store

import "sync"

// A Cache remembers keys.
type Cache struct {
	mu   sync.Mutex
	keys map[string]int
	last []byte
}

// Put keeps key as a map key of the cache.
func (c *Cache) Put(key string, n int) { // want Put:`keeps\(p1->p0\)`
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keys[key] = n
}

// Touch keeps b in a field.
func (c *Cache) Touch(b []byte) { // want Touch:`keeps\(p1->p0\)`
	c.last = b
}

// Lookup only reads key: no fact.
func (c *Cache) Lookup(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.keys[key]
}

// PutCopy keeps a copy: no fact.
func (c *Cache) PutCopy(key []byte, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keys[string(key)] = n
}

var (
	mu    sync.Mutex
	names []string
)

// Register keeps name in a global list.
func Register(name string) { // want Register:`keeps\(p0->global\)`
	mu.Lock()
	defer mu.Unlock()
	names = append(names, name)
}

// An Entry holds a key.
type Entry struct{ Key string }

// NewEntry keeps key only in what it returns: whether that outlives the
// caller is the caller's business, so no fact.
func NewEntry(key string) *Entry {
	e := &Entry{}
	e.Key = key
	return e
}

// Publish sends line to a listener.
func Publish(ch chan<- string, line string) { // want Publish:`keeps\(p1->p0\)`
	ch <- line
}
