package analyzer

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/admitlint/admitlint/passes/directives"
)

// Settings configures the suite. Its JSON form is what golangci-lint's
// .golangci.yml carries under linters.settings.custom.admitlint.settings:
//
//	{"disable": ["retainslice"], "lateacquire": {"strict": true, "funcs": ["example.com/pool.Pool.Acquire"]}}
//
// A pass's settings are its flags, with the names, values and defaults of
// the command's -<pass>.<setting> flags: each pass states them once, in
// its Config.
type Settings struct {
	// Disable names passes not to run.
	Disable []string
	// Passes holds settings by pass name, then setting name. A setting
	// not given keeps its default.
	Passes map[string]map[string]any
}

// Defaults returns the settings every pass starts from, each with its
// default value.
func Defaults() Settings {
	s := Settings{Passes: map[string]map[string]any{}}
	for _, p := range registry {
		a := p.build()
		values := map[string]any{}
		a.Flags.VisitAll(func(f *flag.Flag) {
			if g, ok := f.Value.(flag.Getter); ok {
				values[f.Name] = g.Get()
			} else {
				values[f.Name] = f.Value.String()
			}
		})
		s.Passes[a.Name] = values
	}
	return s
}

// New returns the analyzers the settings enable, each built for its own
// settings, in the order of All. Unknown passes, unknown settings and
// values a setting cannot take are errors.
func New(s Settings) ([]*analysis.Analyzer, error) {
	return build(registry, s)
}

// build is New over the registry reg.
func build(reg []pass, s Settings) ([]*analysis.Analyzer, error) {
	known := append(names(reg), directives.Analyzer.Name)
	for _, name := range s.Disable {
		if !slices.Contains(known, name) {
			return nil, fmt.Errorf("admitlint: cannot disable unknown pass %q (passes: %s)", name, strings.Join(known, ", "))
		}
	}
	for _, name := range sortedKeys(s.Passes) {
		if !slices.Contains(names(reg), name) {
			return nil, fmt.Errorf("admitlint: settings for unknown pass %q (passes with settings: %s)", name, strings.Join(names(reg), ", "))
		}
	}
	var enabled []*analysis.Analyzer
	for _, p := range reg {
		a := p.build()
		if err := apply(a, s.Passes[a.Name]); err != nil {
			return nil, err
		}
		enabled = append(enabled, a)
	}
	enabled = append(enabled, directives.New(names(reg)...))
	return slices.DeleteFunc(enabled, func(a *analysis.Analyzer) bool { return slices.Contains(s.Disable, a.Name) }), nil
}

// apply sets analyzer a's flags from its settings.
func apply(a *analysis.Analyzer, settings map[string]any) error {
	for _, name := range sortedKeys(settings) {
		f := a.Flags.Lookup(name)
		if f == nil {
			var known []string
			a.Flags.VisitAll(func(f *flag.Flag) { known = append(known, f.Name) })
			return fmt.Errorf("admitlint: pass %s has no setting %q (settings: %s)", a.Name, name, strings.Join(known, ", "))
		}
		text, err := flagText(settings[name])
		if err == nil {
			err = f.Value.Set(text)
		}
		if err != nil {
			return fmt.Errorf("admitlint: %s.%s: %v", a.Name, name, err)
		}
	}
	return nil
}

// flagText writes a decoded JSON or YAML value as a flag takes it: a list
// comma-separated.
func flagText(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	case bool:
		return strconv.FormatBool(v), nil
	case json.Number:
		return v.String(), nil
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), nil
	case int:
		return strconv.Itoa(v), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case []string:
		return strings.Join(v, ","), nil
	case []any:
		items := make([]string, len(v))
		for i, item := range v {
			s, ok := item.(string)
			if !ok {
				return "", fmt.Errorf("list item %v is not a string", item)
			}
			items[i] = s
		}
		return strings.Join(items, ","), nil
	}
	return "", fmt.Errorf("cannot take %v (%T)", v, v)
}

// MarshalJSON writes the settings as golangci-lint carries them: disable
// beside one object per pass.
func (s Settings) MarshalJSON() ([]byte, error) {
	m := map[string]any{"disable": s.Disable}
	if s.Disable == nil {
		m["disable"] = []string{}
	}
	for name, values := range s.Passes {
		m[name] = values
	}
	return json.Marshal(m)
}

// UnmarshalJSON overlays data on s: the settings it names replace those
// in s, the others stay. A key that is neither disable nor a pass is an
// error, so a typo in .golangci.yml is reported instead of ignored.
func (s *Settings) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	for _, key := range sortedKeys(raw) {
		if key == "disable" {
			if err := strictDecode(raw[key], &s.Disable); err != nil {
				return fmt.Errorf("disable: %v", err)
			}
			continue
		}
		if !slices.Contains(names(registry), key) {
			return fmt.Errorf("unknown setting %q: want disable or a pass (%s)", key, strings.Join(names(registry), ", "))
		}
		var values map[string]any
		if err := strictDecode(raw[key], &values); err != nil {
			return fmt.Errorf("%s: %v", key, err)
		}
		if s.Passes == nil {
			s.Passes = map[string]map[string]any{}
		}
		if s.Passes[key] == nil {
			s.Passes[key] = map[string]any{}
		}
		for k, v := range values {
			s.Passes[key][k] = v
		}
	}
	return nil
}

// strictDecode decodes data into v, keeping numbers as written.
func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// sortedKeys returns m's keys in order, for deterministic errors.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
