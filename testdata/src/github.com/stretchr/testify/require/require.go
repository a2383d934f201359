// Package require is a stub of github.com/stretchr/testify/require for
// analysistest: the functions admitlint knows by name.
package require

// TestingT is the part of *testing.T require uses.
type TestingT interface {
	Errorf(format string, args ...interface{})
	FailNow()
}

// FailNow fails the test and stops it.
func FailNow(t TestingT, failureMessage string, msgAndArgs ...interface{}) { t.FailNow() }

// Fail fails the test and stops it.
func Fail(t TestingT, failureMessage string, msgAndArgs ...interface{}) { t.FailNow() }

// NoError stops the test if err is not nil.
func NoError(t TestingT, err error, msgAndArgs ...interface{}) {
	if err != nil {
		t.FailNow()
	}
}
