// Package settings connects a pass's configuration struct to the two ways
// users set it: command-line flags (admitlint, go vet -vettool, nogo) and
// JSON-shaped settings (golangci-lint's .golangci.yml). Both use the field's
// json name, and both start from the values already in the struct, so a
// pass states each default once, in its Default configuration.
//
// A configurable field carries a json tag with its name and a help tag:
//
//	MinBytes int64 `json:"min-bytes" help:"smallest buffer, in bytes, that counts as large"`
//
// Supported field types are bool, int, int64, string and []string (a
// comma-separated flag).
package settings

import (
	"flag"
	"fmt"
	"reflect"
	"strings"
)

// Bind defines a flag on fs for each tagged field of the struct that cfg
// points to. Setting the flag sets the field. It panics if cfg is not a
// pointer to a struct or a tagged field has an unsupported type: both are
// programming errors in a pass.
func Bind(fs *flag.FlagSet, cfg any) {
	v := reflect.ValueOf(cfg)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("internal error: settings.Bind(%T): want a pointer to a struct", cfg))
	}
	v = v.Elem()
	for i := 0; i < v.NumField(); i++ {
		field := v.Type().Field(i)
		name := Name(field)
		if name == "" {
			continue
		}
		help := field.Tag.Get("help")
		switch p := v.Field(i).Addr().Interface().(type) {
		case *bool:
			fs.BoolVar(p, name, *p, help)
		case *int:
			fs.IntVar(p, name, *p, help)
		case *int64:
			fs.Int64Var(p, name, *p, help)
		case *string:
			fs.StringVar(p, name, *p, help)
		case *[]string:
			fs.Var((*list)(p), name, help+" (comma-separated)")
		default:
			panic(fmt.Sprintf("internal error: settings.Bind: field %s has unsupported type %s", field.Name, field.Type))
		}
	}
}

// Name returns the setting name of a struct field: its json name, or ""
// if the field is not a setting.
func Name(field reflect.StructField) string {
	name, _, _ := strings.Cut(field.Tag.Get("json"), ",")
	if name == "-" || !field.IsExported() {
		return ""
	}
	return name
}

// list is a []string flag written as comma-separated values. Setting it
// replaces the list.
type list []string

func (l *list) String() string {
	if l == nil {
		return ""
	}
	return strings.Join(*l, ",")
}

// Get returns the list, for flag.Getter.
func (l *list) Get() any {
	if *l == nil {
		return []string{}
	}
	return []string(*l)
}

func (l *list) Set(s string) error {
	*l = nil
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			*l = append(*l, item)
		}
	}
	return nil
}
