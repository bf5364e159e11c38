# Everything a new machine needs, from nothing but python3 and make.
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PIP := $(BIN)/python -m pip --disable-pip-version-check --quiet

.PHONY: build test bench dist clean

$(STAMP): pyproject.toml setup.py
	@echo "navlaw: setting up $(VENV)/ (Python packages pinned in pyproject.toml)"
	python3 -m venv $(VENV)
	$(PIP) install --upgrade pip
	$(PIP) install -e ./navlaw_fees -e '.[test]'
	touch $(STAMP)

build: $(STAMP)
	$(BIN)/navlaw build

# Browser tests drive Debian's chromium; when it is missing it is installed here (apt-get, without
# recommended packages), or the browser tests are skipped and say why.
BROWSER := $(VENV)/.chromium
$(BROWSER): $(STAMP)
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "navlaw: installing Debian's chromium for the browser tests (apt-get install --no-install-recommends chromium)"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null) \
	  || echo "navlaw: chromium could not be installed; the browser tests will be skipped"; }
	touch $(BROWSER)

# axe-core (npm) for the browser tests' accessibility checks, in $(VENV)/axe; without npm they are skipped
AXE := $(VENV)/axe/node_modules/axe-core/axe.min.js
$(AXE):
	@command -v npm >/dev/null 2>&1 && (mkdir -p $(VENV)/axe && cd $(VENV)/axe && npm install --no-audit --no-fund --silent axe-core@4.14.1) \
	  || echo "navlaw: axe-core could not be installed (npm); the accessibility tests will be skipped"

test: $(STAMP) $(BROWSER) $(AXE)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python benchmarks/frontend.py
	taskset -c 0 $(BIN)/python benchmarks/fees.py || $(BIN)/python benchmarks/fees.py
	$(BIN)/python benchmarks/startup.py

# The two wheels, navlaw and the fee module it depends on: `pip install dist/*.whl` installs both
dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -m pip wheel --quiet --no-deps -w dist . ./navlaw_fees

clean:
	rm -rf build dist .setuptools-build $(VENV)
