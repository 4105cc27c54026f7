# ptc — see README.md. Targets: build run test lint fuzz bench guest guest-check cross bridges-test guest-gogettable-test test-integration clean.
# make soak: minutes of runaway programs, cancel cycles and Close under load (soak_test.go; PTC_SOAK_DURATION=10m make soak).
SHELL := /bin/bash
GO ?= go
GUEST_DIR := guest/quickjs
# The built guest, committed and embedded by package quickjs: what every
# target below uses. make guest rebuilds it from the pinned inputs.
GUEST_WASM := $(GUEST_DIR)/ptc-quickjs.wasm
GUEST_INTL := $(GUEST_DIR)/intl.js
# The build scripts' output (gitignored), copied to the above by make guest.
GUEST_BUILD_WASM := $(GUEST_DIR)/build/ptc-quickjs.wasm
GUEST_INPUTS := $(GUEST_DIR)/build.sh $(wildcard $(GUEST_DIR)/csrc/*.c) $(wildcard $(GUEST_DIR)/csrc/*.patch) $(GUEST_DIR)/unicode/gen.mjs $(GUEST_DIR)/unicode/package-lock.json
# The Intl bundle: the pinned FormatJS packages from npm, bundled by esbuild.
GUEST_BUILD_INTL := $(GUEST_DIR)/build/intl.js
INTL_INPUTS := $(wildcard $(GUEST_DIR)/intl/*.js) $(wildcard $(GUEST_DIR)/intl/*.go) $(GUEST_DIR)/intl/build.sh $(GUEST_DIR)/intl/package-lock.json
MODULE := github.com/ptchost/ptc
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
BENCHSTAT := golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
FUZZTIME ?= 60s
EXAMPLE ?= testdata/programs/fanout.js
EXAMPLE_TOOLS ?= testdata/tools/weather.json

TSC_DIR := internal/sdkgen/tsc
TSC := $(TSC_DIR)/node_modules/.bin/tsc

# The MCP servers the mcp and ptc-run tests run (nobody here wrote them),
# pinned by their package-lock.json. Without npm the tests that need them
# are skipped and say why.
MCP_SERVERS_DIR := mcp/testdata/everything
MCP_SERVERS := $(MCP_SERVERS_DIR)/node_modules/@modelcontextprotocol/server-everything/dist/index.js

# The MCP clients the serve tests run (the TypeScript SDK, the Inspector
# CLI, the conformance suite), pinned by their package-lock.json.
MCP_CLIENTS_DIR := mcp/testdata/clients
MCP_CLIENTS := $(MCP_CLIENTS_DIR)/node_modules/@modelcontextprotocol/sdk/package.json

.PHONY: build run test lint fuzz soak bench bench-peers guest guest-check tsc tokenizer mcp-servers mcp-clients clean

# Rebuilds the guest from its pinned inputs (build.sh installs the
# toolchain from Debian when it is missing) and writes the committed
# artifact and its digests when the build differs from them. Commit them
# with the change of inputs that made them.
guest: $(GUEST_BUILD_WASM) $(GUEST_BUILD_INTL)
	cmp -s $(GUEST_BUILD_WASM) $(GUEST_WASM) || cp $(GUEST_BUILD_WASM) $(GUEST_WASM)
	cmp -s $(GUEST_BUILD_INTL) $(GUEST_INTL) || cp $(GUEST_BUILD_INTL) $(GUEST_INTL)
	chmod 644 $(GUEST_WASM) $(GUEST_INTL)
	cd $(GUEST_DIR) && sha256sum ptc-quickjs.wasm >ptc-quickjs.wasm.sha256 && sha256sum intl.js >intl.js.sha256
	$(MAKE) --no-print-directory guest-inputs

# What the committed guest was built from (guest/quickjs/inputs.sha256):
# the digest of every file of the build's inputs and the versions of the Go
# modules the Intl bundler imports. TestInputs (make test) fails when they
# change and the guest is not rebuilt with them.
.PHONY: guest-inputs
guest-inputs:
	cd $(GUEST_DIR) && { \
		find build.sh csrc intl unicode -name node_modules -prune -o -type f -print | LC_ALL=C sort | xargs sha256sum; \
		$(GO) list -m github.com/evanw/esbuild golang.org/x/text | sed 's/^/module /'; \
	} >inputs.sha256

# Rebuilt only when the pinned inputs change.
$(GUEST_BUILD_WASM): $(GUEST_INPUTS)
	bash $(GUEST_DIR)/build.sh

$(GUEST_BUILD_INTL): $(INTL_INPUTS)
	sh $(GUEST_DIR)/intl/build.sh

# The builds are reproducible: a fresh build from the pinned inputs, in a
# scratch directory, must be the committed artifact byte for byte, and the
# recorded digests must be the artifact's. CI runs it (.ci/run).
guest-check:
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	OUT="$$tmp/ptc-quickjs.wasm" WORK="$$tmp/src" bash $(GUEST_DIR)/build.sh; \
	sh $(GUEST_DIR)/intl/build.sh "$$tmp/intl.js"; \
	for f in ptc-quickjs.wasm intl.js; do \
		cmp "$$tmp/$$f" $(GUEST_DIR)/$$f || { echo "guest-check: $(GUEST_DIR)/$$f is not the build of its pinned inputs: run make guest and commit it with the inputs"; exit 1; }; \
	done; \
	cd $(GUEST_DIR) && sha256sum -c ptc-quickjs.wasm.sha256 intl.js.sha256

# The TypeScript compiler the sdkgen tests check declarations with, pinned
# by internal/sdkgen/tsc/package-lock.json. Without npm the test is skipped (and
# says why) rather than failing the build.
tsc: $(TSC)

$(TSC): $(TSC_DIR)/package.json $(TSC_DIR)/package-lock.json
	cd $(TSC_DIR) && npm ci --no-audit --no-fund || echo "tsc: npm ci failed; TestTypeScript_tsc will be skipped"

# The tokenizer TestManual_tokens measures run_code's manual with, pinned
# by scripts/tokens/package-lock.json. Without npm the test is skipped.
TOKENIZER := scripts/tokens/node_modules/js-tiktoken/package.json

tokenizer: $(TOKENIZER)

$(TOKENIZER): scripts/tokens/package.json scripts/tokens/package-lock.json
	cd scripts/tokens && npm ci --no-audit --no-fund || echo "tokenizer: npm ci failed; TestManual_tokens will be skipped"

mcp-servers: $(MCP_SERVERS)

$(MCP_SERVERS): $(MCP_SERVERS_DIR)/package.json $(MCP_SERVERS_DIR)/package-lock.json
	cd $(MCP_SERVERS_DIR) && npm ci --no-audit --no-fund || echo "mcp-servers: npm ci failed; the MCP tests will try again and say why"

mcp-clients: $(MCP_CLIENTS)

$(MCP_CLIENTS): $(MCP_CLIENTS_DIR)/package.json $(MCP_CLIENTS_DIR)/package-lock.json
	cd $(MCP_CLIENTS_DIR) && npm ci --no-audit --no-fund || echo "mcp-clients: npm ci failed; the serve client tests will try again and say why"

build:
	$(GO) build -o bin/ptc-run ./cmd/ptc-run

run: build
	./bin/ptc-run run --tools $(EXAMPLE_TOOLS) $(EXAMPLE)

test: tsc tokenizer mcp-servers mcp-clients haproxy postgres
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 20m ./...
	$(GO) test -count=1 -run '^(TestAdversarial|TestMaxRuns_flood)$$' .
	$(GO) test -run '^$$' -bench . -benchtime 1x ./...

lint:
	@test -z "$$(gofmt -l .)" || { gofmt -l .; echo "gofmt: files above need formatting"; exit 1; }
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	$(GO) run ./internal/cmd/apilist -check

# The public API, one declaration a line per package (api/): make lint
# fails when the code and the listing disagree, so every API change is a
# visible diff. After a deliberate change: make api, and commit api/.
.PHONY: api
api:
	$(GO) run ./internal/cmd/apilist

# Every fuzz target, FUZZTIME each: the guest boundary (FuzzABI), the SDK
# in the guest (FuzzPrelude), and the parsers the guest or a user reaches.
FUZZ_TARGETS := ./host:FuzzABI ./host/internal/fuel:FuzzInstrument ./host:FuzzWellFormed .:FuzzPrelude .:FuzzExecuteSubcall ./internal/fixture:FuzzParse ./internal/sdkgen:FuzzGenerate ./registry:FuzzValidate ./registry:FuzzSchemaProjection ./pipeline:FuzzDeeper ./internal/jsonindent:FuzzIndent ./host:FuzzProgram ./internal/jsonindent:FuzzLayout ./host/internal/typescript:FuzzStrip ./mcp:FuzzToolName ./mcp:FuzzParseEndpoint ./mcp:FuzzParseAuthConfig ./mcp:FuzzAuthorization ./mcp:FuzzReadConfig .:FuzzDecodeRecording .:FuzzResume ./host:FuzzRecycle ./host:FuzzDecodeImage ./host:FuzzResultParse ./host:FuzzIntlPack ./host:FuzzDomainToASCII ./internal/telemetry:FuzzExtract ./internal/durable:FuzzDecode

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		echo "fuzz $$t"; $(GO) test $${t%%:*} -run '^$$' -fuzz "^$${t##*:}$$" -fuzztime $(FUZZTIME); \
	done

# Not part of make test: runaways beside well-behaved programs, start/cancel
# cycles, Close under load; figures and the issue 10 targets. Env vars
# (PTC_SOAK_DURATION, PTC_SOAK_KINDS, ...) are described in soak_test.go.
soak:
	$(GO) test -tags soak -run '^TestSoak$$' -timeout 30m -v -count=1 .

bench:
	$(GO) test -run '^$$' -bench . -count 5 ./... | tee bench.txt
	$(GO) run $(BENCHSTAT) bench.txt

# Not part of make test: ptc side by side with goja, quickjs-go, a
# wasmtime-hosted guest and the npm peers run, quickjs-emscripten and
# isolated-vm (bench/, its own module); writes bench/RESULTS.md. About
# half an hour on 2 cores.
bench-peers:
	$(MAKE) -C bench results

clean:
	rm -rf bin $(GUEST_DIR)/build/src $(GUEST_BUILD_WASM) $(GUEST_BUILD_INTL) $(GUEST_DIR)/intl/node_modules $(TSC_DIR)/node_modules $(MCP_SERVERS_DIR)/node_modules $(MCP_CLIENTS_DIR)/node_modules bench.txt

# Not part of make test (minutes: it builds a scratch module for six
# platforms, and the guest from source): the go get path on a machine with
# nothing but Go. A scratch module requires a clean copy of the repository
# (git archive HEAD) through a replace and, with a PATH holding only the go
# command and CGO_ENABLED=0, runs a program with ptc.New (a second time
# from the compilation cache it filled) and cross-builds for every platform
# in CROSS; and ptc-run guest build builds the guest from that copy into a
# scratch cache, byte for byte the embedded one
# (cmd/ptc-run/gogettable_test.go).
.PHONY: guest-gogettable-test
guest-gogettable-test:
	PTC_GOGETTABLE_TEST=1 $(GO) test -count=1 -run '^(TestGoGettable|TestGuestBuild)$$' -v -timeout 30m ./cmd/ptc-run

# The module builds and vets for every platform Go users have, without
# cgo. On windows the tests of ., host and mcp are not vetted: they time
# processes with syscall.Getrusage and signal them with syscall.Kill.
CROSS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
.PHONY: cross
cross:
	@set -e; for p in $(CROSS); do \
		echo "cross $$p"; \
		export GOOS=$${p%/*} GOARCH=$${p#*/} CGO_ENABLED=0; \
		$(GO) build ./...; \
		if [ $$GOOS = windows ]; then \
			$(GO) vet $$($(GO) list ./... | grep -vx -e '$(MODULE)' -e '$(MODULE)/host' -e '$(MODULE)/mcp'); \
		else \
			$(GO) vet ./...; \
		fi; \
	done

# haproxy for the scale-out test (cmd/ptc-run TestServe_scaleOut), from
# Debian; the binary only, no service. Without it that test is skipped.
.PHONY: haproxy
haproxy:
	sh scripts/install-haproxy.sh || echo "haproxy: install failed; TestServe_scaleOut will be skipped"

# PostgreSQL from Debian for the run store's tests (runstore, the durable
# runs' SIGKILL test, TestServe_durableFleet); each starts a throwaway
# cluster. Without it those tests are skipped and say why.
.PHONY: postgres
postgres:
	sh scripts/install-postgres.sh || echo "postgres: install failed; the PostgreSQL store tests will be skipped"

# Not part of make test (building the collector takes minutes on 2 cores):
# the observability tests against the real things. An OpenTelemetry
# Collector built from its own Go modules at the release internal/otelcol's
# go.mod pins (OTLP receiver, file exporter) receives the spans of a real
# ptc-run run and serve; Debian's Prometheus scrapes serve --metrics
# (cmd/ptc-run TestObservability_*). .ci/run calls it.
OTELCOL := bin/otelcol
OTELCOL_INPUTS := internal/otelcol/go.mod internal/otelcol/go.sum $(wildcard internal/otelcol/*.go)

$(OTELCOL): $(OTELCOL_INPUTS)
	cd internal/otelcol && $(GO) build -o ../../$(OTELCOL) .

.PHONY: prometheus test-integration
prometheus:
	sh scripts/install-prometheus.sh

test-integration: $(OTELCOL) prometheus
	PTC_OTELCOL=$(abspath $(OTELCOL)) $(GO) test -count=1 -v -run '^TestObservability_' -timeout 20m ./cmd/ptc-run

# The SDK bridges are modules of their own (bridge/anthropic, openai, gemini,
# eino, genkit): go test ./... above does not reach them. Their examples
# replay scripted conversations through a real executor. Cold, compiling the
# SDKs under -race takes minutes, so CI runs this after make test (.ci/run).
.PHONY: bridges-test
bridges-test:
	sh bridge/test.sh
