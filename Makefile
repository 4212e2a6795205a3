# Two commands on a fresh machine: `make demo` (the main job) and `make test`. Each sets itself up.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
# CPU torch for the offline path; on a GPU box use your CUDA build (`make setup TORCH_SPEC='torch==2.9.1'`).
TORCH_SPEC ?= torch==2.13.0
EXTRAS ?= train,tinker,dev
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: setup browser test test-fast demo smoke bench clean

$(VENV)/.installed: pyproject.toml Makefile
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q "$(TORCH_SPEC)"
	$(PY) -m pip install -q -e ".[$(EXTRAS)]"
	touch $@

setup: $(VENV)/.installed browser

browser: $(VENV)/.installed
	bash scripts/install_browser.sh $(PY)

test: setup
	$(VENV)/bin/pytest -q -m "not slow" --durations=15

test-fast: setup
	$(VENV)/bin/pytest -q -m "not slow and not browser"

demo: setup
	$(VENV)/bin/halo demo

smoke: setup
	$(VENV)/bin/halo smoke

bench: setup
	$(PY) bench/env_step.py

clean:
	rm -rf $(VENV) runs .pytest_cache
