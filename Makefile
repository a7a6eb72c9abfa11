# VDI storage comparison: raw -> processed -> models -> report.  `make help` lists the targets.
# The pipeline's rules are generated from src/vdi_report/stages.py into build/stages.mk (each
# stage with its real inputs, outputs and code dependencies); this file holds the rest.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# No value a user types is ever shell text. Every variable a user may set is taken literally
# ($(value): make expands nothing in it, `$(shell ...)` stays text), checked, and reaches a
# recipe only through the environment, read there as "$VAR" (the report parameters likewise:
# build/stages.mk). $(call sha256_of,"$$VAR"): the SHA-256 of that file's content, empty when it
# cannot be read.
# Every variable from the command line or the environment whose value holds a `$` is made literal
# first (make would otherwise expand `$(shell ...)` in it when exporting it to a recipe).
lp := (
rp := )
$(foreach v,$(filter-out MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES,$(.VARIABLES)),$(if $(filter command line environment,$(origin $(v))),$(if $(findstring $$,$(value $(v))),$(if $(findstring $(lp),$(v))$(findstring $(rp),$(v)),,$(eval override $(v) := $$(value $(v)))))))
override JOBS := $(value JOBS)
override BUILD_LOCK_WAIT := $(value BUILD_LOCK_WAIT)
override VERBOSE := $(value VERBOSE)
export BUILD_LOCK_WAIT VERBOSE
sha256_of = $$(f=$(1); [ -n "$$f" ] && { sha256sum < "$$f"; } 2>/dev/null | { read -r h _ && printf %s "$$h"; })
# The first line of file $(1) into the shell variable old, empty when it cannot be read (read
# and the test are the shell's own: a no-op build runs as few programs as it can).
read_stamp = old=; { IFS= read -r old < $(1); } 2>/dev/null

# One build at a time in a project directory. Every goal that writes build/, data/processed,
# reports/ or .venv first takes an exclusive lock on .build.lock (flock) and re-runs make under
# it; a second `make report` in the same directory says which process holds the lock and waits
# for it (BUILD_LOCK_WAIT=0: refuse instead). Nested makes of the same build (the tests under
# `make test`) see VDI_BUILD_LOCK and do not lock again; a copy of the project has its own lock.
UNLOCKED_GOALS := help lab lint format bench sync-notebooks
BUILD_LOCK     := .build.lock
override BUILD_LOCK_WAIT := $(or $(BUILD_LOCK_WAIT),1)
GOALS          := $(or $(MAKECMDGOALS),$(.DEFAULT_GOAL))
ifneq ($(VDI_BUILD_LOCK),$(CURDIR))
ifneq ($(filter-out $(UNLOCKED_GOALS),$(GOALS)),)
TAKE_LOCK := yes
endif
endif

ifeq ($(TAKE_LOCK),yes)
# The goals reach the inner make as words of "$VDI_GOALS" (split, never globbed nor run).
export VDI_GOALS := $(MAKECMDGOALS)
export VDI_BUILD_LOCK := $(CURDIR)
.PHONY: $(GOALS) build-lock
$(filter-out build-lock,$(GOALS)): build-lock ; @:
build-lock:
	@exec 9>>"$(BUILD_LOCK)"; \
	if ! flock -n 9; then \
	  holder="$$(cat "$(BUILD_LOCK)" 2>/dev/null)"; \
	  if [ "$$BUILD_LOCK_WAIT" = 0 ]; then \
	    echo "make: another build is running in $$VDI_BUILD_LOCK: $${holder:-unknown process}; not starting (BUILD_LOCK_WAIT=0)." >&2; exit 1; fi; \
	  echo "make: another build is running in $$VDI_BUILD_LOCK: $${holder:-unknown process}; waiting for it to finish (Ctrl-C stops waiting)." >&2; \
	  flock 9; \
	fi; \
	cmd=make; { mapfile -d '' -t args < /proc/$$PPID/cmdline && cmd="$${args[*]}"; } 2>/dev/null; \
	printf 'pid %s since %(%T)T: %s\n' "$$PPID" -1 "$$cmd" > "$(BUILD_LOCK)"; \
	set -f; exec $(MAKE) --no-print-directory $$VDI_GOALS
# (exec: the inner make is make's own child, so a SIGTERM to make reaches it and each stage, which
# stop cleanly: a notebook stage shuts its kernel down and puts its tables back, execute.py. The
# lock is released when the inner make ends; the holder line is rewritten by the next build.)
else
# Independent stages (audit, the two models) run side by side on the 2-core machine; output is
# kept per stage. Override with JOBS=1 (or make -jN).
# Not for `make lab` and `make bench`, whose output must appear as it comes.
override JOBS := $(or $(JOBS),2)
ifneq ($(JOBS),2)  # the default needs no check (and no shell: a no-op build starts as few as it can)
ifneq ($(JOBS),$(filter $(JOBS),$(shell seq 1 64)))
$(error JOBS=$(JOBS): give a whole number of parallel jobs from 1 to 64 (e.g. JOBS=1))
endif
endif
# The tests' progress (pytest's dots) appears as it comes: no output sync under `make test*`.
ifeq ($(filter lab bench,$(MAKECMDGOALS)),)
ifeq ($(filter -j% --jobs%,$(MAKEFLAGS)),)
MAKEFLAGS += --jobs=$(JOBS) $(if $(filter test test-%,$(MAKECMDGOALS)),,--output-sync=target)
endif
endif

VENV      := .venv
PY        := $(VENV)/bin/python
# VDI_PYTHON=/path/to/python: build with that interpreter (an environment where `pip install -e
# '.[lab]'` was run, e.g. $$VIRTUAL_ENV/bin/python) instead of making .venv; nothing is installed
# into it but the `vdi-report` Jupyter kernel, which runs that same interpreter.
ifneq ($(VDI_PYTHON),)
dollar := $$
hash := \#
comma := ,
UNSAFE := ; & | < > " ' ` * ? [ ] { } ~ \ = $(lp) $(rp) $(dollar) $(hash) $(comma)
ifneq ($(words $(VDI_PYTHON)),1)
$(error VDI_PYTHON=$(VDI_PYTHON): give the path of a Python interpreter, without spaces)
endif
$(foreach c,$(UNSAFE),$(if $(findstring $(c),$(VDI_PYTHON)),$(error VDI_PYTHON=$(VDI_PYTHON): a path with '$(c)' is not accepted here; give a plain path to the interpreter)))
ifeq ($(wildcard $(VDI_PYTHON)),)
$(error VDI_PYTHON=$(VDI_PYTHON): no such file; give the path of a Python interpreter, e.g. $$VIRTUAL_ENV/bin/python)
endif
PY        := $(VDI_PYTHON)
endif
# papermill through the package: a failed or killed notebook never replaces its executed output;
# it takes the stage's notebooks/*.py and converts it in its own process (jupytext)
NOTEBOOK  := $(PY) -m vdi_report.execute --log-level WARNING --no-progress-bar -k vdi-report
JUPYTEXT  := $(PY) -m jupytext
STAMP     := $(if $(VDI_PYTHON),build/python.stamp,$(VENV)/.installed)

SOURCES   := $(sort $(basename $(notdir $(wildcard data/raw/records/*.csv))))
RECORDS   := $(SOURCES:%=data/raw/records/%.csv)
EXECUTED  := reports/notebooks
REPORT    := reports/vdi_storage_comparison
# The report's files are made here, then published into reports/ all at once (stages.PUBLISHED).
STAGED    := build/publish

# Report parameters: declared once, in PARAMETERS of src/vdi_report/parameters.py (their Make
# variables and defaults are generated into build/stages.mk; `make help` lists them).
# They are checked (scenario CLI) and recorded in build/params.stamp only when they change, so
# an unchanged build starts no Python at all.
PARAMS_STAMP   := build/params.stamp
PARAMS_CHECKED := $(PARAMS_STAMP)
COST_STAMP     := build/cost.stamp
SYSTEM_STAMP   := build/system.stamp
STAGES_MK      := build/stages.mk
# The vendor texts (provenance checks only), passed on to a scratch copy by `make bench`.
# (bench reads VDI_SEEDS_DIR and VDI_EXTERNAL_DIR from the environment, default ../shared/*)

# $(call write_atomic,"$$WORD",FILE): FILE holds the shell word's value and a newline, replaced in
# one rename (a killed or concurrent write never leaves half a stamp).
write_atomic = { printf '%s\n' $(1) > "$(2).tmp.$$$$" && mv -f "$(2).tmp.$$$$" "$(2)"; }

# A stage's command is echoed only with VERBOSE=1; otherwise its heading and one line of time.
Q := $(if $(filter-out 0,$(VERBOSE)),,@)

step = @printf '\n\033[1m==> %s\033[0m\n' "$(1)"

# The generated stage rules (not needed to clean or list targets).
NO_STAGES_GOALS := clean help venv lock lab lint format bench sync-notebooks readme
ifneq ($(filter-out $(NO_STAGES_GOALS),$(or $(MAKECMDGOALS),help)),)
include $(STAGES_MK)
endif
# A reviewer's analysis choices (CHOICES=file: choice_id, option): their content and the declared
# list's enter the stamps; the model stage re-runs only when the options it applies change.
CHOICES_LINE_SH = $$CHOICES $(call sha256_of,"$${CHOICES:-/dev/null}") $(call sha256_of,data/raw/analysis_choices.csv)

# With the rules, the project's modules are compiled (only those changed since): every Python
# process of the build imports them, and where PYTHONDONTWRITEBYTECODE=1 is set (as on CI) none
# would ever be written, so each process compiled the package again (about 1 s of a stage's start).
$(STAGES_MK): src/vdi_report/stages.py $(wildcard notebooks/*.py src/vdi_report/*.py src/vdi_report/*/*.py src/vdi_report/*/*/*.py) | $(STAMP)
	@mkdir -p build
	@$(PY) -m compileall -q src/vdi_report >/dev/null || true
	@$(PY) -m vdi_report.stages > $@.tmp.$$$$ && mv -f $@.tmp.$$$$ $@ || { rm -f $@.tmp.$$$$; exit 1; }

##@ Main
# The validation and the Vega bundle are listed first so that make -j2 starts them first: the
# bundle (no data read) then runs beside normalize and combine, not in the report's stage.
.PHONY: report
report: $(STAGE_VALIDATE_OUT) $(STAGE_VEGA_BUNDLE_OUT) $(REPORT).pdf $(REPORT).html ## Build the PDF and HTML report (creates .venv if missing)
	@echo "Report: $(REPORT).pdf and $(REPORT).html"

.PHONY: test
test: report ## Build the report, then run every test (unit, data and report layers)
	$(call step,tests)
	$(PY) -m pytest -q

.PHONY: test-unit
test-unit: | $(STAMP) ## Tests that need no build (code, data/raw, a throw-away copy of the project)
	$(call step,tests: unit)
	$(PY) -m pytest -q -m unit

.PHONY: test-data
test-data: data ## Tests of data/processed (builds it first)
	$(call step,tests: data)
	$(PY) -m pytest -q -m data

.PHONY: test-report
test-report: report ## Tests of the rendered report (builds it first)
	$(call step,tests: report)
	$(PY) -m pytest -q -m report

##@ Pipeline stages
.PHONY: data
data: $(STAGE_VALIDATE_OUT) $(DATA_TABLES) $(STAGE_DATAPACKAGE_OUT) ## Every processed table (data/processed) and its datapackage.json: normalize, combine, audit, models

# The parameter stamp holds the parameters and the cost file's SHA-256; it is rewritten (after
# the scenario CLI validated them) only when they change, so only then does the report re-run.
# The cost stamp holds the SHA-256 alone: the cost model re-runs when the prices change, not
# when the same prices are read from another path.
.PHONY: FORCE
$(PARAMS_STAMP): FORCE | $(STAMP)
	@[ -d build ] || mkdir -p build; line="$(PARAMS_LINE_SH)"; $(call read_stamp,$@); if [ "$$old" != "$$line" ]; then \
	  $(check_params) && $(call write_atomic,"$$line",$@); fi

$(COST_STAMP): FORCE
	@[ -d build ] || mkdir -p build; \
	test -f "$$COST_FILE" || { printf 'COST_FILE=%s: file not found\n' "$$COST_FILE" >&2; exit 2; }; \
	sha=$(call sha256_of,"$$COST_FILE"); $(call read_stamp,$@); if [ "$$old" != "$$sha" ]; then $(call write_atomic,"$$sha",$@); fi

# Every report parameter checked (stages.check_parameters: scenario, dates, files and their content).
check_params = $(PY) -m vdi_report.stages --check-params $(PARAMS_ARGS)

.PHONY: validate
validate: $(STAMP) ## Check every raw input (data/raw): file, line, column, value and what to do
	@$(PY) -m vdi_report.raw.validate

# Validated (raw.choices CLI: file, line, column and the allowed options on error) only when the
# choices or the declared list change; each stage's stamp is rewritten only when its options change.
build/choices.iops_model.stamp: FORCE | $(STAMP)
	@[ -d build ] || mkdir -p build; line="$(CHOICES_LINE_SH)"; $(call read_stamp,build/choices.stamp); if [ "$$old" != "$$line" ] || [ ! -f $@ ]; then \
	  $(PY) -m vdi_report.raw.choices "$$CHOICES" --stamps build && $(call write_atomic,"$$line",build/choices.stamp); fi

.PHONY: check-params
check-params: $(STAMP) ## Validate the report parameters (scenario CLI) without building
	@$(check_params)

$(SYSTEM_STAMP): | $(STAMP)
	@$(PY) -m vdi_report.publish.system >/dev/null \
	  || { $(PY) -m vdi_report.publish.system; echo "Missing system package for the PDF (see above)."; exit 1; }
	@mkdir -p build && : > $@.tmp.$$$$ && mv -f $@.tmp.$$$$ $@

.PHONY: check-system
check-system: $(STAMP) ## Check Chromium (it prints the PDF; the browser tests drive it); prints what to install
	@rm -f $(SYSTEM_STAMP) && $(MAKE) --no-print-directory $(SYSTEM_STAMP)
	@$(PY) -m vdi_report.publish.system

.PHONY: stages
stages: $(STAGES_MK) ## List the stages and what each reads and writes
	@printf '%s\n' $(STAGE_NAMES)

# The benchmark builds a copy of the project (its own data/processed, reports and build, the
# same .venv): your outputs and your scenario are never touched. BENCH_DIR keeps the copy.
# BENCH_BASELINE (a commit; empty: none) is built in a second copy (git archive) and timed in
# turn with this tree, scenario by scenario (A/B in one run): f94f506 is main before issue 27.
BENCH_BASELINE ?= f94f506
export BENCH_BASELINE
.PHONY: bench
bench: $(STAMP) ## Time the build in a scratch copy, A/B against BENCH_BASELINE: clean, no-op, one parameter, one choice, a touched record (medians)
	@set -e; scratch="$${BENCH_DIR:-$$(mktemp -d "$${TMPDIR:-/tmp}/vdi-bench.XXXXXX")}"; \
	[ -n "$$BENCH_DIR" ] || trap 'rm -rf "$$scratch"' EXIT; \
	mkdir -p "$$scratch/this"; \
	echo "make bench: building a copy of the project in $$scratch (your outputs are not touched)"; \
	tar -c --exclude=./.venv --exclude=./.venv-lab --exclude=./.git --exclude=./data/processed --exclude=./reports --exclude=./build \
	  --exclude=./$(BUILD_LOCK) --exclude='*.egg-info' --exclude=__pycache__ --exclude=.ipynb_checkpoints . \
	  | tar -x -C "$$scratch/this"; \
	ln -sfn "$(abspath $(VENV))" "$$scratch/this/$(VENV)"; \
	seeds="$$(realpath -m -- "$${VDI_SEEDS_DIR:-../shared/seeds}")"; \
	external="$$(realpath -m -- "$${VDI_EXTERNAL_DIR:-../shared/external}")"; \
	case "$$BENCH_BASELINE" in -*) printf 'BENCH_BASELINE=%s: not a commit\n' "$$BENCH_BASELINE" >&2; exit 2;; esac; \
	baseline=; if [ -n "$$BENCH_BASELINE" ]; then \
	  baseline="$$scratch/baseline"; mkdir -p "$$baseline"; \
	  git archive "$$BENCH_BASELINE" | tar -x -C "$$baseline"; \
	  ln -sfn "$(abspath $(VENV))" "$$baseline/$(VENV)"; fi; \
	cd "$$scratch/this" && env -u VDI_BUILD_LOCK PYTHONPATH="$$scratch/this/src" \
	  VDI_BENCH_SCRATCH=1 VDI_BENCH_BASELINE="$$baseline" BENCH_BASELINE="$$BENCH_BASELINE" \
	  VDI_SEEDS_DIR="$$seeds" VDI_EXTERNAL_DIR="$$external" \
	  "$$scratch/this/$(PY)" -m vdi_report.bench

##@ Environment
# The environment is (re)installed when the lock's or pyproject.toml's *content* changes (its
# SHA-256 is kept in .venv/.installed), not their times: a copy of the project sharing this
# .venv through a link (tests, make bench) never reinstalls it, nor points it at the copy.
VENV_SHA := $(firstword $(shell cat requirements-lock.txt pyproject.toml 2>/dev/null | sha256sum))
# The banner is a `+` line: shown at once, not held back with the install's output (--output-sync).
ifeq ($(file <$(VENV)/.installed),$(VENV_SHA))
# Installed from this lock and pyproject.toml: nothing to run (a no-op build starts no shell here).
$(VENV)/.installed: ;
else
$(VENV)/.installed: FORCE
	+@if [ "$$(cat $@ 2>/dev/null)" != "$(VENV_SHA)" ] && [ ! -L $(VENV) ]; then \
	  printf '\n\033[1m==> %s\033[0m\n' "create .venv with the pinned packages from the package index (first run: 2-5 minutes, needs network and python3-venv)"; fi
	@if [ "$$(cat $@ 2>/dev/null)" != "$(VENV_SHA)" ]; then \
	  if [ -L $(VENV) ]; then echo "$(VENV) is a link to a shared environment: not reinstalling it here"; exit 0; fi; \
	  set -ex; \
	  test -x $(PY) || python3 -m venv $(VENV); \
	  $(call install_lock,$(VENV),requirements-lock.txt); \
	  $(call write_atomic,"$(VENV_SHA)",$@); \
	fi
endif

# $(call install_lock,VENV,LOCK): uv installs exactly LOCK into VENV (`uv pip sync`: hashes checked,
# any package the lock does not list removed, e.g. JupyterLab from an environment made before it
# moved to .venv-lab), then the project (editable, no dependencies) and its kernel. uv runs from
# build/tools (installed there with pip on first use), outside the lock. --compile-bytecode: the
# packages' .pyc are written once at install; without them (uv writes none by default, and
# PYTHONDONTWRITEBYTECODE=1 forbids writing them later) every Python process of the build
# compiled pandas, scipy, altair and statsmodels from source again: importing the build's
# libraries took 11 s instead of 3 s, a one-parameter rebuild 61 s instead of 38 s.
install_lock = $(need_uv); \
  $(UV) pip sync --quiet --require-hashes --compile-bytecode --python $(1)/bin/python $(2); \
  $(UV) pip install --quiet --python $(1)/bin/python --no-deps -e .; \
  $(1)/bin/python -m ipykernel install --sys-prefix --name vdi-report --display-name "vdi-report" >/dev/null
need_uv = test -x $(UV) || { python3 -m venv build/tools && build/tools/bin/pip install --quiet uv==$(UV_VERSION); }

# The user's interpreter (VDI_PYTHON): it must import the project; its `vdi-report` kernel is
# (re)installed when the interpreter changes (the stamp holds its path).
build/python.stamp: FORCE
	@if [ "$$(cat $@ 2>/dev/null)" != "$$VDI_PYTHON" ]; then \
	  "$$VDI_PYTHON" -c "import vdi_report, papermill, ipykernel" || { \
	    printf 'VDI_PYTHON=%s cannot import the project: run `%s -m pip install -e .[lab]` first\n' "$$VDI_PYTHON" "$$VDI_PYTHON" >&2; exit 2; }; \
	  "$$VDI_PYTHON" -m ipykernel install --sys-prefix --name vdi-report --display-name "vdi-report" >/dev/null && \
	  mkdir -p build && $(call write_atomic,"$$VDI_PYTHON",$@); fi
export VDI_PYTHON

.PHONY: venv
venv: $(STAMP) ## Create the local environment (.venv) with the pinned packages

# The locks: pyproject.toml's dependencies (and the dev extra) resolved by uv into every package
# of the tree with its hashes, for Python 3.11. uv (.venv, CI: `uv pip sync`) and conda
# (environment.yml: pip section) install exactly requirements-lock.txt. The lab extra (JupyterLab, `make lab`) is
# resolved into requirements-lab-lock.txt under that lock as constraints, so every package the
# two share has the same pin. uv itself runs from build/tools, outside the lock.
UV_VERSION := 0.13.8
UV         := build/tools/bin/uv
LAB_LOCK   := requirements-lab-lock.txt
.PHONY: lock
lock: ## Re-resolve requirements-lock.txt and requirements-lab-lock.txt (every package pinned with its hashes) from pyproject.toml (uv)
	@$(need_uv)
	$(UV) pip compile pyproject.toml --extra dev --generate-hashes --python-version 3.11 \
	  --custom-compile-command "make lock" --quiet -o requirements-lock.txt
	$(UV) pip compile pyproject.toml --extra lab --constraint requirements-lock.txt --generate-hashes \
	  --python-version 3.11 --custom-compile-command "make lock" --quiet -o $(LAB_LOCK)

##@ Working on the project
# JupyterLab runs from its own environment, .venv-lab (the lab extra: the build's packages plus
# JupyterLab, same pins), created on the first `make lab`; the build's .venv has no JupyterLab.
# As root (containers, CI) JupyterLab needs --allow-root; as a user it is not passed.
LAB_VENV  := .venv-lab
LAB_STAMP := $(LAB_VENV)/.installed
LAB_SHA    = $(firstword $(shell cat $(LAB_LOCK) pyproject.toml 2>/dev/null | sha256sum))
$(LAB_STAMP): FORCE
	@if [ "$$(cat $@ 2>/dev/null)" != "$(LAB_SHA)" ]; then \
	  printf '\n\033[1m==> %s\033[0m\n' "create $(LAB_VENV) with JupyterLab and the pinned packages (first run: a few minutes)"; \
	  set -ex; \
	  test -x $(LAB_VENV)/bin/python || python3 -m venv $(LAB_VENV); \
	  $(call install_lock,$(LAB_VENV),$(LAB_LOCK)); \
	  $(call write_atomic,"$(LAB_SHA)",$@); \
	fi

# With VDI_PYTHON, JupyterLab runs from that interpreter (pip install -e '.[lab]').
LAB_PY := $(if $(VDI_PYTHON),$(VDI_PYTHON) -m ,$(LAB_VENV)/bin/)
.PHONY: lab
lab: $(if $(VDI_PYTHON),$(STAMP),$(LAB_STAMP)) ## Open JupyterLab on the exploration notebook (its own .venv-lab, outside the build)
	$(LAB_PY)jupytext --quiet --sync notebooks/explore/*.py
	$(LAB_PY)jupyter lab --notebook-dir=. $(if $(filter 0,$(shell id -u)),--allow-root) notebooks/explore/explore.ipynb

.PHONY: sync-notebooks
sync-notebooks: $(STAMP) ## Pair notebooks/*.py with .ipynb (jupytext) and strip outputs (nbstripout)
	$(JUPYTEXT) --sync notebooks/*.py notebooks/explore/*.py
	$(PY) -m nbstripout notebooks/*.ipynb notebooks/explore/*.ipynb

.PHONY: readme
readme: $(STAMP) ## Rewrite the README's generated blocks (report parameters, data contract) from their declarations
	$(PY) -m vdi_report.readme

.PHONY: lint
lint: $(STAMP) ## ruff: lint rules (pyproject.toml) and formatting, over src, tests and the notebooks
	$(PY) -m ruff check src tests notebooks
	$(PY) -m ruff format --check src tests notebooks

.PHONY: format
format: $(STAMP) ## ruff: sort imports, apply safe fixes and format (what `make lint` checks)
	$(PY) -m ruff check --fix --select I src tests notebooks
	$(PY) -m ruff format src tests notebooks

.PHONY: clean
clean: ## Remove generated files (data/processed, reports, build); keeps .venv and data/raw
	rm -rf data/processed reports build

.PHONY: help
help: ## List the targets
	@awk 'BEGIN {FS = ":.*## "} /^##@/ {printf "\n%s\n", substr($$0, 5)} \
	  /^[a-zA-Z_-]+:.*## / {printf "  make %-16s %s\n", $$1, $$2}' $(MAKEFILE_LIST)
	@echo; PYTHONPATH="$(CURDIR)/src$${PYTHONPATH:+:$$PYTHONPATH}" $(if $(wildcard $(PY)),$(PY),python3) -m vdi_report.stages --help-params
endif
