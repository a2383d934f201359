package waits

import "sync"

// A cache reloaded in the background: the loader holds the cache's lock
// while it sends the new size, and the caller takes the same lock before
// it receives. If the loader locks first, each waits for the other.
type cache struct {
	mu   sync.Mutex
	data map[string]int
}

func (c *cache) refresh(load func() map[string]int) int {
	sizes := make(chan int)
	go func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.data = load()
		sizes <- len(c.data) // want `send on unbuffered sizes blocks forever when its sender takes c\.mu first: \(\*cache\)\.refresh locks c\.mu \(c\.mu\.Lock\(\) at locks\.go:21\) before receiving, and the sender holds it while it sends; they wait for each other — unlock c\.mu before sending, or make sizes's capacity 1$`
	}()
	c.mu.Lock()
	old := len(c.data)
	c.mu.Unlock()
	return <-sizes - old
}

// ok: the twin whose loader unlocks before it sends.
func (c *cache) refreshUnlocked(load func() map[string]int) int {
	sizes := make(chan int)
	go func() {
		c.mu.Lock()
		c.data = load()
		n := len(c.data)
		c.mu.Unlock()
		sizes <- n
	}()
	c.mu.Lock()
	old := len(c.data)
	c.mu.Unlock()
	return <-sizes - old
}

// ok: the twin that receives before it locks.
func (c *cache) refreshFirst(load func() map[string]int) int {
	sizes := make(chan int)
	go func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.data = load()
		sizes <- len(c.data)
	}()
	n := <-sizes
	c.mu.Lock()
	defer c.mu.Unlock()
	return n - len(c.data)
}

// A registry behind a package-level RWMutex: the writer holds the write
// lock while it reports, and the reader's read lock waits for it.
var (
	registryMu sync.RWMutex
	registry   = map[string]int{}
)

func register(name string, v int) bool {
	added := make(chan bool)
	go func() {
		registryMu.Lock()
		_, had := registry[name]
		registry[name] = v
		added <- !had // want `send on unbuffered added blocks forever when its sender takes registryMu first: register locks registryMu \(registryMu\.RLock\(\) at locks\.go:74\) before receiving, and the sender holds it while it sends; they wait for each other — unlock registryMu before sending, or make added's capacity 1$`
		registryMu.Unlock()
	}()
	registryMu.RLock()
	n := len(registry)
	registryMu.RUnlock()
	return <-added && n >= 0
}

// ok: a sender holding only the read lock does not stop another reader.
func lookup(name string) int {
	found := make(chan int)
	go func() {
		registryMu.RLock()
		defer registryMu.RUnlock()
		found <- registry[name]
	}()
	registryMu.RLock()
	n := len(registry)
	registryMu.RUnlock()
	return <-found + n
}

// ok: room for the one value, so the sender's send does not wait.
func registerBuffered(name string, v int) bool {
	added := make(chan bool, 1)
	go func() {
		registryMu.Lock()
		defer registryMu.Unlock()
		_, had := registry[name]
		registry[name] = v
		added <- !had
	}()
	registryMu.RLock()
	n := len(registry)
	registryMu.RUnlock()
	return <-added && n >= 0
}

// ok: the receiver locks another cache's mutex, not the one held.
func (c *cache) refreshOther(other *cache, load func() map[string]int) int {
	sizes := make(chan int)
	go func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.data = load()
		sizes <- len(c.data)
	}()
	other.mu.Lock()
	old := len(other.data)
	other.mu.Unlock()
	return <-sizes - old
}

// size locks the cache first thing.
func (c *cache) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.data)
}

// peek locks only when asked to.
func (c *cache) peek(locked bool) int {
	if !locked {
		c.mu.Lock()
		defer c.mu.Unlock()
	}
	return len(c.data)
}

// The receiver takes the lock through a method that locks first thing.
func (c *cache) reload(load func() map[string]int) int {
	sizes := make(chan int)
	go func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.data = load()
		sizes <- len(c.data) // want `send on unbuffered sizes blocks forever when its sender takes c\.mu first: \(\*cache\)\.reload locks c\.mu \(c\.size\(\) at locks\.go:\d+\) before receiving, and the sender holds it while it sends; they wait for each other — unlock c\.mu before sending, or make sizes's capacity 1$`
	}()
	old := c.size()
	return <-sizes - old
}

// ok: a method that may not lock is not a wait for the mutex.
func (c *cache) reloadPeek(load func() map[string]int) int {
	sizes := make(chan int)
	go func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.data = load()
		sizes <- len(c.data)
	}()
	old := c.peek(true)
	return <-sizes - old
}

// ok: another cache's method locks another mutex.
func (c *cache) reloadOther(other *cache, load func() map[string]int) int {
	sizes := make(chan int)
	go func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.data = load()
		sizes <- len(c.data)
	}()
	old := other.size()
	return <-sizes - old
}
