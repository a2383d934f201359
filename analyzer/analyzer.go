// Package analyzer is the admitlint suite: every pass, in a fixed order,
// and the settings that configure them. The admitlint command, its
// golangci-lint plugin and anything else that embeds admitlint start here.
package analyzer

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/admitlint/admitlint/passes/directives"
	"github.com/admitlint/admitlint/passes/lateacquire"
	"github.com/admitlint/admitlint/passes/retainslice"
	"github.com/admitlint/admitlint/passes/strandedsend"
)

// All lists every admitlint analyzer with its default settings, in the
// order help, output and SARIF rules use. Each one is also exported by its
// own package (passes/<name>) for drivers such as nogo that take analyzers
// one by one.
var All = []*analysis.Analyzer{
	lateacquire.Analyzer,
	strandedsend.Analyzer,
	retainslice.Analyzer,
	directives.Analyzer,
}

// Settings configures the suite. Its JSON form is what golangci-lint's
// .golangci.yml carries under linters.settings.custom.admitlint.settings;
// the admitlint command sets the same fields through -<pass>.<setting>
// flags. Start from Defaults: each pass states its own defaults once.
type Settings struct {
	// Disable names passes not to run.
	Disable []string `json:"disable"`

	Lateacquire  lateacquire.Config  `json:"lateacquire"`
	Strandedsend strandedsend.Config `json:"strandedsend"`
	Retainslice  retainslice.Config  `json:"retainslice"`
}

// Defaults returns the settings every pass starts from.
func Defaults() Settings {
	return Settings{
		Lateacquire:  lateacquire.Defaults(),
		Strandedsend: strandedsend.Defaults(),
		Retainslice:  retainslice.Defaults(),
	}
}

// New returns the analyzers the settings enable, each built for its own
// settings, in the order of All.
func New(s Settings) ([]*analysis.Analyzer, error) {
	for _, name := range s.Disable {
		if !slices.ContainsFunc(All, func(a *analysis.Analyzer) bool { return a.Name == name }) {
			return nil, fmt.Errorf("admitlint: cannot disable unknown pass %q (passes: %s)", name, strings.Join(Names(), ", "))
		}
	}
	var enabled []*analysis.Analyzer
	for _, a := range []*analysis.Analyzer{
		lateacquire.New(s.Lateacquire),
		strandedsend.New(s.Strandedsend),
		retainslice.New(s.Retainslice),
		directives.Analyzer,
	} {
		if !slices.Contains(s.Disable, a.Name) {
			enabled = append(enabled, a)
		}
	}
	return enabled, nil
}

// Names returns the names of all analyzers, in order.
func Names() []string {
	names := make([]string, len(All))
	for i, a := range All {
		names[i] = a.Name
	}
	return names
}
