# Everything a new machine needs, from nothing but python3 and make.
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PIP := $(BIN)/python -m pip --disable-pip-version-check --quiet

.PHONY: build test bench clean

$(STAMP): pyproject.toml setup.py
	@echo "navlaw: setting up $(VENV)/ (Python packages pinned in pyproject.toml)"
	python3 -m venv $(VENV)
	$(PIP) install --upgrade pip
	$(PIP) install -e '.[test]'
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

test: $(STAMP) $(BROWSER)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python benchmarks/frontend.py
	taskset -c 0 $(BIN)/python benchmarks/fees.py || $(BIN)/python benchmarks/fees.py
	$(BIN)/python benchmarks/startup.py

clean:
	rm -rf build $(VENV)
