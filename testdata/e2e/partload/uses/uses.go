// Package uses loads; its external test imports a package the default
// build constraints exclude, so its test variant does not.
package uses

func Do() {}
