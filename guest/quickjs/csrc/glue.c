// ptc guest glue: runs one model-written program inside QuickJS-ng on
// wasm32-wasi and talks to the host through the "ptc" import module
// described in DESIGN.md. This file is ours; QuickJS sources are fetched
// and patched at build time and never committed.

#include <malloc.h>
#include <sys/time.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quickjs.h"

#define IMPORT(name) __attribute__((import_module("ptc"), import_name(name)))
#define EXPORT(name) __attribute__((export_name(name)))

// Host imports (module "ptc").
IMPORT("write") int32_t host_write(const char *ptr, uint32_t len);
IMPORT("interrupted") int32_t host_interrupted(void);
IMPORT("call_start") int32_t host_call_start(const char *name, uint32_t name_len, const char *args, uint32_t args_len);
IMPORT("call_wait") int64_t host_call_wait(void);
IMPORT("call_read") int32_t host_call_read(int32_t id, char *ptr, uint32_t len);
IMPORT("finish") void host_finish(int32_t kind, const char *ptr, uint32_t len);

// Outcome kinds reported through finish; keep in sync with host/abi.go.
enum {
    KIND_OK = 0,
    KIND_SYNTAX = 1,
    KIND_EXCEPTION = 2,
    KIND_STOPPED = 3,   // the host asked us to stop; it knows why
    KIND_DEADLOCK = 4,  // awaiting a promise nothing can settle
    KIND_INTERNAL = 5,
};

void JS_PtcSeedRandom(JSContext *ctx, uint64_t seed); // random-seed.patch
JSValue JS_PtcNewPromise(JSContext *ctx);               // promise-settle.patch
void JS_PtcSettlePromise(JSContext *ctx, JSValueConst promise, JSValueConst value, bool is_reject);

static JSRuntime *rt;
static JSContext *ctx;
static JSValue settle_fn, finish_ok_fn, describe_fn, string_fn, keep_shapes;
static int pending_calls;

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

// The bootstrap builds console, the call bridge and the helpers that
// format values; it receives the native functions as one frozen object.
static const char bootstrap[] =
    "(function (native) {\n"
    "  'use strict';\n"
    "  const fmt = (v) => {\n"
    "    if (typeof v === 'string') return v;\n"
    "    if (v === undefined || typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') return String(v);\n"
    "    if (v instanceof Error) return v.stack ? String(v) + '\\n' + v.stack.replace(/\\n$/, '') : String(v);\n"
    "    try { const s = JSON.stringify(v); return s === undefined ? String(v) : s; } catch (e) { return String(v); }\n"
    "  };\n"
    "  const write = (...a) => { native.write(a.map(fmt).join(' ')); };\n"
    "  const console = Object.freeze({ log: write, info: write, warn: write, error: write, debug: write });\n"
    "  Object.defineProperty(globalThis, 'console', { value: console, writable: false, enumerable: false, configurable: false });\n"
    "  class ToolError extends Error {\n"
    "    constructor(tool, code, message) { super(message); this.name = 'ToolError'; this.code = code; this.tool = tool; }\n"
    "  }\n"
    "  Object.defineProperty(ToolError.prototype, 'name', { value: 'ToolError', writable: true, enumerable: false, configurable: true });\n"
    "  Object.defineProperty(globalThis, '__ptc_call', { value: native.call, writable: false, enumerable: false, configurable: false });\n"
    "  Object.defineProperty(globalThis, 'ToolError', { value: ToolError, writable: false, enumerable: false, configurable: false });\n"
    "  const settle = (name, envelope) => {\n"
    "    let r;\n"
    "    try { r = JSON.parse(envelope); } catch (e) { return [false, new ToolError(name, 'INTERNAL', 'malformed result from host')]; }\n"
    "    if (r.ok) return [true, r.value];\n"
    "    return [false, new ToolError(name, String(r.code), String(r.message))];\n"
    "  };\n"
    "  const finishOk = (v) => {\n"
    "    if (v === undefined) return '{}';\n"
    "    const s = JSON.stringify(v);\n"
    "    if (s === undefined) return '{}';\n"
    "    return '{\"value\":' + s + '}';\n"
    "  };\n"
    "  const describe = (e) => {\n"
    "    let message, stack = '';\n"
    "    if (e instanceof Error) {\n"
    "      message = String(e.name) + ': ' + String(e.message);\n"
    "      if (typeof e.stack === 'string') stack = e.stack;\n"
    "    } else { message = fmt(e); }\n"
    "    return JSON.stringify({ message, stack });\n"
    "  };\n"
    "  // Objects whose shapes QuickJS would otherwise build and free on every\n"
    "  // subcall (JSON.stringify's holder, promise reaction functions).\n"
    "  const keep = [{}, { '': 0 }, Object.create(Function.prototype)];\n"
    "  return [settle, finishOk, describe, String, keep];\n"
    "})\n";

// --- memory: report wasi-libc's usable size so JS_SetMemoryLimit works ---

static void *m_calloc(void *opaque, size_t count, size_t size) { (void)opaque; return calloc(count, size); }
static void *m_malloc(void *opaque, size_t size) { (void)opaque; return malloc(size); }
static void m_free(void *opaque, void *ptr) { (void)opaque; free(ptr); }
static void *m_realloc(void *opaque, void *ptr, size_t size) { (void)opaque; return realloc(ptr, size); }
static size_t m_usable(const void *ptr) { return malloc_usable_size((void *)ptr); }

static const JSMallocFunctions malloc_funcs = {m_calloc, m_malloc, m_free, m_realloc, m_usable};

static int interrupt_handler(JSRuntime *r, void *opaque) {
    (void)r;
    (void)opaque;
    return host_interrupted() != 0;
}

// stop throws the uncatchable error QuickJS uses for interrupts, so the
// program cannot swallow a stop the host asked for.
static JSValue stop(JSContext *c) {
    JSValue err = JS_NewInternalError(c, "interrupted");
    JS_SetUncatchableError(c, err);
    return JS_Throw(c, err);
}

static JSValue native_write(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv) {
    (void)this_val;
    size_t len;
    if (argc < 1) return JS_UNDEFINED;
    const char *s = JS_ToCStringLen(c, &len, argv[0]);
    if (!s) return JS_EXCEPTION;
    int32_t r = host_write(s, (uint32_t)len);
    JS_FreeCString(c, s);
    if (r != 0) return stop(c);
    return JS_UNDEFINED;
}

// native_call is __ptc_call(name, args): it starts a subcall with
// String(name) and JSON.stringify(args ?? {}) and returns a promise the
// host's result settles (see settle in ptc_run).
static JSValue native_call(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv) {
    (void)this_val;
    JSValueConst name_arg = argc > 0 ? argv[0] : JS_UNDEFINED;
    JSValueConst args_arg = argc > 1 ? argv[1] : JS_UNDEFINED;
    JSValue name = JS_IsString(name_arg) ? JS_DupValue(c, name_arg) : JS_Call(c, string_fn, JS_UNDEFINED, 1, &name_arg);
    if (JS_IsException(name)) return JS_EXCEPTION;
    JSValue json;
    char num[16];
    int tag = JS_VALUE_GET_TAG(args_arg);
    if (JS_IsUndefined(args_arg)) {
        json = JS_NewStringLen(c, "{}", 2);
    } else if (tag == JS_TAG_INT) {
        // JSON.stringify of a primitive consults no toJSON: these are exact.
        json = JS_NewStringLen(c, num, (size_t)snprintf(num, sizeof num, "%d", (int)JS_VALUE_GET_INT(args_arg)));
    } else if (tag == JS_TAG_BOOL) {
        json = JS_VALUE_GET_BOOL(args_arg) ? JS_NewStringLen(c, "true", 4) : JS_NewStringLen(c, "false", 5);
    } else if (tag == JS_TAG_NULL) {
        json = JS_NewStringLen(c, "null", 4);
    } else {
        json = JS_JSONStringify(c, args_arg, JS_UNDEFINED, JS_UNDEFINED);
        if (JS_IsUndefined(json)) {
            JS_FreeValue(c, name);
            return JS_ThrowTypeError(c, "tool arguments must be JSON-serializable");
        }
    }
    if (JS_IsException(json)) {
        JS_FreeValue(c, name);
        return JS_EXCEPTION;
    }
    size_t nlen, alen;
    const char *ns = JS_ToCStringLen(c, &nlen, name);
    const char *as = ns ? JS_ToCStringLen(c, &alen, json) : NULL;
    JS_FreeValue(c, json);
    JSValue promise = JS_EXCEPTION;
    if (as && ptab_reserve(c) == 0) promise = JS_PtcNewPromise(c);
    if (JS_IsException(promise)) {
        JS_FreeCString(c, ns);
        JS_FreeCString(c, as);
        JS_FreeValue(c, name);
        return JS_EXCEPTION;
    }
    int32_t id = host_call_start(ns, (uint32_t)nlen, as, (uint32_t)alen);
    JS_FreeCString(c, ns);
    JS_FreeCString(c, as);
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
        JSValue e2 = JS_GetException(ctx);
        int uncatchable = JS_IsUncatchableError(e2);
        JS_FreeValue(ctx, e2);
        if (uncatchable)
            finish_lit(KIND_STOPPED, "{\"message\":\"interrupted\",\"stack\":\"\"}");
        else
            finish_lit(kind, "{\"message\":\"exception could not be described\",\"stack\":\"\"}");
        return;
    }
    size_t len;
    const char *s = JS_ToCStringLen(ctx, &len, r);
    JS_FreeValue(ctx, r);
    if (!s) {
        JS_FreeValue(ctx, JS_GetException(ctx));
        finish_lit(kind, "{\"message\":\"exception could not be described\",\"stack\":\"\"}");
        return;
    }
    finish_str(kind, s, len);
    JS_FreeCString(ctx, s);
}

static int setup(void) {
    rt = JS_NewRuntime2(&malloc_funcs, NULL);
    if (!rt) return -1;
    JS_SetInterruptHandler(rt, interrupt_handler, NULL);
    ctx = JS_NewContext(rt);
    if (!ctx) return -1;

    JSValue fn = JS_Eval(ctx, bootstrap, sizeof(bootstrap) - 1, "<ptc>", JS_EVAL_TYPE_GLOBAL | JS_EVAL_FLAG_STRICT);
    if (JS_IsException(fn)) return -1;
    JSValue native = JS_NewObject(ctx);
    JS_SetPropertyStr(ctx, native, "write", JS_NewCFunction(ctx, native_write, "write", 1));
    JS_SetPropertyStr(ctx, native, "call", JS_NewCFunction(ctx, native_call, "call", 2));
    JSValue helpers = JS_Call(ctx, fn, JS_UNDEFINED, 1, (JSValueConst *)&native);
    JS_FreeValue(ctx, fn);
    JS_FreeValue(ctx, native);
    if (JS_IsException(helpers)) return -1;
    settle_fn = JS_GetPropertyUint32(ctx, helpers, 0);
    finish_ok_fn = JS_GetPropertyUint32(ctx, helpers, 1);
    describe_fn = JS_GetPropertyUint32(ctx, helpers, 2);
    string_fn = JS_GetPropertyUint32(ctx, helpers, 3);
    keep_shapes = JS_GetPropertyUint32(ctx, helpers, 4);
    JS_FreeValue(ctx, helpers);
    return 0;
}

static int initialised;

// ptc_init creates the runtime, the context and the bootstrap. The host
// may call it once, snapshot the linear memory, and start later instances
// from that snapshot; ptc_run calls it itself when it was not called.
EXPORT("ptc_init") int32_t ptc_init(void) {
    if (initialised) return 0;
    if (setup() != 0) return -1;
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
        JSValue v = JS_ParseJSON(ctx, buf + pl, rlen - 1 - pl, "<input>");
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
    if (memory_limit) JS_SetMemoryLimit(rt, memory_limit);
    if (stack_size) JS_SetMaxStackSize(rt, stack_size);
    struct timeval tv;
    gettimeofday(&tv, NULL);
    JS_PtcSeedRandom(ctx, (uint64_t)tv.tv_sec * 1000000u + (uint64_t)tv.tv_usec);
    size_t total = sizeof(prefix) - 1 + len + sizeof(suffix) - 1;
    char *code = malloc(total + 1);
    if (!code) {
        finish_lit(KIND_INTERNAL, "{\"message\":\"out of memory loading the program\",\"stack\":\"\"}");
        return 0;
    }
    memcpy(code, prefix, sizeof(prefix) - 1);
    memcpy(code + sizeof(prefix) - 1, src, len);
    memcpy(code + sizeof(prefix) - 1 + len, suffix, sizeof(suffix));
    free(src);

    JSValue compiled = JS_Eval(ctx, code, total, "program.js", JS_EVAL_TYPE_GLOBAL | JS_EVAL_FLAG_COMPILE_ONLY);
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

    for (;;) {
        JSContext *jc;
        int r;
        while ((r = JS_ExecutePendingJob(rt, &jc)) != 0) {
            if (r < 0) {
                finish_exception(KIND_EXCEPTION);
                return 0;
            }
        }
        JSPromiseStateEnum st = JS_PromiseState(ctx, promise);
        if (st == JS_PROMISE_FULFILLED) {
            JSValue v = JS_PromiseResult(ctx, promise);
            JSValue s = JS_Call(ctx, finish_ok_fn, JS_UNDEFINED, 1, (JSValueConst *)&v);
            JS_FreeValue(ctx, v);
            if (JS_IsException(s)) {
                finish_exception(KIND_EXCEPTION);
                return 0;
            }
            size_t slen;
            const char *cs = JS_ToCStringLen(ctx, &slen, s);
            JS_FreeValue(ctx, s);
            if (!cs) {
                finish_exception(KIND_EXCEPTION);
                return 0;
            }
            finish_str(KIND_OK, cs, slen);
            JS_FreeCString(ctx, cs);
            return 0;
        }
        if (st == JS_PROMISE_REJECTED) {
            JSValue v = JS_PromiseResult(ctx, promise);
            JS_Throw(ctx, v);
            finish_exception(KIND_EXCEPTION);
            return 0;
        }
        if (st != JS_PROMISE_PENDING) {
            finish_lit(KIND_INTERNAL, "{\"message\":\"program did not return a promise\",\"stack\":\"\"}");
            return 0;
        }
        if (pending_calls == 0) {
            finish_lit(KIND_DEADLOCK, "{\"message\":\"program is awaiting a promise that can never settle\",\"stack\":\"\"}");
            return 0;
        }
        int64_t w = host_call_wait();
        if (w < 0) {
            finish_lit(KIND_STOPPED, "{\"message\":\"interrupted\",\"stack\":\"\"}");
            return 0;
        }
        int32_t id = (int32_t)(w >> 32);
        uint32_t rlen = (uint32_t)(w & 0xffffffffu);
        char *buf = malloc(rlen + 1);
        if (!buf) {
            finish_lit(KIND_INTERNAL, "{\"message\":\"out of memory receiving a subcall result\",\"stack\":\"\"}");
            return 0;
        }
        if (host_call_read(id, buf, rlen) != 0) {
            free(buf);
            finish_lit(KIND_STOPPED, "{\"message\":\"interrupted\",\"stack\":\"\"}");
            return 0;
        }
        int r2 = settle(id, buf, rlen);
        free(buf);
        if (r2 < 0) {
            finish_exception(KIND_EXCEPTION);
            return 0;
        }
    }
}
