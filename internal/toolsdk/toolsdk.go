package toolsdk

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"runtime"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/ptchost/ptc/host"
	"github.com/ptchost/ptc/internal/sdkgen"
	"github.com/ptchost/ptc/registry"
)

// SDK is the generated SDK of one tool selection: the JS prelude installed
// in the guest and the TypeScript declarations of run_code's description
// (fitted to the executor's budget), each generated on first use.
type SDK struct {
	gen    uint64
	tools  []sdkgen.Tool
	budget int // see sdkgen.TypeScriptWithin

	jsOnce, tsOnce, descOnce, namesOnce, digestOnce sync.Once
	js, ts, desc                                    string
	names                                           []string // method names, see methods
	jsDigest, toolsDigest                           string
}

// Description returns run_code's description over these tools under lim,
// made on first use (an executor's limits are fixed, so it is too).
func (s *SDK) Description(lim host.Limits) string {
	s.descOnce.Do(func() { s.desc = describe(lim, s.TypeScript()) })
	return s.desc
}

// New returns the SDK of tools, its declarations fitted to budget (see
// sdkgen.TypeScriptWithin).
func New(tools []sdkgen.Tool, budget int) *SDK { return &SDK{tools: tools, budget: budget} }

// Tools returns the SDK's tools.
func (s *SDK) Tools() []sdkgen.Tool { return s.tools }

// Budget returns the declarations' byte budget.
func (s *SDK) Budget() int { return s.budget }

// JS returns the prelude the guest installs: the tools object.
func (s *SDK) JS() string {
	s.jsOnce.Do(func() { s.js = sdkgen.JS(s.tools) })
	return s.js
}

// Digests returns the hex sha256 of the prelude (JS) and of the tools'
// schemas (their JSON), made on first use: what a durable run's
// fingerprint names the SDK by.
func (s *SDK) Digests() (prelude, tools string) {
	s.digestOnce.Do(func() {
		js := sha256.Sum256([]byte(s.JS()))
		b, _ := json.Marshal(s.tools) // schemas are JSON already
		ts := sha256.Sum256(b)
		s.jsDigest, s.toolsDigest = hex.EncodeToString(js[:]), hex.EncodeToString(ts[:])
	})
	return s.jsDigest, s.toolsDigest
}

// TypeScript returns the declarations of run_code's description.
func (s *SDK) TypeScript() string {
	s.tsOnce.Do(func() { s.ts = sdkgen.TypeScriptWithin(s.tools, s.budget) })
	return s.ts
}

// Cache keeps the SDK of each tool set by identity (a weak pointer, so a
// disposed and forgotten set takes its entry with it) and of each agent's
// registered definitions when there is no set. Any registry change bumps a
// generation that invalidates every entry: restrictions and replacements
// can change what a set or a scope shows.
type Cache struct {
	reg    *registry.Registry
	budget int // the declarations' budget, see sdkgen.TypeScriptWithin
	gen    atomic.Uint64

	mu    sync.Mutex
	sets  map[setKey]*SDK
	plain map[registry.Scope]*SDK
}

type setKey struct {
	set   weak.Pointer[registry.ToolSet]
	agent registry.Scope
}

// NewCache returns a cache over reg's tools with the declarations' budget.
func NewCache(reg *registry.Registry, budget int) *Cache {
	return &Cache{reg: reg, budget: budget, sets: make(map[setKey]*SDK), plain: make(map[registry.Scope]*SDK)}
}

// Invalidate is the registry subscriber: any change invalidates every entry.
func (c *Cache) Invalidate(registry.Change) { c.gen.Add(1) }

// Get returns the SDK of the tools agent sees through set.
func (c *Cache) Get(agent registry.Scope, set *registry.ToolSet) *SDK {
	gen := c.gen.Load()
	c.mu.Lock()
	var s *SDK
	var key setKey
	if set != nil {
		key = setKey{weak.Make(set), agent}
		s = c.sets[key]
	} else {
		s = c.plain[agent]
	}
	c.mu.Unlock()
	if s != nil && s.gen == gen {
		return s
	}

	s = &SDK{gen: gen, tools: sdkgen.FromDefinitions(programTools(c.reg.Definitions(agent, set))), budget: c.budget}
	c.mu.Lock()
	defer c.mu.Unlock()
	if set == nil {
		c.plain[agent] = s
		return s
	}
	if _, had := c.sets[key]; !had {
		runtime.AddCleanup(set, c.forget, key)
	}
	c.sets[key] = s
	return s
}

func (c *Cache) forget(key setKey) {
	c.mu.Lock()
	delete(c.sets, key)
	c.mu.Unlock()
}

// len reports the number of cached SDKs (for tests).
func (c *Cache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.sets) + len(c.plain)
}

// programTools keeps the tools programs may call (Spec.Callers; by
// default every tool).
func programTools(defs []*registry.Tool) []*registry.Tool {
	out := defs[:0:0]
	for _, t := range defs {
		if t.Callers().Program(true) {
			out = append(out, t)
		}
	}
	return out
}
