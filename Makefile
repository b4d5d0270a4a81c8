# Quick start: `make demo` and `make test` work on a fresh machine with only Python ≥ 3.10 and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test bench clean

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

# pytest exits 5 when it collects no tests: a failure, said in words
test: $(VENV)/.installed-test
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

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
