package missingimport

import "example.com/does/not/exist"

func Use() { exist.Thing() }
