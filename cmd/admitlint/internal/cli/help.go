package cli

import (
	"flag"
	"fmt"
	"strings"
)

func (c *command) usage() {
	fmt.Fprintf(c.stderr, `admitlint finds goroutine patterns that turn overload into unbounded queues, leaks and out-of-memory crashes.

Usage:
	admitlint [flags] packages…   analyse packages (any go list pattern: ./..., std)
	admitlint help                list the passes
	admitlint help <pass>         describe a pass and its flags
	go vet -vettool=$(command -v admitlint) [flags] packages…

Exit codes: 0 no findings, 1 a package failed to load or analyse, 2 bad usage, 3 findings.

Flags:
`)
	c.flags.VisitAll(func(f *flag.Flag) {
		if !c.passArgs[f.Name] {
			printFlag(c, f)
		}
	})
	fmt.Fprintf(c.stderr, "\nPass flags (-<pass>=false disables a pass; -<pass> alone runs only the passes named):\n")
	c.flags.VisitAll(func(f *flag.Flag) {
		if c.passArgs[f.Name] {
			printFlag(c, f)
		}
	})
}

func printFlag(c *command, f *flag.Flag) {
	def := ""
	if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "unset" {
		def = fmt.Sprintf(" (default %s)", f.DefValue)
	}
	fmt.Fprintf(c.stderr, "  -%s\n    \t%s%s\n", f.Name, f.Usage, def)
}

// help prints the list of passes, or the documentation of the named ones.
func (c *command) help(names []string) int {
	if len(names) == 0 {
		fmt.Fprintf(c.stdout, "admitlint %s: passes\n\n", Version())
		for _, a := range c.analyzers {
			title, _, _ := strings.Cut(a.Doc, "\n")
			fmt.Fprintf(c.stdout, "    %s\n", title)
		}
		fmt.Fprintf(c.stdout, "\nadmitlint help <pass> describes a pass and its flags; admitlint -help lists the command's flags.\n")
		return ExitClean
	}
	code := ExitClean
	for _, name := range names {
		found := false
		for _, a := range c.analyzers {
			if a.Name != name {
				continue
			}
			found = true
			fmt.Fprintf(c.stdout, "%s\n\nDocumentation: %s\n", a.Doc, a.URL)
			first := true
			a.Flags.VisitAll(func(f *flag.Flag) {
				if first {
					fmt.Fprintf(c.stdout, "\nFlags:\n")
					first = false
				}
				fmt.Fprintf(c.stdout, "  -%s.%s\n    \t%s (default %q)\n", a.Name, f.Name, f.Usage, f.DefValue)
			})
		}
		if !found {
			fmt.Fprintf(c.stderr, "admitlint: no pass named %q; admitlint help lists them\n", name)
			code = ExitUsage
		}
	}
	return code
}
