# Quick start: `make demo` and `make test` work on a fresh machine with only Python ≥ 3.10 and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo lint test test-fast bench clean chromium latex torch

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

# Debian packages two test tiers drive: chromium (the HTML report's browser test) and pdflatex (every LaTeX output
# compiled). Installed here when this machine can (root with apt-get); where it cannot, those tests are skipped and
# say why (build/<name>.log). $(call debian,COMMAND,PACKAGES,NAME)
define debian
	@mkdir -p build
	@if command -v $(1) >/dev/null 2>&1; then echo "found $$(command -v $(1))" > build/$(3).log; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "make test: installing Debian's $(2) for the $(3) tests (once)"; \
	  { apt-get install -y --no-install-recommends $(2) \
	    || { apt-get update && apt-get install -y --no-install-recommends $(2); }; } > build/$(3).log 2>&1 \
	  || echo "make test: could not install $(2) (build/$(3).log); the $(3) tests will be skipped"; \
	else echo "cannot install $(2): not root, or no apt-get" > build/$(3).log; fi
endef

chromium:
	$(call debian,chromium,chromium,chromium)

# PyTorch for the tests that hand real CPU tensors to clfeval.Accumulator and clfeval.hf: only its CPU build, the
# local version 2.13.0+cpu that machines of this kind keep on disk (pip's find-links). PyPI has no "+cpu" version,
# so elsewhere nothing is downloaded (not the CUDA build's gigabytes) and those tests are skipped, saying why.
torch: $(VENV)/.installed-test
	@mkdir -p build
	@if $(BIN)/python -c "import torch" >/dev/null 2>&1; then echo "found torch" > build/torch.log; \
	else echo "make test: installing PyTorch's CPU build for the tensor tests (once)"; \
	  $(BIN)/python -m pip install --quiet "torch==2.13.0+cpu" > build/torch.log 2>&1 \
	  || echo "make test: no CPU build of PyTorch here (build/torch.log); the torch tensor tests will be skipped"; fi

latex:
	$(call debian,pdflatex,texlive-latex-base texlive-latex-recommended,latex)

# ruff's lint and format check and mypy, each configured in pyproject.toml; all three run, and any failure fails
# the target. Measured on 2 shared cores: ruff check 0.1 s, ruff format --check 0.2 s, mypy 27 s on a fresh checkout
# (0.6 s once .mypy_cache holds the dependencies' types).
lint: $(VENV)/.installed-test
	@rc=0; \
	echo "ruff check src tests"; $(BIN)/ruff check src tests || rc=1; \
	echo "ruff format --check src tests"; $(BIN)/ruff format --check src tests || rc=1; \
	echo "mypy"; $(BIN)/mypy || rc=1; \
	exit $$rc

# Two workers (pytest-xdist; idle workers steal queued tests); the slowest tests are listed so a regression shows. pytest exits 5 when it collects
# no tests: a failure, said in words.
PYTEST := $(BIN)/python -m pytest -n 2 --dist worksteal --durations=15
test: $(VENV)/.installed-test lint chromium latex torch
	@rc=0; $(PYTEST) src tests || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests" >&2; exit 1; fi; exit $$rc

# The same without the slow tiers (exhaustive oracles, simulations, the Dask cluster, the browser, pdflatex): for
# the edit-test loop; `make test` and CI run everything.
test-fast: $(VENV)/.installed-test lint
	$(PYTEST) -m "not (slow or simulation or cluster or browser or latex)" src tests

bench: $(VENV)/.installed-test torch
	$(BIN)/python -m pip install --quiet -e ".[bench]"
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/intervals.py
	$(BIN)/python benchmarks/compare.py
	$(BIN)/python benchmarks/memory.py
	$(BIN)/python benchmarks/engines.py
	$(BIN)/python benchmarks/finagle.py
	$(BIN)/python benchmarks/blocks.py
	$(BIN)/python benchmarks/report.py
	$(BIN)/python benchmarks/labels.py
	$(BIN)/python benchmarks/startup.py
	$(BIN)/python benchmarks/weights.py
	@# torchmetrics is a contender where PyTorch's CPU build is installed (make test's torch step), never downloading torch
	-$(BIN)/python -c "import torch" 2>/dev/null && $(BIN)/python -m pip install --quiet "torchmetrics>=1.0"
	$(BIN)/python benchmarks/accumulator.py
	$(BIN)/python benchmarks/indicators.py
	$(BIN)/python benchmarks/groups_memory.py

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis .mypy_cache .ruff_cache
