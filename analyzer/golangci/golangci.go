// Package golangci registers admitlint as a golangci-lint v2 module
// plugin. Build a custom golangci-lint that imports it (golangci-lint
// custom, with this package in .custom-gcl.yml) and enable it in
// .golangci.yml:
//
//	version: "2"
//	linters:
//	  default: none
//	  enable: [admitlint]
//	  settings:
//	    custom:
//	      admitlint:
//	        type: module
//	        description: goroutine admission, leaks and retention
//	        settings:
//	          disable: [retainslice]
//	          lateacquire:
//	            strict: true
//
// The settings are analyzer.Settings in YAML: the same names as the
// command's -<pass>.<flag> flags, and the same defaults.
package golangci

import (
	"encoding/json"
	"fmt"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/admitlint/admitlint/analyzer"
)

func init() {
	register.Plugin("admitlint", New)
}

// plugin is admitlint as golangci-lint sees it.
type plugin struct {
	settings analyzer.Settings
}

// New decodes golangci-lint's settings for admitlint over the defaults
// and returns the plugin. Unknown settings are errors, so a typo in
// .golangci.yml is reported instead of silently ignored.
func New(conf any) (register.LinterPlugin, error) {
	s, err := decode(conf)
	if err != nil {
		return nil, fmt.Errorf("admitlint settings: %w", err)
	}
	if _, err := analyzer.New(s); err != nil {
		return nil, err
	}
	return &plugin{settings: s}, nil
}

// decode overlays conf, the settings as golangci-lint parsed them from
// YAML, on analyzer.Defaults().
func decode(conf any) (analyzer.Settings, error) {
	s := analyzer.Defaults()
	if conf == nil {
		return s, nil
	}
	data, err := json.Marshal(conf)
	if err != nil {
		return s, err
	}
	err = json.Unmarshal(data, &s)
	return s, err
}

// BuildAnalyzers returns the enabled passes, built for the settings.
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return analyzer.New(p.settings)
}

// GetLoadMode asks for type information: the passes build SSA.
func (p *plugin) GetLoadMode() string {
	return register.LoadModeTypesInfo
}
