# VDI storage comparison: raw -> processed -> models -> report.  `make help` lists the targets.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV      := .venv
PY        := $(VENV)/bin/python
PAPERMILL := $(VENV)/bin/papermill --log-level WARNING --no-progress-bar -k vdi-report
JUPYTEXT  := $(VENV)/bin/jupytext
STAMP     := $(VENV)/.installed
KERNEL    := $(VENV)/share/jupyter/kernels/vdi-report/kernel.json

SOURCES   := $(sort $(basename $(notdir $(wildcard data/raw/records/*.csv))))
PKG       := $(wildcard src/vdi_report/*.py src/vdi_report/*/*.py src/vdi_report/*/*/*.py)
RAW       := data/raw/sources.csv data/raw/metrics.csv
NORMALIZED:= $(SOURCES:%=data/processed/normalized/%.csv)
EXECUTED  := reports/notebooks
REPORT    := reports/vdi_storage_comparison

# Report parameters (papermill). REPORT_DATE empty = today. The sizing scenario: DESKTOPS
# desktops of worker class WORKER (task, office, knowledge, power) with HEADROOM (fraction kept
# free, 0.2 = 20 %). Cost assumptions: data/raw/cost_assumptions.csv, or COST_FILE=path.
REPORT_DATE ?=
DESKTOPS    ?= 2000
WORKER      ?= knowledge
HEADROOM    ?= 0.2
CONCURRENCY ?= 1.0
BOOT_WINDOW ?= 30
RAID        ?= none
FAILOVER    ?= none
COST_FILE   ?= data/raw/cost_assumptions.csv
PARAMS_STAMP := build/params-$(DESKTOPS)-$(WORKER)-$(HEADROOM)-$(CONCURRENCY)-$(BOOT_WINDOW)-$(RAID)-$(FAILOVER)-$(REPORT_DATE).stamp

# Keep the intermediate build/*.ipynb (tests run one of them with a bad parameter).
.SECONDARY: $(patsubst notebooks/%.py,build/%.ipynb,$(wildcard notebooks/*.py))

step = @printf '\n\033[1m==> %s\033[0m\n' "$(1)"

##@ Main
.PHONY: report
report: check-params $(REPORT).pdf ## Build the PDF and HTML report (creates .venv if missing)
	@echo "Report: $(REPORT).pdf and $(REPORT).html"

.PHONY: test
test: $(REPORT).pdf ## Run the test suite (builds the report first; tests read it)
	$(call step,tests)
	$(PY) -m pytest -q

##@ Pipeline stages
.PHONY: data
data: data/processed/results.csv ## Normalize all sources into data/processed/results.csv and tests.csv

build/%.ipynb: notebooks/%.py $(STAMP)
	@mkdir -p build
	@$(JUPYTEXT) --quiet --to ipynb --output $@ $<

data/processed/normalized/%.csv: data/raw/records/%.csv build/01_normalize_source.ipynb $(RAW) $(PKG)
	$(call step,normalize $*)
	@mkdir -p $(EXECUTED) data/processed/normalized
	$(PAPERMILL) build/01_normalize_source.ipynb $(EXECUTED)/01_normalize_$*.ipynb -p source_id $*

data/processed/results.csv: $(NORMALIZED) build/02_combine.ipynb $(RAW) data/raw/discrepancies.csv $(PKG)
	$(call step,combine $(words $(SOURCES)) sources)
	$(PAPERMILL) build/02_combine.ipynb $(EXECUTED)/02_combine.ipynb

data/processed/audit_findings.csv: data/processed/results.csv build/03_audit.ipynb $(wildcard data/raw/*.csv) $(PKG)
	$(call step,audit: consistency rules over all sources)
	$(PAPERMILL) build/03_audit.ipynb $(EXECUTED)/03_audit.ipynb

data/processed/iops_per_desktop_model.csv: data/processed/results.csv build/04_iops_model.ipynb data/raw/sources.csv $(PKG)
	$(call step,model: IOPS per desktop with leave-one-vendor-out validation)
	$(PAPERMILL) build/04_iops_model.ipynb $(EXECUTED)/04_iops_model.ipynb

data/processed/density.csv: data/processed/results.csv data/processed/iops_per_desktop_model.csv build/05_density_cost.ipynb $(COST_FILE) data/raw/claims.csv data/raw/sources.csv $(PKG)
	$(call step,model: headroom and density; cost per desktop)
	$(PAPERMILL) build/05_density_cost.ipynb $(EXECUTED)/05_density_cost.ipynb -p cost_file "$(abspath $(COST_FILE))"

# A change of report parameters re-runs the report notebook (the stamp names them).
$(PARAMS_STAMP):
	@mkdir -p build && rm -f build/params-*.stamp && touch $@

# Stages the report reads (a stage joins the build when its notebook exists).
MODELS := $(if $(wildcard notebooks/03_audit.py),data/processed/audit_findings.csv) \
          $(if $(wildcard notebooks/04_iops_model.py),data/processed/iops_per_desktop_model.csv) \
          $(if $(wildcard notebooks/05_density_cost.py),data/processed/density.csv)

$(EXECUTED)/10_report.ipynb: data/processed/results.csv $(MODELS) build/10_report.ipynb $(PKG) $(PARAMS_STAMP)
	$(call step,report notebook (scenario: $(DESKTOPS) $(WORKER) desktops, headroom $(HEADROOM)))
	$(PAPERMILL) build/10_report.ipynb $@ -p report_date "$(REPORT_DATE)" \
	  -p desktops $(DESKTOPS) -p worker_class "$(WORKER)" -p headroom $(HEADROOM) -p concurrency $(CONCURRENCY) \
	  -p boot_window_min $(BOOT_WINDOW) -p raid "$(RAID)" -p failover "$(FAILOVER)" -p cost_file "$(abspath $(COST_FILE))"

$(REPORT).pdf: $(EXECUTED)/10_report.ipynb $(wildcard templates/vdi_report/*) | check-system
	$(call step,render HTML and PDF)
	$(PY) -m vdi_report.render $< $(REPORT)

##@ Environment
$(STAMP): requirements-lock.txt pyproject.toml
	$(call step,create .venv with the pinned packages (first run: a few minutes))
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-lock.txt
	$(PY) -m pip install --quiet --no-deps -e .
	$(PY) -m ipykernel install --sys-prefix --name vdi-report --display-name "vdi-report" >/dev/null
	@touch $@

.PHONY: venv
venv: $(STAMP) ## Create the local environment (.venv) with the pinned packages

.PHONY: check-params
check-params: $(STAMP)
	@$(PY) -m vdi_report.models.scenario --desktops "$(DESKTOPS)" --worker "$(WORKER)" --concurrency "$(CONCURRENCY)" \
	  --headroom "$(HEADROOM)" --boot-window "$(BOOT_WINDOW)" --raid "$(RAID)" --failover "$(FAILOVER)"

.PHONY: check-system
check-system: $(STAMP) ## Check the system libraries the PDF route needs (pango, a font)
	@$(PY) -c "from vdi_report.render import check_pdf_dependencies as c; c()" \
	  || { echo "Missing system library for the PDF (see above)."; exit 1; }

.PHONY: lock
lock: $(STAMP) ## Re-freeze requirements-lock.txt from the current .venv
	{ echo "# Full pinned tree (pip freeze of a working .venv, Python 3.11). Regenerate: make lock"; \
	  $(PY) -m pip freeze --exclude-editable; } > requirements-lock.txt

##@ Working on the project
.PHONY: lab
lab: $(STAMP) ## Open JupyterLab on the project
	$(VENV)/bin/jupyter lab --notebook-dir=.

.PHONY: sync-notebooks
sync-notebooks: $(STAMP) ## Pair notebooks/*.py with .ipynb (jupytext) and strip outputs (nbstripout)
	$(JUPYTEXT) --sync notebooks/*.py
	$(VENV)/bin/nbstripout notebooks/*.ipynb

.PHONY: lint
lint: $(STAMP) ## ruff check
	$(VENV)/bin/ruff check src tests

.PHONY: clean
clean: ## Remove generated files (data/processed, reports, build); keeps .venv and data/raw
	rm -rf data/processed reports build

.PHONY: help
help: ## List the targets
	@awk 'BEGIN {FS = ":.*## "} /^##@/ {printf "\n%s\n", substr($$0, 5)} \
	  /^[a-zA-Z_-]+:.*## / {printf "  make %-16s %s\n", $$1, $$2}' $(MAKEFILE_LIST)
