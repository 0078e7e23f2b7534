# nineball: the two commands a fresh machine needs (Debian, Python 3.11, root).
#   make play   set up ./.venv and start the main job
#   make test   set up ./.venv and run every test, lint and type check
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# numba writes its compiled-kernel cache here (a scratch dir inside the checkout, git-ignored).
export NUMBA_CACHE_DIR ?= $(CURDIR)/.cache/numba
LINTED := $(wildcard src tests benchmarks tools)

.PHONY: play test lint typecheck layers pytest bench bench-cold bench-env clean chromium i18n

# The page's browser libraries (three.js), pinned by package.json and package-lock.json, fetched
# by npm and copied into the package's static files (git-ignored; the wheel carries them).
# npm comes from Debian when the machine has none.
VENDOR_WEB = { command -v npm >/dev/null || { apt-get update && \
	DEBIAN_FRONTEND=noninteractive apt-get install -y npm; }; } && \
	npm ci --no-audit --no-fund --ignore-scripts && $(BIN)/python tools/vendor_web.py

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The install compiles the kernels (the physics', the game's and the players') into the numba cache, so the first
# play starts at once.
$(VENV)/.installed-cli: pyproject.toml package-lock.json | $(BIN)/python
	$(VENDOR_WEB)
	$(BIN)/python -m pip install --quiet -e '.[web]'
	$(BIN)/python -m nineball.players.warm
	touch $@

$(VENV)/.installed-dev: pyproject.toml package-lock.json | $(BIN)/python
	$(VENDOR_WEB)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -m nineball.players.warm
	touch $@ $(VENV)/.installed-cli

play: $(VENV)/.installed-cli
	$(BIN)/nineball play

# The browser tests drive Debian's chromium (never Playwright's own download).
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; fi

# pytest's worker processes (pytest-xdist): 0 runs the tests in this process (the default, what CI
# runs); auto, one per core (at most 4), is faster but not yet steady: a 3D page test that drags
# the cue ball failed once of two runs on two busy cores.
PYTEST_WORKERS ?= 0

test: $(VENV)/.installed-dev chromium
	$(BIN)/ruff format --check $(LINTED)
	$(BIN)/ruff check $(LINTED)
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/pytest -n $(PYTEST_WORKERS) --maxprocesses 4 --cov --cov-report=term $(PYTEST_ARGS)
	# the referee (rules/) must be fully covered, branches included
	$(BIN)/coverage report --include='*/nineball/rules/*' --fail-under=100

# The gettext catalogs (the referee's explanations, the page's strings): extract the templates,
# update the .po files from them, compile the .mo files. Commit all three kinds of file.
i18n: $(VENV)/.installed-dev
	$(BIN)/python tools/i18n.py

# An older version's src, taken from git once into .cache/NAME: $(call reference_src,NAME,COMMIT).
reference_src = @if [ ! -d .cache/$(1)/src ]; then mkdir -p .cache/$(1) && \
	git archive $(2) src | tar -x -C .cache/$(1); fi

bench: $(VENV)/.installed-dev bench-cold bench-env
	$(BIN)/python benchmarks/physics_vs_pooltool.py
	$(BIN)/python benchmarks/pooltool_interop.py

# The cold start against the engine before the speed work (its source taken from git), 20 rounds
# interleaved, each in a new empty numba cache (about 5 minutes).
COLD_REFERENCE := 31fa4d0
bench-cold: $(VENV)/.installed-dev
	$(call reference_src,cold-reference,$(COLD_REFERENCE))
	$(BIN)/python benchmarks/cold_start.py 20 --against .cache/cold-reference/src

# The vector environment against ghost next to the single environment of 2 December 2026 (issue
# 19's reference, its source taken from git): 5 interleaved rounds of 10 s each (about 3 minutes).
ENV_REFERENCE := 7d8a3fe
bench-env: $(VENV)/.installed-dev
	$(call reference_src,env-reference,$(ENV_REFERENCE))
	$(BIN)/python benchmarks/envs.py --against .cache/env-reference/src --rounds 5 --seconds 10 \
		--envs 128 --workers 2

clean:
	rm -rf $(VENV) node_modules src/nineball/web/static/vendor .cache .pytest_cache .mypy_cache .ruff_cache .coverage
