package retainslice_test

import (
	"bytes"
	"io"
	"runtime"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// keepToken and keepTokenCopy are the functions of
// testdata/src/retainslice/premise: the first is what retainslice reports
// with -retainslice.streams, the second what its fix makes of it. The
// default run, which admitlint's own code is checked with, does not count
// a stream read to its end as large, so keepToken needs no directive.

func keepToken(r io.Reader) []byte {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil
	}
	i := bytes.IndexByte(data, ':')
	return data[i+1 : i+41]
}

func keepTokenCopy(r io.Reader) []byte {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil
	}
	i := bytes.IndexByte(data, ':')
	return bytes.Clone(data[i+1 : i+41])
}

// TestPremise proves what the pass is for: 100 reads of 1 MiB that each
// keep a 40-byte token retain about 100 MiB of heap after a collection,
// and the same reads keeping copies retain a few kilobytes. The margins
// are wide, so the test does not depend on the allocator's details.
func TestPremise(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 100 MiB")
	}
	analysistest.RunWithSuggestedFixes(t, testdata(t), widened(t), "retainslice/premise")

	const reads, size = 100, 1 << 20
	input := bytes.Repeat([]byte("x"), size)
	input[100] = ':'

	copied := retained(func() [][]byte {
		tokens := make([][]byte, 0, reads)
		for range reads {
			tokens = append(tokens, keepTokenCopy(bytes.NewReader(input)))
		}
		return tokens
	})
	kept := retained(func() [][]byte {
		tokens := make([][]byte, 0, reads)
		for range reads {
			tokens = append(tokens, keepToken(bytes.NewReader(input)))
		}
		return tokens
	})
	t.Logf("retained after GC: %d KiB keeping slices, %d bytes keeping copies", kept>>10, copied)
	if kept < 90*size {
		t.Errorf("keeping slices retained %d KiB, want at least %d MiB (the reads' buffers)", kept>>10, 90)
	}
	if copied > 256<<10 {
		t.Errorf("keeping copies retained %d bytes, want a few KiB (100 tokens of 40 bytes)", copied)
	}
}

// retained returns how many bytes of heap the tokens made by keep hold
// alive after a garbage collection.
func retained(keep func() [][]byte) int64 {
	before := heapAfterGC()
	tokens := keep()
	after := heapAfterGC()
	runtime.KeepAlive(tokens)
	return int64(after) - int64(before)
}

func heapAfterGC() uint64 {
	runtime.GC()
	runtime.GC() // the first cycle may leave objects of the previous measurement unswept
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
