# agentsvc build, generation and test entry points.
SHELL := /bin/bash
.DEFAULT_GOAL := help

TOOLS := $(CURDIR)/.tools
BIN   := $(TOOLS)/bin
export PATH := $(BIN):$(PATH)

# Code generators and tools, pinned; `make tools` installs them into .tools/bin.
BUF_VERSION              := v1.75.0
PROTOC_GEN_GO_VERSION    := v1.36.12
PROTOC_GEN_GO_GRPC_VER   := v1.6.2
GRPC_GATEWAY_VERSION     := v2.32.0
GRPCURL_VERSION          := v1.9.4
GOLANGCI_LINT_VERSION    := v2.15.0
BENCHSTAT_VERSION        := v0.0.0-20260908200009-22c9c6c9d4da
# Source of the google/api protos (annotations.proto, http.proto).
GOOGLEAPIS_PROTOS_VERSION := 1.76.0

GO_TOOLS := \
	github.com/bufbuild/buf/cmd/buf@$(BUF_VERSION) \
	google.golang.org/protobuf/cmd/protoc-gen-go@$(PROTOC_GEN_GO_VERSION) \
	google.golang.org/grpc/cmd/protoc-gen-go-grpc@$(PROTOC_GEN_GO_GRPC_VER) \
	github.com/grpc-ecosystem/grpc-gateway/v2/protoc-gen-grpc-gateway@$(GRPC_GATEWAY_VERSION) \
	github.com/grpc-ecosystem/grpc-gateway/v2/protoc-gen-openapiv2@$(GRPC_GATEWAY_VERSION) \
	github.com/fullstorydev/grpcurl/cmd/grpcurl@$(GRPCURL_VERSION) \
	github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION) \
	golang.org/x/perf/cmd/benchstat@$(BENCHSTAT_VERSION)

.PHONY: help
help: ## List the targets.
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

# One stamp per tool version: changing a pin reinstalls that tool.
$(TOOLS)/stamps/%:
	@mkdir -p $(BIN) $(TOOLS)/stamps
	GOBIN=$(BIN) go install $(subst +,/,$*)
	@touch $@

.PHONY: tools
tools: $(foreach t,$(GO_TOOLS),$(TOOLS)/stamps/$(subst /,+,$(t))) ## Install the pinned generators, grpcurl, golangci-lint and benchstat.

# The S3-compatible server that the artifact store's tests run against
# (scripts/with-s3.sh): the Versity S3 Gateway, built from its Go module.
VERSITYGW_VERSION := v1.8.0
VERSITYGW := github.com/versity/versitygw/cmd/versitygw@$(VERSITYGW_VERSION)

.PHONY: s3-server
s3-server: $(TOOLS)/stamps/$(subst /,+,$(VERSITYGW)) ## Install the pinned S3-compatible test server (versitygw) into .tools/bin.

$(TOOLS)/protodeps/.v$(GOOGLEAPIS_PROTOS_VERSION):
	rm -rf $(TOOLS)/protodeps $(TOOLS)/wheels
	python3 -m pip download --quiet --no-deps --only-binary=:all: -d $(TOOLS)/wheels \
		googleapis-common-protos==$(GOOGLEAPIS_PROTOS_VERSION)
	python3 scripts/unpack_wheels.py $(TOOLS)/wheels $(TOOLS)/protodeps google/api/ .proto
	@touch $@

.PHONY: protodeps
protodeps: $(TOOLS)/protodeps/.v$(GOOGLEAPIS_PROTOS_VERSION) ## Fetch the google/api protos.

.PHONY: gen
gen: tools protodeps ## Regenerate gen/ from proto/.
	rm -rf gen/go gen/openapi/*.json
	buf generate

.PHONY: lint
lint: tools protodeps ## buf lint, go vet, golangci-lint (.golangci.yml) and a tidy go.mod.
	buf lint
	go vet ./...
	# Another run on this machine (an editor's) is waited for, not failed on.
	golangci-lint run --allow-serial-runners ./...
	@go mod tidy -diff || { echo "go.mod or go.sum is not tidy: run go mod tidy and commit" >&2; exit 1; }

# Generated code of the service and of every client, checked for freshness.
GENERATED := gen/ clients/python/agentsvc/v1 clients/java/src/generated clients/ts/src/gen

.PHONY: gen-all
gen-all: gen gen-python gen-java gen-ts ## Regenerate the service's and the clients' code.

.PHONY: check-gen
check-gen: gen-all ## Fail when generated code differs from what the protos generate.
	@git diff --exit-code -- $(GENERATED) || { echo "generated code is stale: run make gen-all and commit" >&2; exit 1; }
	@test -z "$$(git status --porcelain --untracked-files=all -- $(GENERATED))" || \
		{ git status --short -- $(GENERATED); echo "generated code has uncommitted files: run make gen-all and commit" >&2; exit 1; }

.PHONY: gen-python
gen-python: ## Regenerate clients/python/agentsvc/v1 from proto/ (pinned grpcio-tools).
	clients/python/scripts/gen.sh

.PHONY: test-python
test-python: ## Python client: mypy --strict, unit tests and live tests against agentsvc, Redis and fake Gemini.
	clients/python/scripts/venv.sh
	scripts/with-redis.sh scripts/with-stack.sh clients/python/scripts/test.sh
	AGENTSVC_WORKFLOW_SEEDS=1 scripts/with-redis.sh scripts/with-stack.sh --agents integration/testdata/workflows/apps \
		clients/python/scripts/test.sh tests/test_live_workflow_seeds.py tests/test_live_workflow_fields.py

JAVA_MVN := mvn -B -ntp -f clients/java/pom.xml

.PHONY: gen-java
gen-java: ## Regenerate clients/java/src/generated/java from proto/ (protoc and grpc-java plugin from Maven Central).
	$(JAVA_MVN) -q -Pgen generate-sources

.PHONY: test-java
test-java: ## Java client tests (unit and live) against agentsvc, Redis and the fake Gemini server.
	scripts/with-redis.sh scripts/with-stack.sh $(JAVA_MVN) test

.PHONY: gen-ts
gen-ts: tools protodeps ## Regenerate clients/ts/src/gen from proto/ (npm ci brings protoc-gen-es).
	clients/ts/scripts/gen.sh

.PHONY: test-ts
test-ts: ## TypeScript client: unit tests, then live tests against agentsvc, Redis and the fake Gemini server.
	clients/ts/scripts/deps.sh
	scripts/with-redis.sh scripts/with-stack.sh clients/ts/scripts/test.sh

.PHONY: test-clients
test-clients: test-python test-ts test-java ## Every client's tests against a live stack.

.PHONY: build
build: ## Build bin/agentsvc and bin/fakegemini.
	go build -buildvcs=auto -o bin/agentsvc ./cmd/agentsvc
	go build -o bin/fakegemini ./integration/fakegemini/cmd/fakegemini

# ADK's web UI, as the google-adk wheel ships it (never committed).
ADK_UI_VERSION := 2.13.0
DEV_UI := $(TOOLS)/dev-ui

$(DEV_UI)/.v$(ADK_UI_VERSION):
	rm -rf $(DEV_UI) $(TOOLS)/adk-wheel
	python3 -m pip download --quiet --no-deps --only-binary=:all: -d $(TOOLS)/adk-wheel google-adk==$(ADK_UI_VERSION)
	python3 scripts/unpack_wheels.py $(TOOLS)/adk-wheel $(DEV_UI) google/adk/cli/browser/ "" strip
	rm -rf $(TOOLS)/adk-wheel
	@touch $@

.PHONY: dev-ui
dev-ui: $(DEV_UI)/.v$(ADK_UI_VERSION) ## Install ADK's web UI (from the google-adk wheel) into .tools/dev-ui.

.PHONY: run
run: build ## Serve the example apps on embedded defaults (offline model when no Gemini credentials), with ADK's web UI at /dev-ui/.
	$(MAKE) dev-ui || echo "make run: ADK's web UI could not be installed; serving without it" >&2
	scripts/run.sh

# Tests that need Redis get a private redis-server (installed when missing)
# and a private Redis Cluster (3 primaries, 3 replicas), the artifact
# store's S3 tests a private S3-compatible server, the MCP tests npm's
# reference server; in CI they fail rather than skip without them.
.PHONY: unit
unit: ## go test -race over every package but the end-to-end tests, with a private Redis, Redis Cluster, S3 server and MCP server.
	scripts/with-redis.sh scripts/with-redis-cluster.sh scripts/with-s3.sh scripts/with-mcp.sh go test -race -count=1 -shuffle=on $$(go list ./... | grep -v /integration$$)

FUZZTIME ?= 5s

.PHONY: fuzz
fuzz: ## Every fuzz target for FUZZTIME each (default 5s).
	FUZZTIME=$(FUZZTIME) scripts/fuzz.sh

.PHONY: integration
integration: ## End-to-end tests against the built binaries, with a private Redis and Redis Cluster.
	scripts/with-redis.sh scripts/with-redis-cluster.sh go test -race -count=1 -shuffle=on ./integration/

.PHONY: test-a2a
test-a2a: ## adk-python 1.39.1 (A2A 0.3, .tools/a2a-venv) and 2.13 (A2A 1.0, .tools/a2a2-venv) against --a2a, both ways.
	scripts/with-a2a-venv.sh go test -count=1 -shuffle=on -v -run 'A2A|A2a' ./integration/

.PHONY: test-browser
test-browser: ## ADK's web UI in headless Chromium against agentsvc --dev-ui (screenshots in .test-out/browser).
	integration/browser/run.sh

.PHONY: conformance
conformance: ## ADK's conformance suite (adk conformance test, google-adk in .tools) against agentsvc, both streaming modes.
	integration/conformance/run.sh

.PHONY: bench-load
bench-load: ## Load figures: Run throughput and 10,000 held Connect streams, fake model at 0 ms and 200 ms.
	scripts/bench-load.sh

.PHONY: bench-adkgo
bench-adkgo: tools ## Side by side with adk-go: REST /run CPU per invocation and throughput in alternating rounds, then the headline benchmarks (benchstat).
	scripts/bench-adkgo.sh

.PHONY: soak
soak: ## Chaos soak of the built binaries over Redis (not in CI): SOAK_DURATION (default 10m), then checks every session.
	scripts/soak.sh

.PHONY: soak-cluster
soak-cluster: ## Chaos soak over Redis Cluster and two replicas (not in CI): kills a primary and a replica; reports unavailability per session.
	scripts/soak-cluster.sh

.PHONY: bench
bench: tools ## The headline benchmarks against the committed baseline (bench/baseline.txt), compared by benchstat.
	scripts/with-redis.sh scripts/bench.sh

.PHONY: bench-baseline
bench-baseline: tools ## Record the headline benchmarks of this machine as the new baseline.
	scripts/with-redis.sh scripts/bench.sh --update

.PHONY: bench-check
bench-check: tools ## That the benchmark harnesses run: the headline benchmarks once each against the baseline, and adk-go's side's tests.
	cd bench/adkgo && go vet ./... && go test -count=1 ./...
	BENCH_COUNT=1 BENCH_TIME=1x scripts/with-redis.sh scripts/bench.sh >/dev/null

.PHONY: bench-all
bench-all: bench-go bench-load ## All figures: every Go benchmark, then the load runs.

.PHONY: bench-go
bench-go: ## Engine, model adapter and store benchmarks (go test -bench).
	scripts/with-redis.sh scripts/with-redis-cluster.sh scripts/with-s3.sh scripts/with-mcp.sh go test -run '^$$' -bench . -benchmem ./internal/...

.PHONY: test
test: lint check-gen unit bench-check fuzz integration test-a2a conformance test-browser test-clients ## Everything CI runs.
