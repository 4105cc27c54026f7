// ptc guest glue: runs one model-written program inside QuickJS-ng on
// wasm32-wasi and talks to the host through the "ptc" import module
// described in docs/ARCHITECTURE.md. This file is ours; QuickJS sources are fetched
// and patched at build time and never committed.

#include <malloc.h>
#include <math.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutils.h"
#include "quickjs.h"

#define IMPORT(name) __attribute__((import_module("ptc"), import_name(name)))
#define EXPORT(name) __attribute__((export_name(name)))

// Host imports (module "ptc").
IMPORT("write") int32_t host_write(const char *ptr, uint32_t len);
IMPORT("interrupted") int32_t host_interrupted(void);
IMPORT("call_start") int32_t host_call_start(const char *name, uint32_t name_len, const char *args, uint32_t args_len);
IMPORT("call_wait") int64_t host_call_wait(int64_t timeout_ns);
IMPORT("call_read") int32_t host_call_read(int32_t id, char *ptr, uint32_t len);
IMPORT("finish") void host_finish(int32_t kind, const char *ptr, uint32_t len);
IMPORT("script") int32_t host_script(int32_t id, char *ptr, uint32_t cap);
IMPORT("collate") int32_t host_collate(const char *loc, uint32_t loc_len, const char *opt, uint32_t opt_len,
                                       const char *a, uint32_t a_len, const char *b, uint32_t b_len);
IMPORT("domain_to_ascii") int32_t host_domain_to_ascii(const char *in, uint32_t in_len, char *out, uint32_t cap);

// Outcome kinds reported through finish; keep in sync with host/abi.go.
enum {
    KIND_OK = 0,
    KIND_SYNTAX = 1,
    KIND_EXCEPTION = 2,
    KIND_STOPPED = 3,   // the host asked us to stop; it knows why
    KIND_DEADLOCK = 4,  // awaiting a promise nothing can settle
    KIND_INTERNAL = 5,
    KIND_MEMORY = 6,    // out of memory; reported just before a trap
};

void JS_PtcSeedRandom(JSContext *ctx, uint64_t seed); // random-seed.patch
JSValue JS_PtcNewPromise(JSContext *ctx);               // promise-settle.patch
JSValue JS_PtcUnbox(JSContext *ctx, JSValueConst v);     // unbox.patch
void JS_PtcSettlePromise(JSContext *ctx, JSValueConst promise, JSValueConst value, bool is_reject);
bool JS_PtcUnreachable(JSContext *ctx, JSValueConst promise); // promise-reach.patch

static JSRuntime *rt;
static JSContext *ctx;
static JSValue settle_fn, describe_fn, string_fn, keep_shapes, tool_error_fn, date_json_fn;
// Object.prototype and Array.prototype as the context made them: a return
// value whose objects have others is not plain data.
static JSValue object_proto, array_proto;
static JSAtom atom_toJSON; // "toJSON", made once (in the snapshot)
static JSValue timer_next_fn, timer_fire_fn, return_value_fn, load_intl_fn;
static int pending_calls;
// Timers pending (live), those of them that keep a settled run alive (keep:
// ref'd timeouts) and those that keep a pending one alive (refd: ref'd
// timeouts and intervals), as bootstrap.js reports them; the timer limit.
static int timers_live, timers_keep, timers_refd;
static uint32_t timer_limit = 1000;
// The run's start on the monotonic clock (ns) and the wall clock (ms).
static int64_t run_start_ns;
static double run_origin_ms;
// The line map of a stripped TypeScript program (ptc_linemap): for line L
// of program.js, linemap[2L] is the line it was written on and
// linemap[2L+1] the difference to add to a column.
static int32_t *linemap;
static uint32_t linemap_lines;

// A started subcall: its promise and the tool name (a string) its
// ToolError carries. Kept in an open-addressing table
// keyed by the host's call id (linear probing; id 0 marks a free slot).
struct pending {
    int32_t id;
    JSValue promise, name;
};
static struct pending *ptab;
static uint32_t ptab_cap; // a power of two, or 0
static uint32_t ptab_n;   // entries in use

static uint32_t ptab_slot(int32_t id) { return ((uint32_t)id * 2654435761u) & (ptab_cap - 1); }

// ptab_reserve makes room for one more entry (the table is kept at most
// half full); it returns -1 when out of memory.
static int ptab_reserve(JSContext *c) {
    if ((ptab_n + 1) * 2 <= ptab_cap) return 0;
    uint32_t old_cap = ptab_cap, cap = old_cap ? old_cap * 2 : 64;
    struct pending *old = ptab;
    struct pending *t = js_mallocz(c, (size_t)cap * sizeof *t);
    if (!t) return -1;
    ptab = t;
    ptab_cap = cap;
    for (uint32_t i = 0; i < old_cap; i++) {
        if (old[i].id == 0) continue;
        uint32_t j = ptab_slot(old[i].id);
        while (ptab[j].id != 0) j = (j + 1) & (cap - 1);
        ptab[j] = old[i];
    }
    js_free(c, old);
    return 0;
}

// ptab_put adds e, replacing an entry with the same id (whose promise
// then never settles), as a Map would.
static void ptab_put(JSContext *c, struct pending e) {
    uint32_t j = ptab_slot(e.id);
    while (ptab[j].id != 0 && ptab[j].id != e.id) j = (j + 1) & (ptab_cap - 1);
    if (ptab[j].id == e.id) {
        JS_FreeValue(c, ptab[j].promise);
        JS_FreeValue(c, ptab[j].name);
    } else {
        ptab_n++;
    }
    ptab[j] = e;
}

// ptab_clear drops every entry: calls started before a snapshot (by a
// prelude, say) belong to a host run that is gone.
static void ptab_clear(JSContext *c) {
    for (uint32_t i = 0; i < ptab_cap; i++) {
        if (ptab[i].id == 0) continue;
        JS_FreeValue(c, ptab[i].promise);
        JS_FreeValue(c, ptab[i].name);
        ptab[i].id = 0;
    }
    ptab_n = 0;
}

// ptab_take removes the entry for id into *e; it returns 0 when there is none.
static int ptab_take(int32_t id, struct pending *e) {
    if (ptab_cap == 0 || id == 0) return 0;
    uint32_t mask = ptab_cap - 1, j = ptab_slot(id);
    while (ptab[j].id != id) {
        if (ptab[j].id == 0) return 0;
        j = (j + 1) & mask;
    }
    *e = ptab[j];
    ptab_n--;
    // Backward-shift deletion keeps every probe sequence unbroken.
    for (;;) {
        ptab[j].id = 0;
        uint32_t k = j;
        for (;;) {
            k = (k + 1) & mask;
            if (ptab[k].id == 0) return 1;
            uint32_t home = ptab_slot(ptab[k].id);
            // Move k's entry into the hole at j unless its home lies
            // cyclically in (j, k].
            if (j <= k ? (home <= j || home > k) : (home <= j && home > k)) break;
        }
        ptab[j] = ptab[k];
        j = k;
    }
}

// The guest's own scripts (guest/quickjs/js and the Intl bundle), which
// the host compiles to bytecode once (ptc_compile, in an instance of its
// own) and hands over by id through the host import script; keep in sync
// with host/scripts.go.
enum { SCRIPT_BOOTSTRAP = 0, SCRIPT_INSPECT = 1, SCRIPT_WEB = 2, SCRIPT_INTL = 3 };

// --- bulk memory ---

// wasi-libc as Debian builds it copies and fills memory in loops; built
// with -mbulk-memory, these are single instructions the runtime executes
// natively (and that need no fuel checks: see host/internal/fuel).
void *memcpy(void *restrict dst, const void *restrict src, size_t n) { return __builtin_memcpy(dst, src, n); }
void *memmove(void *dst, const void *src, size_t n) { return __builtin_memmove(dst, src, n); }
void *memset(void *dst, int c, size_t n) { return __builtin_memset(dst, c, n); }

// --- out of memory: reported to the host, then the run ends ---

// JS_PtcBodyEnd is read by body-end.patch: where the '}' closing the
// program's function must be while ptc_run compiles it, else NULL.
const char *JS_PtcBodyEnd;

// JS_PtcOutOfMemory ends the run when memory runs out, wherever the
// allocation was (out-of-memory.patch calls it from JS_ThrowOutOfMemory;
// the allocator below when libc cannot grow the heap): the program cannot
// catch it, and the host discards the instance.
void JS_PtcOutOfMemory(void) {
    static const char msg[] = "{\"message\":\"out of memory\",\"stack\":\"\"}";
    host_finish(KIND_MEMORY, msg, sizeof(msg) - 1);
    __builtin_trap();
}

// --- memory: report wasi-libc's usable size so JS_SetMemoryLimit works ---

static void *m_calloc(void *opaque, size_t count, size_t size) {
    (void)opaque;
    void *p = calloc(count, size);
    if (!p && count && size) JS_PtcOutOfMemory();
    return p;
}
static void *m_malloc(void *opaque, size_t size) {
    (void)opaque;
    void *p = malloc(size);
    if (!p && size) JS_PtcOutOfMemory();
    return p;
}
// scrub is set while ptc_init builds what the host snapshots: freed memory
// is zeroed first, so that pages setup only used for a while are zero
// again and not copied into every run (host/snapshot.go diffs the snapshot
// against a new instance's memory, which is zero there).
static int scrub;

static void m_free(void *opaque, void *ptr) {
    (void)opaque;
    if (scrub && ptr) memset(ptr, 0, malloc_usable_size(ptr));
    free(ptr);
}
static void *m_realloc(void *opaque, void *ptr, size_t size) {
    (void)opaque;
    void *p = realloc(ptr, size);
    if (!p && size) JS_PtcOutOfMemory();
    return p;
}
static size_t m_usable(const void *ptr) { return malloc_usable_size((void *)ptr); }

static const JSMallocFunctions malloc_funcs = {m_calloc, m_malloc, m_free, m_realloc, m_usable};

// halt ends the run at once when the host asked for a stop (deadline,
// cancellation, output or subcall limit): the host knows why and keeps the
// output, and discards the instance, so nothing needs unwinding. A trap
// also leaves nothing the program could catch or delay (a finally block, a
// deep stack to unwind).
static _Noreturn void halt(void) { __builtin_trap(); }

static int interrupt_handler(JSRuntime *r, void *opaque) {
    (void)r;
    (void)opaque;
    if (host_interrupted() != 0) halt();
    return 0;
}

static JSValue stop(JSContext *c) {
    (void)c;
    halt();
}

// --- text and JSON for the host ---

// wtf8_fix turns, in place, each unpaired surrogate QuickJS encoded as three
// bytes (ED A0..BF xx) into U+FFFD (EF BF BD, as long): the host receives
// UTF-8, one U+FFFD per unpaired surrogate (docs/ARCHITECTURE.md).
static void wtf8_fix(char *s, size_t len) {
    for (size_t i = 0; i + 2 < len; i++) {
        if ((uint8_t)s[i] == 0xED && ((uint8_t)s[i + 1] & 0xE0) == 0xA0) {
            s[i] = (char)0xEF;
            s[i + 1] = (char)0xBF;
            s[i + 2] = (char)0xBD;
            i += 2;
        }
    }
}

// to_utf8 converts v to a string and then to UTF-8 (see wtf8_fix); free
// the result with JS_FreeCString. NULL with an exception pending on failure.
static const char *to_utf8(JSContext *c, JSValueConst v, size_t *len) {
    const char *s = JS_ToCStringLen(c, len, v);
    // A string holding a surrogate is wide, and QuickJS converts wide
    // strings into a buffer of their own: writing into it is safe.
    if (s) wtf8_fix((char *)s, *len);
    return s;
}

static void out_of_memory_if(int failed) {
    if (failed) JS_PtcOutOfMemory();
}

// json_quote appends s (UTF-8, len bytes) as a JSON string.
static void json_quote(DynBuf *b, const char *s, size_t len) {
    static const char hex[] = "0123456789abcdef";
    dbuf_putc(b, '"');
    size_t run = 0;
    for (size_t i = 0; i < len; i++) {
        uint8_t ch = (uint8_t)s[i];
        if (ch >= 0x20 && ch != '"' && ch != '\\') continue;
        dbuf_put(b, (const uint8_t *)s + run, i - run);
        run = i + 1;
        dbuf_putc(b, '\\');
        switch (ch) {
        case '"': dbuf_putc(b, '"'); break;
        case '\\': dbuf_putc(b, '\\'); break;
        case '\n': dbuf_putc(b, 'n'); break;
        case '\r': dbuf_putc(b, 'r'); break;
        case '\t': dbuf_putc(b, 't'); break;
        case '\b': dbuf_putc(b, 'b'); break;
        case '\f': dbuf_putc(b, 'f'); break;
        default:
            dbuf_putc(b, 'u');
            dbuf_putc(b, '0');
            dbuf_putc(b, '0');
            dbuf_putc(b, hex[ch >> 4]);
            dbuf_putc(b, hex[ch & 15]);
        }
    }
    dbuf_put(b, (const uint8_t *)s + run, len - run);
    dbuf_putc(b, '"');
    out_of_memory_if(b->error);
}

// json_quote_value appends String(v) as a JSON string; -1 with an
// exception pending on failure.
static int json_quote_value(JSContext *c, DynBuf *b, JSValueConst v) {
    size_t len;
    const char *s = to_utf8(c, v, &len);
    if (!s) return -1;
    json_quote(b, s, len);
    JS_FreeCString(c, s);
    return 0;
}

// --- tool arguments: the SDK's own serialiser, out of the program's reach ---

#define ARGS_MAX_DEPTH 1000

// The run's argument limits (host.Limits ArgumentBytes and ArgumentDepth),
// set by ptc_limits before ptc_run; the pipeline applies its own too.
static uint32_t args_bytes_limit = 1 << 20, args_depth_limit = 64;

EXPORT("ptc_limits") void ptc_limits(uint32_t bytes, uint32_t depth, uint32_t timers) {
    if (timers) timer_limit = timers;
    if (bytes) args_bytes_limit = bytes;
    if (depth) args_depth_limit = depth < ARGS_MAX_DEPTH ? depth : ARGS_MAX_DEPTH;
}

// ser serialises tool arguments as JSON.stringify does for plain data: own
// enumerable string-keyed properties in order, undefined, functions and
// symbols left out of objects (null in arrays), non-finite numbers as
// null, a Date as its ISO string. No other toJSON is called, and nothing
// the program can replace is consulted (getters and proxies are the
// program's own data and run). A BigInt, a cycle or too deep a nesting is
// refused with a message naming the path.
struct ser {
    JSContext *c;
    DynBuf b;
    int depth;
    void *objs[ARGS_MAX_DEPTH + 1];   // the objects on the path, for cycles
    const char *keys[ARGS_MAX_DEPTH]; // their keys (NULL: an index)
    int64_t idx[ARGS_MAX_DEPTH];
    const char *problem;              // set when the value is refused
    int limit;                        // the problem is a limit: no path
    char msg[96];
    // strict is set for a return value: only plain data passes (objects
    // with Object.prototype or null, arrays with Array.prototype, strings,
    // finite numbers, booleans, null), toJSON applied; anything else is
    // refused (and rendered by inspect.js instead).
    int strict;
    uint32_t bytes_limit, depth_limit;
};

enum { SER_OK = 0, SER_OMIT = 1, SER_FAIL = -1 };

static int ser_value(struct ser *s, JSValueConst v);

// ser_over_limit reports (and records as the problem) arguments grown past
// the byte limit.
static int ser_over_limit(struct ser *s) {
    out_of_memory_if(s->b.error);
    if (s->b.size <= s->bytes_limit) return 0;
    snprintf(s->msg, sizeof s->msg, "arguments are over the %u-byte limit", s->bytes_limit);
    s->problem = s->msg;
    s->limit = 1;
    return 1;
}

static int ser_object(struct ser *s, JSValueConst v) {
    JSContext *c = s->c;
    void *p = JS_VALUE_GET_PTR(v);
    for (int i = 0; i < s->depth; i++) {
        if (s->objs[i] == p) {
            s->problem = "refers to an object that contains it (a cycle)";
            return SER_FAIL;
        }
    }
    if (s->depth >= (int)s->depth_limit) {
        snprintf(s->msg, sizeof s->msg, "arguments nest deeper than the %u-level limit", s->depth_limit);
        s->problem = s->msg;
        s->limit = 1;
        return SER_FAIL;
    }
    if (s->strict) {
        JSValue proto = JS_GetPrototype(c, v);
        if (JS_IsException(proto)) return SER_FAIL;
        int array = JS_IsArray(v) > 0;
        int plain = array ? JS_VALUE_GET_PTR(proto) == JS_VALUE_GET_PTR(array_proto)
                          : JS_IsNull(proto) || JS_VALUE_GET_PTR(proto) == JS_VALUE_GET_PTR(object_proto);
        JS_FreeValue(c, proto);
        if (!plain) {
            s->problem = "is not plain data";
            return SER_FAIL;
        }
    }
    int d = s->depth++;
    s->objs[d] = p;
    s->keys[d] = NULL;
    int r = SER_OK;
    if (JS_IsArray(v)) {
        int64_t n;
        if (JS_GetLength(c, v, &n) < 0) {
            r = SER_FAIL;
            goto done;
        }
        dbuf_putc(&s->b, '[');
        for (int64_t i = 0; i < n; i++) {
            if (i) dbuf_putc(&s->b, ',');
            s->idx[d] = i;
            JSValue e = JS_GetPropertyInt64(c, v, i);
            if (JS_IsException(e)) {
                r = SER_FAIL;
                goto done;
            }
            int er = ser_value(s, e);
            JS_FreeValue(c, e);
            if (er == SER_FAIL) {
                r = SER_FAIL;
                goto done;
            }
            if (er == SER_OMIT && s->strict) {
                s->problem = "holds undefined, a function or a symbol";
                r = SER_FAIL;
                goto done;
            }
            if (er == SER_OMIT) dbuf_putstr(&s->b, "null");
            if (ser_over_limit(s)) {
                r = SER_FAIL;
                goto done;
            }
        }
        dbuf_putc(&s->b, ']');
        goto done;
    }
    JSPropertyEnum *tab;
    uint32_t n;
    if (JS_GetOwnPropertyNames(c, &tab, &n, v, JS_GPN_STRING_MASK | JS_GPN_ENUM_ONLY) < 0) {
        r = SER_FAIL;
        goto done;
    }
    dbuf_putc(&s->b, '{');
    int first = 1;
    for (uint32_t i = 0; i < n && r == SER_OK; i++) {
        size_t klen;
        const char *k = JS_AtomToCStringLen(c, &klen, tab[i].atom);
        if (!k) {
            r = SER_FAIL;
            break;
        }
        wtf8_fix((char *)k, klen);
        s->keys[d] = k;
        JSValue e = JS_GetProperty(c, v, tab[i].atom);
        if (JS_IsException(e)) {
            r = SER_FAIL;
        } else {
            size_t mark = s->b.size;
            if (!first) dbuf_putc(&s->b, ',');
            json_quote(&s->b, k, klen);
            dbuf_putc(&s->b, ':');
            int er = ser_value(s, e);
            JS_FreeValue(c, e);
            if (er == SER_OMIT && s->strict) {
                s->problem = "holds undefined, a function or a symbol";
                r = SER_FAIL;
            } else if (er == SER_OMIT) {
                s->b.size = mark; // undefined, a function or a symbol: left out
            } else if (er == SER_FAIL) {
                r = SER_FAIL;
            } else {
                first = 0;
                if (ser_over_limit(s)) r = SER_FAIL; // keys count too
            }
        }
        if (r == SER_OK) JS_FreeCString(c, k);
        // On failure the key stays on the path for the message; describe
        // frees it.
    }
    JS_FreePropertyEnum(c, tab, n);
    if (r == SER_OK) {
        s->keys[d] = NULL;
        dbuf_putc(&s->b, '}');
    }
done:
    if (r == SER_OK) s->depth--;
    out_of_memory_if(s->b.error);
    return r;
}

static int ser_value(struct ser *s, JSValueConst v) {
    JSContext *c = s->c;
    char num[32];
    switch (JS_VALUE_GET_NORM_TAG(v)) {
    case JS_TAG_NULL:
        dbuf_putstr(&s->b, "null");
        break;
    case JS_TAG_BOOL:
        dbuf_putstr(&s->b, JS_VALUE_GET_BOOL(v) ? "true" : "false");
        break;
    case JS_TAG_INT:
    {
        // The digits by hand: snprintf's machinery costs more than the rest
        // of a small argument object.
        int32_t i = JS_VALUE_GET_INT(v);
        uint32_t u = i < 0 ? 0u - (uint32_t)i : (uint32_t)i;
        char *e = num + sizeof num, *d = e;
        do {
            *--d = (char)('0' + u % 10);
            u /= 10;
        } while (u);
        if (i < 0) *--d = '-';
        dbuf_put(&s->b, (const uint8_t *)d, (size_t)(e - d));
        break;
    }
    case JS_TAG_FLOAT64: {
        double d = JS_VALUE_GET_FLOAT64(v);
        if (!isfinite(d) && s->strict) {
            s->problem = "is not a finite number";
            return SER_FAIL;
        }
        if (!isfinite(d)) {
            dbuf_putstr(&s->b, "null");
            break;
        }
        size_t len;
        const char *t = JS_ToCStringLen(c, &len, v); // Number::toString, not the program's
        if (!t) return SER_FAIL;
        dbuf_put(&s->b, (const uint8_t *)t, len);
        JS_FreeCString(c, t);
        break;
    }
    case JS_TAG_STRING:
        if (json_quote_value(c, &s->b, v) < 0) return SER_FAIL;
        break;
    case JS_TAG_UNDEFINED:
    case JS_TAG_SYMBOL:
        return SER_OMIT;
    case JS_TAG_OBJECT: {
        if (s->strict) {
            // toJSON applies, as in JSON.stringify (the value's own code).
            JSValue tj = JS_GetProperty(c, v, atom_toJSON);
            if (JS_IsException(tj)) return SER_FAIL;
            if (JS_IsFunction(c, tj)) {
                // Its argument is the property's name, or the index as a
                // string in an array, "" at the top, as in JSON.stringify.
                JSValue key;
                if (s->depth == 0) {
                    key = JS_NewString(c, "");
                } else if (s->keys[s->depth - 1]) {
                    key = JS_NewString(c, s->keys[s->depth - 1]);
                } else {
                    JSValue n = JS_NewInt64(c, s->idx[s->depth - 1]);
                    key = JS_ToString(c, n);
                    JS_FreeValue(c, n);
                }
                if (JS_IsException(key)) {
                    JS_FreeValue(c, tj);
                    return SER_FAIL;
                }
                JSValue r = JS_Call(c, tj, v, 1, (JSValueConst *)&key);
                JS_FreeValue(c, key);
                JS_FreeValue(c, tj);
                if (JS_IsException(r)) return SER_FAIL;
                if (JS_IsObject(r) && JS_VALUE_GET_PTR(r) == JS_VALUE_GET_PTR(v)) {
                    JS_FreeValue(c, r);
                } else {
                    int er = ser_value(s, r);
                    JS_FreeValue(c, r);
                    return er;
                }
            } else {
                JS_FreeValue(c, tj);
            }
            if (JS_IsFunction(c, v)) return SER_OMIT;
            return ser_object(s, v);
        }
        JSValue prim = JS_PtcUnbox(c, v); // new Number(1), new String("a"), ...
        if (!JS_IsUninitialized(prim)) {
            int r = ser_value(s, prim);
            JS_FreeValue(c, prim);
            return r;
        }
        if (JS_IsFunction(c, v)) return SER_OMIT;
        if (JS_IsDate(v)) {
            JSValue iso = JS_Call(c, date_json_fn, JS_UNDEFINED, 1, &v);
            if (JS_IsException(iso)) return SER_FAIL;
            int r = JS_IsString(iso) ? json_quote_value(c, &s->b, iso) : (dbuf_putstr(&s->b, "null"), 0);
            JS_FreeValue(c, iso);
            if (r < 0) return SER_FAIL;
            break;
        }
        return ser_object(s, v);
    }
    default:
        if (JS_IsBigInt(v)) {
            s->problem = "is a BigInt (convert it to a number or a string)";
            return SER_FAIL;
        }
        s->problem = "is not JSON data";
        return SER_FAIL;
    }
    if (ser_over_limit(s)) return SER_FAIL;
    return SER_OK;
}

static int is_identifier(const char *k) {
    if (!*k || (*k >= '0' && *k <= '9')) return 0;
    for (; *k; k++) {
        char ch = *k;
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '$'))
            return 0;
    }
    return 1;
}

// ser_problem describes a refused value ("args.items[2].price is a BigInt
// ...") and frees the keys left on the path.
static JSValue ser_problem(struct ser *s) {
    DynBuf m;
    dbuf_init(&m);
    if (s->limit) {
        for (int i = 0; i < s->depth; i++)
            if (s->keys[i]) JS_FreeCString(s->c, s->keys[i]);
        JSValue msg = JS_NewString(s->c, s->problem);
        dbuf_free(&m);
        return msg;
    }
    dbuf_putstr(&m, "tool arguments must be JSON data: args");
    for (int i = 0; i < s->depth; i++) {
        const char *k = s->keys[i];
        if (!k) {
            dbuf_printf(&m, "[%lld]", (long long)s->idx[i]);
            continue;
        }
        if (is_identifier(k)) {
            dbuf_putc(&m, '.');
            dbuf_putstr(&m, k);
        } else {
            dbuf_putc(&m, '[');
            json_quote(&m, k, strlen(k));
            dbuf_putc(&m, ']');
        }
        JS_FreeCString(s->c, k);
    }
    dbuf_putc(&m, ' ');
    dbuf_putstr(&m, s->problem);
    out_of_memory_if(m.error);
    JSValue msg = JS_NewStringLen(s->c, (const char *)m.buf, m.size);
    dbuf_free(&m);
    return msg;
}

// ser_new starts a serialisation (strict for a return value) with its
// limits; NULL when out of memory. Free it with dbuf_free(&s->b), js_free.
static struct ser *ser_new(JSContext *c, int strict, uint32_t bytes, uint32_t depth) {
    struct ser *s = js_malloc(c, sizeof *s);
    if (!s) return NULL;
    s->c = c;
    s->depth = 0;
    s->problem = NULL;
    s->limit = 0;
    s->strict = strict;
    s->bytes_limit = bytes;
    s->depth_limit = depth;
    dbuf_init(&s->b);
    return s;
}

// serialise_args writes args as JSON into b. It returns 0, -1 with an
// exception pending, or 1 with *problem set to the message for a value
// JSON cannot hold.
static int serialise_args(JSContext *c, JSValueConst args, DynBuf *b, JSValue *problem) {
    if (JS_IsUndefined(args)) {
        dbuf_putstr(b, "{}");
        return 0;
    }
    struct ser *s = ser_new(c, 0, args_bytes_limit, args_depth_limit);
    if (!s) return -1;
    int r = ser_value(s, args);
    if (r == SER_OMIT) {
        s->problem = JS_IsSymbol(args) ? "is a symbol" : "is a function";
        r = SER_FAIL;
    }
    int ret = 0;
    if (r == SER_FAIL && s->problem) {
        *problem = ser_problem(s);
        ret = JS_IsException(*problem) ? -1 : 1;
    } else if (r == SER_FAIL) {
        for (int i = 0; i < s->depth; i++)
            if (s->keys[i]) JS_FreeCString(c, s->keys[i]);
        ret = -1;
    } else if (ser_over_limit(s)) {
        *problem = ser_problem(s);
        ret = JS_IsException(*problem) ? -1 : 1;
    } else {
        dbuf_put(b, s->b.buf, s->b.size);
        out_of_memory_if(b->error);
    }
    dbuf_free(&s->b);
    js_free(c, s);
    return ret;
}

static JSValue native_write(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv) {
    (void)this_val;
    size_t len;
    if (argc < 1) return JS_UNDEFINED;
    const char *s = to_utf8(c, argv[0], &len);
    if (!s) return JS_EXCEPTION;
    int32_t r = host_write(s, (uint32_t)len);
    JS_FreeCString(c, s);
    if (r != 0) return stop(c);
    return JS_UNDEFINED;
}

static int64_t monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

// now_ms is the time since the run started, in milliseconds: what
// performance.now() returns and what timers are due by.
static double now_ms(void) { return (double)(monotonic_ns() - run_start_ns) / 1e6; }

static JSValue native_now(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv) {
    (void)this_val, (void)argc, (void)argv;
    return JS_NewFloat64(c, now_ms());
}

static JSValue native_time_origin(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv) {
    (void)this_val, (void)argc, (void)argv;
    return JS_NewFloat64(c, run_origin_ms);
}

// native_random_bytes is randomBytes(n): an ArrayBuffer of n random bytes
// (at most 65536) from the run's random source (WASI random_get).
static JSValue native_random_bytes(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv) {
    (void)this_val;
    int32_t n = 0;
    if (argc < 1 || JS_ToInt32(c, &n, argv[0]) < 0) return JS_EXCEPTION;
    if (n < 0 || n > 65536) return JS_ThrowRangeError(c, "randomBytes: %d bytes", n);
    uint8_t buf[256];
    uint8_t *all = js_malloc(c, n ? (size_t)n : 1);
    if (!all) return JS_EXCEPTION;
    for (int32_t off = 0; off < n; off += (int32_t)sizeof buf) {
        int32_t k = n - off < (int32_t)sizeof buf ? n - off : (int32_t)sizeof buf;
        if (getentropy(buf, (size_t)k) != 0) {
            js_free(c, all);
            return JS_ThrowInternalError(c, "no random source");
        }
        memcpy(all + off, buf, (size_t)k);
    }
    JSValue r = JS_NewArrayBufferCopy(c, all, (size_t)n);
    js_free(c, all);
    return r;
}

static JSValue native_timers(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv) {
    (void)this_val;
    if (argc < 3 || JS_ToInt32(c, &timers_live, argv[0]) < 0 || JS_ToInt32(c, &timers_keep, argv[1]) < 0 ||
        JS_ToInt32(c, &timers_refd, argv[2]) < 0)
        return JS_EXCEPTION;
    return JS_UNDEFINED;
}

static JSValue native_timer_limit(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv) {
    (void)this_val, (void)argc, (void)argv;
    return JS_NewUint32(c, timer_limit);
}

// native_map_line is mapLine(line, col): [line, col] in the program as
// written when it was stripped TypeScript, else undefined.
static JSValue native_map_line(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv) {
    (void)this_val;
    int32_t line, col;
    if (!linemap || argc < 2 || JS_ToInt32(c, &line, argv[0]) < 0 || JS_ToInt32(c, &col, argv[1]) < 0) return JS_UNDEFINED;
    if (line < 1 || (uint32_t)line >= linemap_lines || linemap[2 * line] <= 0) return JS_UNDEFINED;
    int32_t mc = col + linemap[2 * line + 1];
    JSValue r = JS_NewArray(c);
    JS_SetPropertyUint32(c, r, 0, JS_NewInt32(c, linemap[2 * line]));
    JS_SetPropertyUint32(c, r, 1, JS_NewInt32(c, mc < 1 ? 1 : mc));
    return r;
}

// native_promise_state is promiseState(p): ['pending'], ['fulfilled', v]
// or ['rejected', v]; undefined for what is not a promise.
static JSValue native_promise_state(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv) {
    (void)this_val;
    if (argc < 1 || !JS_IsPromise(argv[0])) return JS_UNDEFINED;
    JSPromiseStateEnum st = JS_PromiseState(c, argv[0]);
    JSValue r = JS_NewArray(c);
    const char *name = st == JS_PROMISE_FULFILLED ? "fulfilled" : st == JS_PROMISE_REJECTED ? "rejected" : "pending";
    JS_SetPropertyUint32(c, r, 0, JS_NewString(c, name));
    if (st != JS_PROMISE_PENDING) JS_SetPropertyUint32(c, r, 1, JS_PromiseResult(c, argv[0]));
    return r;
}

// load_script evaluates the bytecode of one of the guest's scripts, which
// the host holds, and returns its value. The bytecode has no source and
// no debug information: its frames never show in a program's stack.
static JSValue load_script(JSContext *c, int32_t id) {
    int32_t n = host_script(id, NULL, 0);
    if (n <= 0) return JS_ThrowInternalError(c, "guest script %d is not available", (int)id);
    uint8_t *buf = malloc((size_t)n);
    if (!buf) JS_PtcOutOfMemory();
    if (host_script(id, (char *)buf, (uint32_t)n) != n) {
        free(buf);
        halt();
    }
    JSValue obj = JS_ReadObject(c, buf, (size_t)n, JS_READ_OBJ_BYTECODE);
    // Zeroed before it is freed: in the snapshot, memory that is zero
    // again is not copied into each run.
    memset(buf, 0, (size_t)n);
    free(buf);
    if (JS_IsException(obj)) return obj;
    return JS_EvalFunction(c, obj);
}

// native_load_intl evaluates the Intl bundle and returns its install
// function; native_load_inspect and native_load_web evaluate inspect.js and
// web.js and return their factories. All are loaded on first use: most
// programs need none of them, and every byte of the snapshot is copied
// into every run.
static JSValue native_load_intl(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv) {
    (void)this_val, (void)argc, (void)argv;
    return load_script(c, SCRIPT_INTL);
}

// native_intl_data is intlData(k): the text of entry k of the Intl
// bundle's locale data (host/intl.go), which the host hands over as the
// script SCRIPT_INTL + 1 + k; undefined when there is no such entry. The
// data is JSON the bundle parses, not code.
static JSValue native_intl_data(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv) {
    (void)this_val;
    int32_t k;
    if (argc < 1 || JS_ToInt32(c, &k, argv[0])) return JS_EXCEPTION;
    if (k < 0 || k > INT32_MAX - SCRIPT_INTL - 1) return JS_UNDEFINED;
    int32_t id = SCRIPT_INTL + 1 + k;
    int32_t n = host_script(id, NULL, 0);
    if (n <= 0) return JS_UNDEFINED;
    char *buf = malloc((size_t)n);
    if (!buf) JS_PtcOutOfMemory();
    if (host_script(id, buf, (uint32_t)n) != n) {
        free(buf);
        halt();
    }
    JSValue s = JS_NewStringLen(c, buf, (size_t)n);
    free(buf);
    return s;
}

static JSValue native_load_inspect(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv) {
    (void)this_val, (void)argc, (void)argv;
    return load_script(c, SCRIPT_INSPECT);
}

static JSValue native_load_web(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv) {
    (void)this_val, (void)argc, (void)argv;
    return load_script(c, SCRIPT_WEB);
}

// native_collate is collate(a, b, locale, options): the order of strings a
// and b by the host's CLDR collation (-1, 0, 1).
static JSValue native_collate(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv) {
    (void)this_val;
    if (argc < 4) return JS_ThrowTypeError(c, "collate: 4 arguments expected");
    size_t len[4];
    const char *s[4] = {0};
    int ok = 1;
    for (int i = 0; i < 4 && ok; i++) {
        s[i] = to_utf8(c, argv[i], &len[i]);
        ok = s[i] != NULL;
    }
    int32_t r = 0;
    if (ok) r = host_collate(s[2], (uint32_t)len[2], s[3], (uint32_t)len[3], s[0], (uint32_t)len[0], s[1], (uint32_t)len[1]);
    for (int i = 0; i < 4; i++)
        if (s[i]) JS_FreeCString(c, s[i]);
    if (!ok) return JS_EXCEPTION;
    return JS_NewInt32(c, r);
}

// native_domain_to_ascii is domainToASCII(domain): the URL Standard's
// domain to ASCII of String(domain) (UTS #46), which the host computes;
// null when the domain is not valid. The host answers with the result's
// length and copies it when it fits; a longer one is asked for again with
// room for it.
static JSValue native_domain_to_ascii(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv) {
    (void)this_val;
    if (argc < 1) return JS_ThrowTypeError(c, "domainToASCII: 1 argument expected");
    size_t len;
    const char *s = to_utf8(c, argv[0], &len);
    if (!s) return JS_EXCEPTION;
    char small[256], *out = small;
    int32_t n = host_domain_to_ascii(s, (uint32_t)len, out, sizeof small);
    if (n > (int32_t)sizeof small) {
        out = malloc((size_t)n);
        if (!out) JS_PtcOutOfMemory();
        if (host_domain_to_ascii(s, (uint32_t)len, out, (uint32_t)n) != n) halt();
    }
    JS_FreeCString(c, s);
    JSValue r = n < 0 ? JS_NULL : JS_NewStringLen(c, out, (size_t)n);
    if (out != small) free(out);
    return r;
}

// rejected returns a promise rejected with ToolError(name, code, message).
static JSValue rejected(JSContext *c, JSValueConst name, const char *code, JSValueConst message) {
    JSValue args[3] = {JS_DupValue(c, name), JS_NewString(c, code), JS_DupValue(c, message)};
    JSValue err = JS_Call(c, tool_error_fn, JS_UNDEFINED, 3, (JSValueConst *)args);
    for (int i = 0; i < 3; i++) JS_FreeValue(c, args[i]);
    if (JS_IsException(err)) return JS_EXCEPTION;
    JSValue promise = JS_PtcNewPromise(c);
    if (!JS_IsException(promise)) JS_PtcSettlePromise(c, promise, err, true);
    JS_FreeValue(c, err);
    return promise;
}

// native_call is __ptc_call(name, args): it starts a subcall with
// String(name) and args serialised by the SDK's own serialiser, and returns
// a promise the host's result settles (see settle in ptc_run). Arguments
// JSON cannot hold reject with INVALID_ARGUMENTS without a subcall.
static JSValue native_call(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv) {
    (void)this_val;
    JSValueConst name_arg = argc > 0 ? argv[0] : JS_UNDEFINED;
    JSValueConst args_arg = argc > 1 ? argv[1] : JS_UNDEFINED;
    JSValue name = JS_IsString(name_arg) ? JS_DupValue(c, name_arg) : JS_Call(c, string_fn, JS_UNDEFINED, 1, &name_arg);
    if (JS_IsException(name)) return JS_EXCEPTION;
    DynBuf args;
    dbuf_init(&args);
    JSValue problem = JS_UNDEFINED;
    int sr = serialise_args(c, args_arg, &args, &problem);
    if (sr != 0) {
        dbuf_free(&args);
        JSValue r = sr > 0 ? rejected(c, name, "INVALID_ARGUMENTS", problem) : JS_EXCEPTION;
        JS_FreeValue(c, problem);
        JS_FreeValue(c, name);
        return r;
    }
    size_t nlen;
    const char *ns = to_utf8(c, name, &nlen);
    JSValue promise = JS_EXCEPTION;
    if (ns && ptab_reserve(c) == 0) promise = JS_PtcNewPromise(c);
    if (JS_IsException(promise)) {
        JS_FreeCString(c, ns);
        dbuf_free(&args);
        JS_FreeValue(c, name);
        return JS_EXCEPTION;
    }
    int32_t id = host_call_start(ns, (uint32_t)nlen, (const char *)args.buf, (uint32_t)args.size);
    JS_FreeCString(c, ns);
    dbuf_free(&args);
    if (id <= 0) {
        JS_FreeValue(c, name);
        JS_FreeValue(c, promise);
        return stop(c);
    }
    ptab_put(c, (struct pending){id, JS_DupValue(c, promise), name});
    pending_calls++;
    return promise;
}

static void finish_str(int32_t kind, const char *s, size_t len) { host_finish(kind, s, (uint32_t)len); }

static void finish_lit(int32_t kind, const char *json) { finish_str(kind, json, strlen(json)); }

// finish_exception reports the pending exception of ctx with the kind given
// (or KIND_STOPPED when it is the uncatchable interrupt).
// finish_undescribed reports an exception that could not be described
// (describing it threw; that exception is pending and dropped here).
static void finish_undescribed(int32_t kind) {
    JSValue e = JS_GetException(ctx);
    int uncatchable = JS_IsUncatchableError(e);
    JS_FreeValue(ctx, e);
    if (uncatchable)
        finish_lit(KIND_STOPPED, "{\"message\":\"interrupted\",\"stack\":\"\"}");
    else
        finish_lit(kind, "{\"message\":\"exception could not be described\",\"stack\":\"\"}");
}

static void finish_exception(int32_t kind) {
    JSValue exc = JS_GetException(ctx);
    if (JS_IsUncatchableError(exc)) {
        JS_FreeValue(ctx, exc);
        finish_lit(KIND_STOPPED, "{\"message\":\"interrupted\",\"stack\":\"\"}");
        return;
    }
    JSValue r = JS_Call(ctx, describe_fn, JS_UNDEFINED, 1, (JSValueConst *)&exc);
    JS_FreeValue(ctx, exc);
    if (JS_IsException(r)) {
        finish_undescribed(kind);
        return;
    }
    // {"message": r[0], "stack": r[1]}, written here so that nothing the
    // program replaced (JSON, Object.prototype.toJSON) shapes it.
    DynBuf b;
    dbuf_init(&b);
    dbuf_putstr(&b, "{\"message\":");
    JSValue m = JS_GetPropertyUint32(ctx, r, 0), st = JS_GetPropertyUint32(ctx, r, 1);
    JS_FreeValue(ctx, r);
    int ok = !JS_IsException(m) && !JS_IsException(st) && json_quote_value(ctx, &b, m) == 0;
    dbuf_putstr(&b, ",\"stack\":");
    ok = ok && json_quote_value(ctx, &b, st) == 0;
    dbuf_putc(&b, '}');
    JS_FreeValue(ctx, m);
    JS_FreeValue(ctx, st);
    out_of_memory_if(b.error);
    if (!ok) {
        finish_undescribed(kind);
    } else {
        finish_str(kind, (const char *)b.buf, b.size);
    }
    dbuf_free(&b);
}

// plain_json writes v as JSON into b when it is plain data (see
// ser.strict); it returns 1 then, 0 when it is not (with nothing pending),
// -1 with an exception pending (a getter or toJSON threw).
static int plain_json(JSValueConst v, DynBuf *b) {
    struct ser *s = ser_new(ctx, 1, UINT32_MAX, ARGS_MAX_DEPTH);
    if (!s) return -1;
    int r = ser_value(s, v);
    for (int i = 0; i < s->depth; i++)
        if (s->keys[i]) JS_FreeCString(ctx, s->keys[i]);
    int ret = 0;
    if (r == SER_OK) {
        dbuf_put(b, s->b.buf, s->b.size);
        out_of_memory_if(b->error);
        ret = 1;
    } else if (r == SER_FAIL && !s->problem) {
        ret = -1;
    }
    dbuf_free(&s->b);
    js_free(ctx, s);
    return ret;
}

// finish_ok reports the program's return value v: {} for undefined;
// {"value": JSON} for a value JSON represents as it is (a string, plain
// data; toJSON applied); {"text": Node's inspect, "value": JSON converted}
// for any other (docs/ARCHITECTURE.md: the return value never fails the run).
// inspect.js's returnValue decides; the layout is written here so that
// nothing the program replaced shapes it.
static void finish_ok(JSValueConst v) {
    if (JS_IsUndefined(v)) {
        finish_lit(KIND_OK, "{}");
        return;
    }
    // Plain data, the common case, is written here: fast, and out of the
    // reach of what the program replaced (JSON, Object.keys, ...).
    DynBuf pj;
    dbuf_init(&pj);
    dbuf_putstr(&pj, "{\"value\":");
    int pr = plain_json(v, &pj);
    if (pr > 0) {
        dbuf_putc(&pj, '}');
        out_of_memory_if(pj.error);
        finish_str(KIND_OK, (const char *)pj.buf, pj.size);
        dbuf_free(&pj);
        return;
    }
    dbuf_free(&pj);
    if (pr < 0) {
        // A getter, a toJSON or a proxy trap threw: inspect.js shows the
        // value as Node would, the throwing parts included.
        JSValue e = JS_GetException(ctx);
        int uncatchable = JS_IsUncatchableError(e);
        if (uncatchable) {
            JS_Throw(ctx, e);
            finish_exception(KIND_EXCEPTION);
            return;
        }
        JS_FreeValue(ctx, e);
    }
    JSValue r = JS_Call(ctx, return_value_fn, JS_UNDEFINED, 1, &v);
    if (JS_IsException(r)) {
        finish_exception(KIND_EXCEPTION);
        return;
    }
    JSValue kind = JS_GetPropertyUint32(ctx, r, 0), a = JS_GetPropertyUint32(ctx, r, 1), b = JS_GetPropertyUint32(ctx, r, 2);
    JS_FreeValue(ctx, r);
    DynBuf out;
    dbuf_init(&out);
    int ok = JS_IsString(kind) && JS_IsString(a);
    size_t klen = 0;
    const char *k = ok ? JS_ToCStringLen(ctx, &klen, kind) : NULL;
    int text = k && strcmp(k, "text") == 0;
    if (k) JS_FreeCString(ctx, k);
    const char *js = NULL;
    size_t jlen = 0;
    if (ok && text) {
        dbuf_putstr(&out, "{\"text\":");
        ok = json_quote_value(ctx, &out, a) == 0;
        if (ok && JS_IsString(b)) js = to_utf8(ctx, b, &jlen);
    } else if (ok) {
        js = to_utf8(ctx, a, &jlen);
        dbuf_putc(&out, '{');
    }
    if (ok && js) {
        if (text) dbuf_putc(&out, ',');
        dbuf_putstr(&out, "\"value\":");
        dbuf_put(&out, (const uint8_t *)js, jlen);
    }
    if (js) JS_FreeCString(ctx, js);
    dbuf_putc(&out, '}');
    JS_FreeValue(ctx, kind);
    JS_FreeValue(ctx, a);
    JS_FreeValue(ctx, b);
    out_of_memory_if(out.error);
    if (!ok) {
        if (JS_HasException(ctx)) finish_exception(KIND_EXCEPTION);
        else finish_lit(KIND_INTERNAL, "{\"message\":\"the return value could not be rendered\",\"stack\":\"\"}");
    } else {
        finish_str(KIND_OK, (const char *)out.buf, out.size);
    }
    dbuf_free(&out);
}

// --- unhandled rejections: as in Node, one ends the run ---

// A promise rejected with no handler when the job queue runs dry is an
// error of the program, as in Node; the body's own promise is the glue's
// to handle. Kept as a list of [promise, reason] pairs in a JS array.
static JSValue unhandled;
static JSValue body_promise;

static void rejection_tracker(JSContext *c, JSValueConst promise, JSValueConst reason, bool is_handled, void *opaque) {
    (void)opaque;
    if (JS_IsUndefined(unhandled)) return;
    if (JS_VALUE_GET_PTR(promise) == JS_VALUE_GET_PTR(body_promise) && JS_IsObject(body_promise)) return;
    int64_t n;
    if (JS_GetLength(c, unhandled, &n) < 0) return;
    if (!is_handled) {
        JSValue pair = JS_NewArray(c);
        JS_SetPropertyUint32(c, pair, 0, JS_DupValue(c, promise));
        JS_SetPropertyUint32(c, pair, 1, JS_DupValue(c, reason));
        JS_SetPropertyInt64(c, unhandled, n, pair);
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        JSValue pair = JS_GetPropertyInt64(c, unhandled, i);
        JSValue p = JS_GetPropertyUint32(c, pair, 0);
        int same = JS_VALUE_GET_PTR(p) == JS_VALUE_GET_PTR(promise);
        JS_FreeValue(c, p);
        JS_FreeValue(c, pair);
        if (!same) continue;
        // Remove entry i: move the last one into its place.
        JSValue last = JS_GetPropertyInt64(c, unhandled, n - 1);
        JS_SetPropertyInt64(c, unhandled, i, last);
        JS_SetLength(c, unhandled, n - 1);
        return;
    }
}

// first_unhandled returns (a new reference to) the reason of the oldest
// unhandled rejection, or JS_UNINITIALIZED when there is none.
static JSValue first_unhandled(void) {
    int64_t n;
    if (JS_IsUndefined(unhandled) || JS_GetLength(ctx, unhandled, &n) < 0 || n == 0) return JS_UNINITIALIZED;
    JSValue pair = JS_GetPropertyInt64(ctx, unhandled, 0);
    JSValue reason = JS_GetPropertyUint32(ctx, pair, 1);
    JS_FreeValue(ctx, pair);
    return reason;
}

// new_runtime creates the runtime and the context, without the scripts.
static int new_runtime(void) {
    if (rt) return 0;
    rt = JS_NewRuntime2(&malloc_funcs, NULL);
    if (!rt) return -1;
    JS_SetInterruptHandler(rt, interrupt_handler, NULL);
    ctx = JS_NewContext(rt);
    if (!ctx) return -1;
    unhandled = JS_UNDEFINED;
    body_promise = JS_UNDEFINED;
    JS_SetHostPromiseRejectionTracker(rt, rejection_tracker, NULL);
    return 0;
}

static void set_native(JSValue obj, const char *name, JSCFunction *fn, int length) {
    JS_SetPropertyStr(ctx, obj, name, JS_NewCFunction(ctx, fn, name, length));
}

static int setup(void) {
    if (new_runtime() != 0) return -1;
    JSValue o = JS_NewObject(ctx), a = JS_NewArray(ctx);
    object_proto = JS_GetPrototype(ctx, o);
    array_proto = JS_GetPrototype(ctx, a);
    atom_toJSON = JS_NewAtom(ctx, "toJSON");
    JS_FreeValue(ctx, o);
    JS_FreeValue(ctx, a);
    JSValue fn = load_script(ctx, SCRIPT_BOOTSTRAP);
    if (JS_IsException(fn)) return -1;
    JSValue native = JS_NewObject(ctx);
    set_native(native, "write", native_write, 1);
    set_native(native, "call", native_call, 2);
    set_native(native, "now", native_now, 0);
    set_native(native, "timeOrigin", native_time_origin, 0);
    set_native(native, "randomBytes", native_random_bytes, 1);
    set_native(native, "timers", native_timers, 2);
    set_native(native, "timerLimit", native_timer_limit, 0);
    set_native(native, "mapLine", native_map_line, 2);
    set_native(native, "promiseState", native_promise_state, 1);
    set_native(native, "loadIntl", native_load_intl, 0);
    set_native(native, "intlData", native_intl_data, 1);
    set_native(native, "loadInspect", native_load_inspect, 0);
    set_native(native, "loadWeb", native_load_web, 0);
    set_native(native, "collate", native_collate, 4);
    set_native(native, "domainToASCII", native_domain_to_ascii, 1);
    JSValue helpers = JS_Call(ctx, fn, JS_UNDEFINED, 1, (JSValueConst *)&native);
    JS_FreeValue(ctx, fn);
    JS_FreeValue(ctx, native);
    if (JS_IsException(helpers)) return -1;
    JSValue *slots[] = {&settle_fn, &describe_fn, &string_fn, &keep_shapes, &tool_error_fn, &date_json_fn,
                        &timer_next_fn, &timer_fire_fn, &return_value_fn, &load_intl_fn};
    for (uint32_t i = 0; i < sizeof slots / sizeof slots[0]; i++) *slots[i] = JS_GetPropertyUint32(ctx, helpers, i);
    JS_FreeValue(ctx, helpers);
    unhandled = JS_NewArray(ctx);
    JS_RunGC(rt);
    return 0;
}

// ptc_compile compiles src (UTF-8, len bytes, from ptc_alloc), one of the
// guest's own scripts, to bytecode without source or debug information.
// It returns a buffer holding the bytecode's length (u32, little-endian)
// and then the bytecode, or 0 when the script does not compile. The host
// calls it in an instance of its own, whose memory it then discards: what
// the parser used never reaches the snapshot every run starts from.
EXPORT("ptc_compile") uint8_t *ptc_compile(char *src, uint32_t len) {
    if (new_runtime() != 0) return NULL;
    src = realloc(src, (size_t)len + 1); // JS_Eval reads a NUL at src[len]
    if (!src) JS_PtcOutOfMemory();
    src[len] = 0;
    JSValue obj = JS_Eval(ctx, src, len, "<ptc>", JS_EVAL_TYPE_GLOBAL | JS_EVAL_FLAG_STRICT | JS_EVAL_FLAG_COMPILE_ONLY);
    free(src);
    if (JS_IsException(obj)) {
        // No bootstrap to describe it with: its message and stack.
        JSValue e = JS_GetException(ctx);
        JSValue st = JS_GetPropertyStr(ctx, e, "stack");
        DynBuf b;
        dbuf_init(&b);
        dbuf_putstr(&b, "{\"message\":");
        json_quote_value(ctx, &b, e);
        dbuf_putstr(&b, ",\"stack\":");
        json_quote_value(ctx, &b, st);
        dbuf_putc(&b, '}');
        JS_FreeValue(ctx, e);
        JS_FreeValue(ctx, st);
        out_of_memory_if(b.error);
        finish_str(KIND_SYNTAX, (const char *)b.buf, b.size);
        dbuf_free(&b);
        return NULL;
    }
    size_t n;
    uint8_t *bc = JS_WriteObject(ctx, &n, obj, JS_WRITE_OBJ_BYTECODE | JS_WRITE_OBJ_STRIP_SOURCE | JS_WRITE_OBJ_STRIP_DEBUG);
    JS_FreeValue(ctx, obj);
    if (!bc) return NULL;
    uint8_t *out = malloc(n + 4);
    if (!out) JS_PtcOutOfMemory();
    out[0] = (uint8_t)n, out[1] = (uint8_t)(n >> 8), out[2] = (uint8_t)(n >> 16), out[3] = (uint8_t)(n >> 24);
    memcpy(out + 4, bc, n);
    js_free(ctx, bc);
    return out;
}

static int initialised;

// HEADROOM is the free heap ptc_init leaves for the runs.
#define HEADROOM (192 * 1024)

// ptc_init creates the runtime, the context and the bootstrap. The host
// may call it once, snapshot the linear memory, and start later instances
// from that snapshot; ptc_run calls it itself when it was not called.
EXPORT("ptc_init") int32_t ptc_init(void) {
    if (initialised) return 0;
    scrub = 1;
    int r = setup();
    scrub = 0;
    if (r != 0) return -1;
    // Leave the allocator free space at the top of the heap, so that a run
    // of an ordinary program takes its memory from there instead of growing
    // the linear memory: the host reuses an instance whose memory did not
    // grow past its snapshot (host/pool.go). The pages stay zero until used.
    void *volatile headroom = malloc(HEADROOM); // volatile: kept by the compiler
    free(headroom);
    initialised = 1;
    return 0;
}

// ptc_alloc gives the host a buffer for the program source.
EXPORT("ptc_alloc") void *ptc_alloc(uint32_t size) { return malloc(size ? size : 1); }

// ptc_prelude evaluates a trusted script (the generated tools SDK, say) in
// src (UTF-8, len bytes, allocated with ptc_alloc) in the global scope, so
// the program finds what it defines. The host may snapshot the memory after
// it. It returns 0, or -1 after reporting the failure through finish.
EXPORT("ptc_prelude") int32_t ptc_prelude(char *src, uint32_t len) {
    if (ptc_init() != 0) {
        finish_lit(KIND_INTERNAL, "{\"message\":\"guest setup failed\",\"stack\":\"\"}");
        return -1;
    }
    char *code = realloc(src, (size_t)len + 1);
    if (!code) {
        free(src);
        finish_lit(KIND_INTERNAL, "{\"message\":\"out of memory loading the prelude\",\"stack\":\"\"}");
        return -1;
    }
    code[len] = 0;
    JSValue v = JS_Eval(ctx, code, len, "<prelude>", JS_EVAL_TYPE_GLOBAL | JS_EVAL_FLAG_STRICT);
    free(code);
    if (JS_IsException(v)) {
        finish_exception(KIND_INTERNAL);
        return -1;
    }
    JS_FreeValue(ctx, v);
    return 0;
}

// --- results: a direct parser for the common case, JSON.parse's otherwise ---
//
// A subcall's value is parsed here when it is made only of objects, arrays,
// printable-ASCII strings without escapes, numbers, true, false and null,
// nested at most FJ_DEPTH deep: the values are built directly, with the
// calls JSON.parse makes (JS_DefinePropertyValue with C_W_E, strtod for a
// number), so the result is the one JSON.parse gives. Anything else (an
// escape, a non-ASCII byte, invalid JSON) goes to JS_ParseJSON whole.

#define FJ_DEPTH 32

struct fj {
    const char *p, *end;
};

static void fj_space(struct fj *f) {
    while (f->p < f->end && (*f->p == ' ' || *f->p == '\n' || *f->p == '\r' || *f->p == '\t')) f->p++;
}

static int fj_digit(const struct fj *f, const char *p) { return p < f->end && *p >= '0' && *p <= '9'; }

// fj_string reads a string of printable ASCII without escapes at f->p (a
// '"'): its bytes in *s, *n; 0 when it is another string.
static int fj_string(struct fj *f, const char **s, size_t *n) {
    const char *q = f->p + 1;
    for (; q < f->end; q++) {
        unsigned char ch = (unsigned char)*q;
        if (ch == '"') {
            *s = f->p + 1;
            *n = (size_t)(q - *s);
            f->p = q + 1;
            return 1;
        }
        if (ch < 0x20 || ch >= 0x80 || ch == '\\') return 0;
    }
    return 0;
}

// fj_number reads a JSON number as json_parse_number does: the grammar
// checked, the value strtod's. JS_UNINITIALIZED when it is not one.
static JSValue fj_number(struct fj *f) {
    const char *p = f->p, *start = p;
    if (p < f->end && *p == '-') p++;
    if (!fj_digit(f, p)) return JS_UNINITIALIZED;
    if (*p == '0' && fj_digit(f, p + 1)) return JS_UNINITIALIZED;
    const char *digits = p;
    uint32_t n = 0;
    while (fj_digit(f, p)) n = n * 10 + (uint32_t)(*p++ - '0');
    int plain = p - digits <= 9;
    if (p < f->end && *p == '.') {
        plain = 0;
        p++;
        if (!fj_digit(f, p)) return JS_UNINITIALIZED;
        while (fj_digit(f, p)) p++;
    }
    if (p < f->end && (*p == 'e' || *p == 'E')) {
        plain = 0;
        p++;
        if (p < f->end && (*p == '+' || *p == '-')) p++;
        if (!fj_digit(f, p)) return JS_UNINITIALIZED;
        while (fj_digit(f, p)) p++;
    }
    f->p = p;
    if (plain) {
        // At most 9 digits: exact as a double, as strtod reads it (-0 too).
        double d = (double)n;
        return JS_NewFloat64(ctx, *start == '-' ? -d : d);
    }
    char tmp[64];
    size_t len = (size_t)(p - start);
    if (len >= sizeof tmp) return JS_UNINITIALIZED;
    memcpy(tmp, start, len);
    tmp[len] = 0;
    return JS_NewFloat64(ctx, strtod(tmp, NULL));
}

// fj_after reads what follows a member of an object or an array: 1 after
// a ',', 0 after close (the end of it), -1 for anything else.
static int fj_after(struct fj *f, char close) {
    fj_space(f);
    if (f->p < f->end && *f->p == ',') {
        f->p++;
        fj_space(f);
        return 1;
    }
    if (f->p < f->end && *f->p == close) {
        f->p++;
        return 0;
    }
    return -1;
}

static int fj_word(struct fj *f, const char *w, size_t n) {
    if ((size_t)(f->end - f->p) < n || memcmp(f->p, w, n) != 0) return 0;
    f->p += n;
    return 1;
}

// fj_value reads one value at f->p (after white space): the value,
// JS_UNINITIALIZED when the input is not of the common case, or
// JS_EXCEPTION (out of memory, say).
static JSValue fj_value(struct fj *f, int depth) {
    if (f->p >= f->end) return JS_UNINITIALIZED;
    switch (*f->p) {
    case '{': {
        if (depth >= FJ_DEPTH) return JS_UNINITIALIZED;
        f->p++;
        JSValue o = JS_NewObject(ctx);
        if (JS_IsException(o)) return o;
        fj_space(f);
        if (f->p < f->end && *f->p == '}') {
            f->p++;
            return o;
        }
        for (;;) {
            const char *k;
            size_t kn;
            if (f->p >= f->end || *f->p != '"' || !fj_string(f, &k, &kn)) break;
            fj_space(f);
            if (f->p >= f->end || *f->p != ':') break;
            f->p++;
            fj_space(f);
            JSValue v = fj_value(f, depth + 1);
            if (JS_IsException(v) || JS_IsUninitialized(v)) {
                JS_FreeValue(ctx, o);
                return v;
            }
            JSAtom a = JS_NewAtomLen(ctx, k, kn);
            if (a == JS_ATOM_NULL) {
                JS_FreeValue(ctx, v);
                JS_FreeValue(ctx, o);
                return JS_EXCEPTION;
            }
            int r = JS_DefinePropertyValue(ctx, o, a, v, JS_PROP_C_W_E);
            JS_FreeAtom(ctx, a);
            if (r < 0) {
                JS_FreeValue(ctx, o);
                return JS_EXCEPTION;
            }
            int next = fj_after(f, '}');
            if (next == 0) return o;
            if (next < 0) break;
        }
        JS_FreeValue(ctx, o);
        return JS_UNINITIALIZED;
    }
    case '[': {
        if (depth >= FJ_DEPTH) return JS_UNINITIALIZED;
        f->p++;
        JSValue a = JS_NewArray(ctx);
        if (JS_IsException(a)) return a;
        fj_space(f);
        if (f->p < f->end && *f->p == ']') {
            f->p++;
            return a;
        }
        for (uint32_t i = 0;; i++) {
            JSValue v = fj_value(f, depth + 1);
            if (JS_IsException(v) || JS_IsUninitialized(v)) {
                JS_FreeValue(ctx, a);
                return v;
            }
            if (JS_DefinePropertyValueUint32(ctx, a, i, v, JS_PROP_C_W_E) < 0) {
                JS_FreeValue(ctx, a);
                return JS_EXCEPTION;
            }
            int next = fj_after(f, ']');
            if (next == 0) return a;
            if (next < 0) break;
        }
        JS_FreeValue(ctx, a);
        return JS_UNINITIALIZED;
    }
    case '"': {
        const char *s;
        size_t n;
        if (!fj_string(f, &s, &n)) return JS_UNINITIALIZED;
        return JS_NewStringLen(ctx, s, n);
    }
    case 't':
        return fj_word(f, "true", 4) ? JS_TRUE : JS_UNINITIALIZED;
    case 'f':
        return fj_word(f, "false", 5) ? JS_FALSE : JS_UNINITIALIZED;
    case 'n':
        return fj_word(f, "null", 4) ? JS_NULL : JS_UNINITIALIZED;
    default:
        return fj_number(f);
    }
}

// parse_result is JSON.parse of the len bytes at buf (buf[len] is 0): the
// direct parser's value when it takes the input, JS_ParseJSON's otherwise.
static JSValue parse_result(const char *buf, size_t len) {
    // An escape or a non-ASCII byte anywhere sends the input to
    // JS_ParseJSON before anything is built.
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)buf[i];
        if (ch == '\\' || ch >= 0x80) return JS_ParseJSON(ctx, buf, len, "<input>");
    }
    struct fj f = {buf, buf + len};
    fj_space(&f);
    JSValue v = fj_value(&f, 0);
    if (JS_IsException(v)) return v;
    if (!JS_IsUninitialized(v)) {
        fj_space(&f);
        if (f.p == f.end) return v;
        JS_FreeValue(ctx, v);
    }
    return JS_ParseJSON(ctx, buf, len, "<input>");
}

static const char ok_prefix[] = "{\"ok\":true,\"value\":";

// settle settles the promise of call id with the envelope in buf (rlen
// bytes, buf[rlen] writable). A success envelope as the host writes it,
// {"ok":true,"value":V}, resolves with JSON.parse(V) parsed here; anything
// else goes through the bootstrap's settle. It returns -1 with an
// exception pending when the run must end.
static int settle(int32_t id, char *buf, uint32_t rlen) {
    struct pending p;
    pending_calls--;
    if (!ptab_take(id, &p)) return 0; // not ours; the host checked the id
    int r = 0, done = 0;
    size_t pl = sizeof(ok_prefix) - 1;
    if (rlen > pl + 1 && memcmp(buf, ok_prefix, pl) == 0 && buf[rlen - 1] == '}') {
        buf[rlen - 1] = 0;
        JSValue v = parse_result(buf + pl, rlen - 1 - pl);
        buf[rlen - 1] = '}';
        if (JS_IsException(v)) {
            JSValue e = JS_GetException(ctx);
            if (JS_IsUncatchableError(e)) {
                JS_Throw(ctx, e);
                r = -1;
                done = 1;
            } else {
                JS_FreeValue(ctx, e); // the bootstrap's settle decides
            }
        } else {
            JS_PtcSettlePromise(ctx, p.promise, v, false);
            JS_FreeValue(ctx, v);
            done = 1;
        }
    }
    if (!done) {
        buf[rlen] = 0;
        JSValue env = JS_NewStringLen(ctx, buf, rlen);
        JSValue res = JS_EXCEPTION;
        if (!JS_IsException(env)) {
            JSValue args[2] = {p.name, env};
            res = JS_Call(ctx, settle_fn, JS_UNDEFINED, 2, (JSValueConst *)args);
            JS_FreeValue(ctx, env);
        }
        if (JS_IsException(res)) {
            r = -1;
        } else {
            JSValue ok = JS_GetPropertyUint32(ctx, res, 0);
            JSValue v = JS_GetPropertyUint32(ctx, res, 1);
            JS_PtcSettlePromise(ctx, p.promise, v, !JS_ToBool(ctx, ok));
            JS_FreeValue(ctx, ok);
            JS_FreeValue(ctx, v);
            JS_FreeValue(ctx, res);
        }
    }
    JS_FreeValue(ctx, p.promise);
    JS_FreeValue(ctx, p.name);
    return r;
}

static void event_loop(JSValueConst promise);
static int deliver(int64_t w);

static const char prefix[] = "(async function () {";
static const char suffix[] = "\n})";

// ptc_run runs the program in src (UTF-8, len bytes, allocated with
// ptc_alloc) to completion and reports the outcome through finish.
// It returns 0 when finish was called, -1 when setup failed.
EXPORT("ptc_run") int32_t ptc_run(char *src, uint32_t len, uint32_t memory_limit, uint32_t stack_size) {
    if (ptc_init() != 0) {
        finish_lit(KIND_INTERNAL, "{\"message\":\"guest setup failed\",\"stack\":\"\"}");
        return -1;
    }
    // Per-run settings, applied after a possible snapshot.
    ptab_clear(ctx);
    pending_calls = 0;
    JS_SetLength(ctx, unhandled, 0);
    run_start_ns = monotonic_ns();
    {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        run_origin_ms = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
    }
    if (memory_limit) JS_SetMemoryLimit(rt, memory_limit);
    if (stack_size) JS_SetMaxStackSize(rt, stack_size);
    {
        // Math.random is seeded from the run's random source (WASI
        // random_get), which the host seeds in deterministic mode, so that
        // the clock alone does not decide the sequence.
        uint64_t seed = 0;
        if (getentropy(&seed, sizeof seed) != 0) seed = 1;
        JS_PtcSeedRandom(ctx, seed);
    }
    size_t total = sizeof(prefix) - 1 + len + sizeof(suffix) - 1;
    char *code = malloc(total + 1);
    if (!code) {
        JS_PtcOutOfMemory();
        return 0;
    }
    memcpy(code, prefix, sizeof(prefix) - 1);
    memcpy(code + sizeof(prefix) - 1, src, len);
    memcpy(code + sizeof(prefix) - 1 + len, suffix, sizeof(suffix));
    free(src);

    // The '}' of the suffix must be the one that closes the function
    // (body-end.patch): the program cannot close it early.
    JS_PtcBodyEnd = code + sizeof(prefix) - 1 + len + 1;
    JSValue compiled = JS_Eval(ctx, code, total, "program.js", JS_EVAL_TYPE_GLOBAL | JS_EVAL_FLAG_COMPILE_ONLY);
    JS_PtcBodyEnd = NULL;
    free(code);
    if (JS_IsException(compiled)) {
        finish_exception(KIND_SYNTAX);
        return 0;
    }
    JSValue func = JS_EvalFunction(ctx, compiled);
    if (JS_IsException(func)) {
        finish_exception(KIND_EXCEPTION);
        return 0;
    }
    JSValue promise = JS_Call(ctx, func, JS_UNDEFINED, 0, NULL);
    JS_FreeValue(ctx, func);
    if (JS_IsException(promise)) {
        finish_exception(KIND_EXCEPTION);
        return 0;
    }
    body_promise = promise;
    event_loop(promise);
    return 0;
}

// fail_with ends the run with value as an uncaught exception.
static void fail_with(JSValue value) {
    JS_Throw(ctx, value);
    finish_exception(KIND_EXCEPTION);
}

// calls_unreachable reports that no pending call's settlement can reach
// program code (JS_PtcUnreachable): each has reactions, and every one is
// a resolving function already used, as for the loser of a settled
// Promise.race or Promise.any, recursively. A call nobody reacts to was
// started for its effect and is reachable: it completes, as in Node.
static int calls_unreachable(void) {
    for (uint32_t i = 0; i < ptab_cap; i++) {
        if (ptab[i].id != 0 && !JS_PtcUnreachable(ctx, ptab[i].promise)) return 0;
    }
    return ptab_n > 0;
}

// event_loop runs the program to its end as Node's event loop would: jobs
// (microtasks) first, then due timers one at a time, then waiting for a
// subcall or the next timer. The run ends when the body has settled and no
// subcall and no timer that keeps it alive (a timeout, not an interval) is
// pending, or only subcalls whose settlement cannot reach program code
// (calls_unreachable); an unhandled rejection ends it as an exception.
static void event_loop(JSValueConst promise) {
    for (;;) {
        JSContext *jc;
        int r;
        while ((r = JS_ExecutePendingJob(rt, &jc)) != 0) {
            if (r < 0) {
                finish_exception(KIND_EXCEPTION);
                return;
            }
        }
        JSPromiseStateEnum st = JS_PromiseState(ctx, promise);
        if (st == JS_PROMISE_REJECTED) {
            fail_with(JS_PromiseResult(ctx, promise));
            return;
        }
        JSValue why = first_unhandled();
        if (!JS_IsUninitialized(why)) {
            fail_with(why);
            return;
        }
        if (st != JS_PROMISE_PENDING && st != JS_PROMISE_FULFILLED) {
            finish_lit(KIND_INTERNAL, "{\"message\":\"program did not return a promise\",\"stack\":\"\"}");
            return;
        }
        int settled = st == JS_PROMISE_FULFILLED;
        if (settled && timers_keep == 0 && pending_calls > 0 && calls_unreachable()) {
            // Every pending call's settlement is lost (the losers of a
            // settled Promise.race): they do not keep the run alive, and
            // the host cancels them when it ends.
            JSValue v = JS_PromiseResult(ctx, promise);
            finish_ok(v);
            JS_FreeValue(ctx, v);
            return;
        }
        if (pending_calls == 0 && (settled ? timers_keep == 0 : timers_refd == 0)) {
            if (settled) {
                JSValue v = JS_PromiseResult(ctx, promise);
                finish_ok(v);
                JS_FreeValue(ctx, v);
            } else {
                finish_lit(KIND_DEADLOCK, "{\"message\":\"program is awaiting a promise that can never settle\",\"stack\":\"\"}");
            }
            return;
        }
        int64_t timeout_ns = -1;
        if (timers_live > 0) {
            JSValue nv = JS_Call(ctx, timer_next_fn, JS_UNDEFINED, 0, NULL);
            double due;
            if (JS_IsException(nv) || JS_ToFloat64(ctx, &due, nv) < 0) {
                finish_exception(KIND_INTERNAL);
                return;
            }
            JS_FreeValue(ctx, nv);
            if (due >= 0) {
                double now = now_ms();
                if (due <= now && pending_calls > 0) {
                    // A timer is due; first take a completed call, if
                    // any, as Node polls I/O on every turn of its loop (a
                    // setImmediate loop must not starve the calls).
                    int64_t w = host_call_wait(0);
                    if (w < 0) halt();
                    if (w > 0 && deliver(w) < 0) {
                        finish_exception(KIND_EXCEPTION);
                        return;
                    }
                    if (w > 0) continue;
                }
                if (due <= now) {
                    JSValue arg = JS_NewFloat64(ctx, now);
                    JSValue fr = JS_Call(ctx, timer_fire_fn, JS_UNDEFINED, 1, (JSValueConst *)&arg);
                    if (JS_IsException(fr)) {
                        finish_exception(KIND_EXCEPTION);
                        return;
                    }
                    JS_FreeValue(ctx, fr);
                    continue;
                }
                timeout_ns = (int64_t)((due - now) * 1e6) + 1;
            }
        }
        int64_t w = host_call_wait(timeout_ns);
        if (w < 0) halt();
        if (w == 0) continue; // a timer is due
        if (deliver(w) < 0) {
            finish_exception(KIND_EXCEPTION);
            return;
        }
    }
}

// deliver reads the completed call call_wait announced in w and settles
// its promise; -1 with an exception pending when the run must end.
static int deliver(int64_t w) {
    int32_t id = (int32_t)(w >> 32);
    uint32_t rlen = (uint32_t)(w & 0xffffffffu);
    char *buf = malloc(rlen + 1);
    if (!buf) JS_PtcOutOfMemory();
    if (host_call_read(id, buf, rlen) != 0) halt();
    int r = settle(id, buf, rlen);
    free(buf);
    return r;
}

// ptc_linemap gives the glue the line map of a stripped TypeScript program
// (see linemap) before ptc_run: n int32 pairs in buf, from ptc_alloc.
EXPORT("ptc_linemap") void ptc_linemap(int32_t *buf, uint32_t n) {
    free(linemap);
    linemap = buf;
    linemap_lines = n;
}
