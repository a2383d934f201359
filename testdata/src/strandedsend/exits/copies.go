package exits

import "context"

func copyBlob(ctx context.Context, digest string) error { return nil }

type image struct {
	config string
	layers []string
}

// An image copy that starts a goroutine for the config and one per
// layer, leaves its first wait loop on a default when nothing has
// finished, and may then return on a failed listing: any number of
// copies can still be out, so no capacity at the make holds them.
func copyImage(ctx context.Context, img image, list func() error) error {
	waitCh := make(chan error)
	waitCount := 0
	if img.config != "" {
		waitCount++
		go func() {
			waitCh <- copyBlob(ctx, img.config) // want `send on unbuffered waitCh blocks forever once the receiver leaves \(default at copies.go:\d+\); goroutines leak, as many as have not sent — select on ctx.Done\(\) or a done channel as well`
		}()
	}
	for _, l := range img.layers {
		waitCount++
		go func() {
			waitCh <- copyBlob(ctx, l)
		}()
	}
	var err error
	done := false
	for !done && waitCount > 0 {
		select {
		case err = <-waitCh:
			waitCount--
		default:
			done = true
		}
	}
	if err != nil {
		return err
	}
	if err := list(); err != nil {
		return err
	}
	for waitCount > 0 {
		<-waitCh
		waitCount--
	}
	return nil
}

// The twin that copies the config alone: one goroutine, and a buffer of
// one holds its value.
func copyConfig(ctx context.Context, img image, list func() error) error {
	waitCh := make(chan error)
	waitCount := 0
	if img.config != "" {
		waitCount++
		go func() {
			waitCh <- copyBlob(ctx, img.config) // want `send on unbuffered waitCh blocks forever once the receiver leaves \(default at copies.go:\d+\); the goroutine leaks — make waitCh buffered`
		}()
	}
	var err error
	done := false
	for !done && waitCount > 0 {
		select {
		case err = <-waitCh:
			waitCount--
		default:
			done = true
		}
	}
	if err != nil {
		return err
	}
	if err := list(); err != nil {
		return err
	}
	for waitCount > 0 {
		<-waitCh
		waitCount--
	}
	return nil
}
