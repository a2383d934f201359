package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/admitlint/admitlint/cmd/admitlint/internal/baseline"
	"github.com/admitlint/admitlint/cmd/admitlint/internal/finding"
)

// filterBaseline drops the findings recorded in the -baseline file and
// says how many it dropped and how many entries matched nothing.
func (c *command) filterBaseline(res *finding.Results) error {
	if c.baseline == "" {
		return nil
	}
	f, err := os.Open(c.baseline)
	if err != nil {
		return fmt.Errorf("reading baseline: %v", err)
	}
	defer f.Close()
	entries, err := baseline.Read(f)
	if err != nil {
		return fmt.Errorf("%s: %v", c.baseline, err)
	}
	fresh, matched, stale := baseline.Filter(res.Findings, entries, c.sources, absDir(c.baseline))
	res.Findings = fresh
	fmt.Fprintf(c.stderr, "admitlint: %d finding(s) matched the baseline %s; %d baseline entr%s no longer match anything\n",
		matched, c.baseline, len(stale), plural(len(stale), "y", "ies"))
	return nil
}

// saveBaseline writes the current findings to the -write-baseline file.
func (c *command) saveBaseline(res *finding.Results) error {
	entries := baseline.Entries(res.Findings, c.sources, absDir(c.writeBaseline))
	f, err := os.Create(c.writeBaseline)
	if err != nil {
		return fmt.Errorf("writing baseline: %v", err)
	}
	if err := baseline.Write(f, entries); err != nil {
		f.Close()
		return fmt.Errorf("writing baseline: %v", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing baseline: %v", err)
	}
	fmt.Fprintf(c.stderr, "admitlint: recorded %d finding(s) in %s\n", len(entries), c.writeBaseline)
	return nil
}

// absDir returns the absolute directory of file: baseline entries name
// files relative to it, so the baseline works from any directory.
func absDir(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return filepath.Dir(file)
	}
	return filepath.Dir(abs)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
