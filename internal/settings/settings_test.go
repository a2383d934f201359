package settings

import (
	"encoding/json"
	"flag"
	"reflect"
	"testing"
)

type config struct {
	Strict   bool     `json:"strict" help:"report tries too"`
	MinBytes int64    `json:"min-bytes" help:"smallest large buffer"`
	Depth    int      `json:"depth,omitempty" help:"how deep"`
	Mode     string   `json:"mode" help:"which mode"`
	Funcs    []string `json:"funcs" help:"extra functions"`
	Internal int      `json:"-"`
	plain    int
}

func TestBindDefaultsAndParse(t *testing.T) {
	cfg := config{MinBytes: 64 << 10, Mode: "fast", Funcs: []string{"a.B"}, plain: 1} // plain: unexported, so no flag
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	Bind(fs, &cfg)

	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name+"="+f.DefValue) })
	want := []string{"depth=0", "funcs=a.B", "min-bytes=65536", "mode=fast", "strict=false"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("flags = %v, want %v", names, want)
	}

	if err := fs.Parse([]string{"-strict", "-min-bytes=1024", "-depth=3", "-mode=slow", "-funcs=x.Y, z.W ,"}); err != nil {
		t.Fatal(err)
	}
	got := config{Strict: true, MinBytes: 1024, Depth: 3, Mode: "slow", Funcs: []string{"x.Y", "z.W"}, plain: 1}
	if !reflect.DeepEqual(cfg, got) {
		t.Fatalf("after parse: %+v, want %+v", cfg, got)
	}
}

// TestJSONUsesFlagNames checks that the golangci-lint route (JSON) and the
// flag route agree on names and defaults.
func TestJSONUsesFlagNames(t *testing.T) {
	cfg := config{MinBytes: 64 << 10, Mode: "fast"}
	if err := json.Unmarshal([]byte(`{"min-bytes": 2048, "funcs": ["p.F"]}`), &cfg); err != nil {
		t.Fatal(err)
	}
	want := config{MinBytes: 2048, Mode: "fast", Funcs: []string{"p.F"}}
	if !reflect.DeepEqual(cfg, want) {
		t.Fatalf("decoded %+v, want %+v", cfg, want)
	}
}

func TestBindRejectsMisuse(t *testing.T) {
	for _, bad := range []any{config{}, new(int), &struct {
		F float64 `json:"f"`
	}{}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Bind(%T) did not panic", bad)
				}
			}()
			Bind(flag.NewFlagSet("x", flag.ContinueOnError), bad)
		}()
	}
}
