# Everything a new machine needs, from nothing but python3 and make.
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: build test bench clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

build: $(STAMP)
	$(BIN)/navlaw build

# Browser tests drive Debian's chromium; installed here when missing (skipped, with the reason, if apt can't).
BROWSER := $(VENV)/.chromium
$(BROWSER): $(STAMP)
	command -v chromium >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) || echo "navlaw: chromium could not be installed; the browser tests will be skipped"
	touch $(BROWSER)

test: $(STAMP) $(BROWSER)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python benchmarks/frontend.py
	taskset -c 0 $(BIN)/python benchmarks/fees.py || $(BIN)/python benchmarks/fees.py

clean:
	rm -rf build $(VENV)
