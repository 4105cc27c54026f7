package host

import (
	"context"
	"errors"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// The host side of the "ptc" import module (docs/ARCHITECTURE.md, "Host ABI"). Every
// pointer and length the guest passes is bounds-checked; a bad one records
// an internal fault and aborts the guest's call with a panic that wazero
// turns into an error, so the host itself never crashes.

type runKey struct{}

func withRun(ctx context.Context, r *run) context.Context {
	return context.WithValue(ctx, runKey{}, r)
}

func runFrom(ctx context.Context) *run {
	r, _ := ctx.Value(runKey{}).(*run)
	if r == nil {
		panic(errNoRun)
	}
	return r
}

var (
	errNoRun      = errors.New("host function called outside a run")
	errGuestFault = errors.New("guest fault")
)

// view returns a guest buffer without copying it, or faults.
func view(r *run, m api.Module, ptr, n uint32) []byte {
	b, ok := m.Memory().Read(ptr, n)
	if !ok {
		r.fault(KindInternal, "guest passed an out-of-range buffer to the host")
		panic(errGuestFault)
	}
	return b
}

// read copies a guest buffer, or faults.
func read(r *run, m api.Module, ptr, n uint32) []byte {
	return append([]byte(nil), view(r, m, ptr, n)...)
}

// readString copies a guest buffer into a string, or faults.
func readString(r *run, m api.Module, ptr, n uint32) string {
	return string(view(r, m, ptr, n))
}

const i32, i64 = api.ValueTypeI32, api.ValueTypeI64

func instantiateImports(ctx context.Context, rt wazero.Runtime, h *Host) error {
	b := rt.NewHostModuleBuilder("ptc")
	fn := func(name string, f api.GoModuleFunc, params, results []api.ValueType) {
		b.NewFunctionBuilder().WithGoModuleFunction(f, params, results).Export(name)
	}
	// write(ptr, len) -> 0 to go on, 1 to stop
	fn("write", func(ctx context.Context, m api.Module, s []uint64) {
		r := runFrom(ctx)
		r.launchDeferred()
		line := readString(r, m, api.DecodeU32(s[0]), api.DecodeU32(s[1]))
		if r.write(line) {
			s[0] = 0
		} else {
			s[0] = 1
		}
	}, []api.ValueType{i32, i32}, []api.ValueType{i32})
	// interrupted() -> nonzero when the guest must stop. QuickJS's interrupt
	// handler calls it, and so do the fuel checks instrumented into the
	// guest (every loop and recursive cycle within bounded work); for the
	// latter a nonzero result traps, so even a long C built-in stops. The
	// call also lets Go's scheduler and garbage collector in.
	fn("interrupted", func(ctx context.Context, _ api.Module, s []uint64) {
		r := runFrom(ctx)
		r.launchDeferred() // the guest is busy: let the call run meanwhile
		if ctx.Err() != nil {
			// Do not wait for the watcher goroutine to notice.
			r.stop(stopFromContext(ctx))
		}
		// Nor for the deadline's timer to fire: under load, Go runs timers
		// late (100 ms and more were measured in make soak).
		now := time.Now()
		r.overdue(now)
		if r.stopped() {
			s[0] = 1
			return
		}
		s[0] = 0
		r.yield(now)
	}, nil, []api.ValueType{i32})
	// call_start(name, name_len, args, args_len) -> id > 0, or -1 to stop
	fn("call_start", func(ctx context.Context, m api.Module, s []uint64) {
		r := runFrom(ctx)
		name := readString(r, m, api.DecodeU32(s[0]), api.DecodeU32(s[1]))
		args := read(r, m, api.DecodeU32(s[2]), api.DecodeU32(s[3]))
		s[0] = api.EncodeI32(r.start(ctx, name, args))
	}, []api.ValueType{i32, i32, i32, i32}, []api.ValueType{i32})
	// call_wait(timeout_ns) -> id<<32 | len of the completed call's
	// envelope; 0 when timeout_ns (>= 0: the guest's next timer is due
	// then) passed first; -1 to stop.
	fn("call_wait", func(ctx context.Context, _ api.Module, s []uint64) {
		s[0] = api.EncodeI64(runFrom(ctx).wait(ctx, int64(s[0])))
	}, []api.ValueType{i64}, []api.ValueType{i64})
	// call_read(id, ptr, len) -> 0, after copying the envelope to ptr
	fn("call_read", func(ctx context.Context, m api.Module, s []uint64) {
		r := runFrom(ctx)
		r.launchDeferred()
		id, ptr, n := api.DecodeI32(s[0]), api.DecodeU32(s[1]), api.DecodeU32(s[2])
		env, ok := r.take(id, n)
		if !ok {
			r.fault(KindInternal, "guest read a subcall result it was not given")
			panic(errGuestFault)
		}
		if !m.Memory().Write(ptr, env) {
			r.fault(KindInternal, "guest passed an out-of-range buffer to the host")
			panic(errGuestFault)
		}
		s[0] = 0
	}, []api.ValueType{i32, i32, i32}, []api.ValueType{i32})
	// finish(kind, ptr, len): the run's outcome
	fn("finish", func(ctx context.Context, m api.Module, s []uint64) {
		r := runFrom(ctx)
		r.launchDeferred()
		data := read(r, m, api.DecodeU32(s[1]), api.DecodeU32(s[2]))
		if ctx.Err() != nil {
			// A program that finishes after its deadline has not succeeded,
			// whether or not the watcher goroutine has noticed yet.
			r.stop(stopFromContext(ctx))
		}
		r.overdue(time.Now())
		r.cutHere()
		r.finish(api.DecodeI32(s[0]), data)
	}, []api.ValueType{i32, i32, i32}, nil)
	// script(id, ptr, cap) -> the size of the bytecode of the guest's own
	// script id, copied to ptr when it fits in cap; 0 when there is none.
	// Past the scripts, id names an entry of the Intl bundle's locale data
	// (intl.go), whose text it copies likewise.
	fn("script", func(ctx context.Context, m api.Module, s []uint64) {
		r := runFrom(ctx)
		r.launchDeferred()
		code := h.script(api.DecodeI32(s[0]))
		ptr, n := api.DecodeU32(s[1]), api.DecodeU32(s[2])
		if n >= uint32(len(code)) && len(code) > 0 && !m.Memory().Write(ptr, code) {
			r.fault(KindInternal, "guest passed an out-of-range buffer to the host")
			panic(errGuestFault)
		}
		s[0] = api.EncodeI32(int32(len(code)))
	}, []api.ValueType{i32, i32, i32}, []api.ValueType{i32})
	// collate(locale, options, a, b as ptr/len pairs) -> -1, 0 or 1: the
	// order of a and b by CLDR collation (Intl.Collator, localeCompare).
	fn("collate", func(ctx context.Context, m api.Module, s []uint64) {
		r := runFrom(ctx)
		r.launchDeferred()
		loc := readString(r, m, api.DecodeU32(s[0]), api.DecodeU32(s[1]))
		opt := readString(r, m, api.DecodeU32(s[2]), api.DecodeU32(s[3]))
		a := readString(r, m, api.DecodeU32(s[4]), api.DecodeU32(s[5]))
		b := readString(r, m, api.DecodeU32(s[6]), api.DecodeU32(s[7]))
		s[0] = api.EncodeI32(int32(r.collators.compare(loc, opt, a, b)))
	}, []api.ValueType{i32, i32, i32, i32, i32, i32, i32, i32}, []api.ValueType{i32})
	// domain_to_ascii(in, in_len, out, cap) -> the length of the URL
	// Standard's domain to ASCII of the UTF-8 domain at in (idna.go), copied
	// to out when it fits in cap; -1 when the domain is not valid, -2 when
	// it is over the host's bounds (both an invalid URL to the guest).
	fn("domain_to_ascii", func(ctx context.Context, m api.Module, s []uint64) {
		r := runFrom(ctx)
		r.launchDeferred()
		in, n := api.DecodeU32(s[0]), api.DecodeU32(s[1])
		out, room := api.DecodeU32(s[2]), api.DecodeU32(s[3])
		if n > maxDomainBytes {
			s[0] = api.EncodeI32(domainTooLong)
			return
		}
		ascii, err := domainToASCII(readString(r, m, in, n))
		switch {
		case errors.Is(err, errDomainInvalid):
			s[0] = api.EncodeI32(domainInvalid)
			return
		case err != nil:
			s[0] = api.EncodeI32(domainTooLong)
			return
		}
		if uint32(len(ascii)) <= room && !m.Memory().WriteString(out, ascii) {
			r.fault(KindInternal, "guest passed an out-of-range buffer to the host")
			panic(errGuestFault)
		}
		s[0] = api.EncodeI32(int32(len(ascii)))
	}, []api.ValueType{i32, i32, i32, i32}, []api.ValueType{i32})
	_, err := b.Instantiate(ctx)
	return err
}
