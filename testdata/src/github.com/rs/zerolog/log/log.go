// Package log is a stand-in for zerolog's global logger: an event made
// at fatal level ends the process when it is sent.
package log

import "os"

type Event struct{ fatal bool }

func (e *Event) Err(error) *Event { return e }

func (e *Event) Msg(string) {
	if e.fatal {
		os.Exit(1)
	}
}

func Fatal() *Event { return &Event{fatal: true} }

func Error() *Event { return &Event{} }
