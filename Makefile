# Quick start: `make demo` and `make test` work on a fresh machine with only Python ≥ 3.10 and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test bench clean chromium

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# the package (editable) and its runtime dependencies
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# plus the test extras
$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/clfeval score examples/pos-tagger.txt --train examples/pos-train.txt

# The HTML report's browser test drives Debian's chromium. Installed here when this machine can (root with apt-get);
# where it cannot, the test is skipped and says why (build/chromium.log).
chromium:
	@mkdir -p build
	@if command -v chromium >/dev/null 2>&1; then echo "found $$(command -v chromium)" > build/chromium.log; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "make test: installing Debian's chromium for the browser test (once)"; \
	  { apt-get install -y --no-install-recommends chromium \
	    || { apt-get update && apt-get install -y --no-install-recommends chromium; }; } > build/chromium.log 2>&1 \
	  || echo "make test: could not install chromium (build/chromium.log); the browser test will be skipped"; \
	else echo "cannot install chromium: not root, or no apt-get" > build/chromium.log; fi

# pytest exits 5 when it collects no tests: a failure, said in words
test: $(VENV)/.installed-test chromium
	@rc=0; $(BIN)/python -m pytest src tests || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests" >&2; exit 1; fi; exit $$rc

bench: $(VENV)/.installed-test
	$(BIN)/python -m pip install --quiet -e ".[bench]"
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/intervals.py
	$(BIN)/python benchmarks/compare.py
	$(BIN)/python benchmarks/memory.py
	$(BIN)/python benchmarks/engines.py
	$(BIN)/python benchmarks/finagle.py
	$(BIN)/python benchmarks/blocks.py
	$(BIN)/python benchmarks/report.py

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
