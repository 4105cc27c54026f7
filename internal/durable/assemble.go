package durable

import (
	"fmt"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/recording"
	"github.com/ptchost/ptc/runstore"
)

// Stored is a run as the store holds it, decoded.
type Stored struct {
	Header *Header
	// Recording is what a resume follows: the program, seed and clock of
	// the header, the trace written so far, and the calls (settled ones
	// Done, with their outcome; started ones not).
	Recording *recording.Recording
	// Reads and Waits count the trace's readings and waits (where the
	// resumed run's journal goes on from).
	Reads, Waits int
	// Unmade are the calls stored as never made (cut before dispatch).
	Unmade map[int]bool
	// Result is the final result of a finished run, else nil.
	Result *Result
}

// Assemble decodes what the store holds of a run.
func Assemble(r *runstore.Run) (*Stored, error) {
	if len(r.Header) == 0 {
		return nil, fmt.Errorf("%w: run %q has no header", ErrCorrupt, r.ID)
	}
	h, err := DecodeHeader(r.Header)
	if err != nil {
		return nil, err
	}
	s := &Stored{Header: h}
	rec := &recording.Recording{Version: recording.Version, Program: h.Program, Limits: h.Limits, Seed: h.Seed, Virtual: h.Virtual, Start: h.Start,
		Declarations: h.Declarations, DeclarationsSHA256: recording.DeclarationsDigest(h.Declarations), DeclarationBytes: h.DeclarationBytes, Tools: h.Tools}
	for i, chunk := range r.Trace {
		start, reads, waits, err := DecodeTrace(chunk)
		if err != nil {
			return nil, err
		}
		if !start.IsZero() {
			if i != 0 {
				return nil, fmt.Errorf("%w: trace chunk %d opens the trace", ErrCorrupt, i)
			}
			rec.Start = start
		}
		rec.Reads = append(rec.Reads, reads...)
		rec.Waits = append(rec.Waits, waits...)
	}
	s.Reads, s.Waits = len(rec.Reads), len(rec.Waits)
	for i, e := range r.Calls {
		c, err := DecodeCall(e.Data)
		if err != nil {
			return nil, err
		}
		if c.Seq != e.Seq || c.Seq != i+1 {
			return nil, fmt.Errorf("%w: call %d is stored as call %d", ErrCorrupt, i+1, c.Seq)
		}
		if e.Settled && !c.Done {
			if s.Unmade == nil {
				s.Unmade = map[int]bool{}
			}
			s.Unmade[c.Seq] = true
		}
		c.Done = e.Settled && c.Done
		if !c.Done {
			c.OK, c.Value, c.Code, c.Message, c.Info, c.Content, c.Context = false, nil, "", "", nil, nil, nil
		}
		rec.Calls = append(rec.Calls, c)
	}
	s.Recording = rec
	if r.Result != nil {
		if s.Result, err = DecodeResult(r.Result); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Recorded is the stored run as a recording to replay: a finished run's
// kind and content, and which results its program received; a run
// nobody finished is a run cut where its trace ends (host.KindAborted).
func (s *Stored) Recorded() *recording.Recording {
	rec := *s.Recording
	rec.Calls = append([]recording.Call(nil), s.Recording.Calls...)
	rec.Kind = host.KindAborted
	if r := s.Result; r != nil {
		rec.Content, rec.IsError = r.Content, r.IsError
		if r.Run != nil {
			rec.Kind = r.Run.Kind
		}
		for _, c := range r.Subcalls {
			if c.N >= 1 && c.N <= len(rec.Calls) {
				rec.Calls[c.N-1].Received = c.Received
			}
		}
	}
	return &rec
}
