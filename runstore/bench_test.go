package runstore

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkWrite is one write of a durable run's typical transaction: a
// call settled, the next started, a trace chunk.
func BenchmarkWrite(b *testing.B) {
	ctx := context.Background()
	s := openSQLiteTest(b, Options{})
	c, err := s.Claim(ctx, "r", time.Minute)
	if err != nil {
		b.Fatal(err)
	}
	data := []byte(`{"version":1,"seq":1,"tool":"echo","arguments":{"i":1},"done":true,"ok":true,"value":{"i":1},"content":[{"type":"text","text":"{\"i\":1}"}]}`)
	seq := 0
	for b.Loop() {
		seq++
		err := s.Write(ctx, c.Lease, Write{Calls: []Entry{{Seq: seq, Settled: true, Data: data}, {Seq: seq + 1, Data: data}}, Trace: []byte{1, 0, 2, 4, 4, 1, 3}})
		if err != nil {
			b.Fatal(fmt.Sprint(err))
		}
	}
}
