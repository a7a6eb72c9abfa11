# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: vdi-report
#     language: python
#     name: vdi-report
# ---

# %% [markdown]
# # IOPS per desktop and boot storms by rate: the planning model
#
# Reads `data/processed/results.csv` and `data/raw/sources.csv` (via `vdi_report.raw.sources`).
# Writes, through the table catalogue (`vdi_report.catalogue`; the README's data contract lists
# their columns), `data/processed/iops_per_desktop_model.csv` (the planning table),
# `iops_model_observations.csv`, `iops_model_exclusions.csv`,
# `iops_model_coefficients.csv`, `iops_model_cv.csv`, `iops_model_cv_by_vendor.csv`,
# `iops_model_external.csv`, `boot_storms.csv`, `boot_external.csv` and `sizing_inputs.json`
# (everything the sizing scenario and its JavaScript twin need). The code is in
# `vdi_report.models` (`semantics`, `iops`, `boot`, `scenario`, `sensitivity`).
#
# Every judgement call is an analysis choice declared in `data/raw/analysis_choices.csv`
# (`vdi_report.raw.choices`); `choices_file` (the report's `CHOICES=` file: `choice_id, option`)
# overrides some of them, and the planning figures are those of `sensitivity.planning_under`, the
# path `sensitivity.csv` takes for every specification.

# %% tags=["parameters"]
choices_file = ""  # CHOICES: a reviewer's analysis choices (choice_id, option); empty: the declared defaults

# %%
import pandas as pd

from vdi_report import catalogue, config
from vdi_report.models import boot, iops, scenario, sensitivity, verdicts
from vdi_report.raw import choices as analysis
from vdi_report.raw import sources

pd.set_option("display.width", 200, "display.max_columns", 30, "display.precision", 3)
results = catalogue.read("results")
choices = analysis.resolve(choices_file or None)
pd.DataFrame(choices.differing(), columns=["choice_id", "default", "option"])

# %% [markdown]
# ## Observation semantics and exclusions
#
# Every per-desktop IOPS figure says what it aggregates (an array or host total divided by the
# test's desktops, or a single-desktop sample), over what window (the phase, or a whole test
# spanning login and steady state), at what vantage and under what load (a standard Login VSI
# workload, or a boosted I/O workload). The model uses like with like: a login peak, a
# steady-state average and a whole-test average are separate cells; a single desktop's peak is not
# an array's peak share; boosted loads and boot storms (next section) are kept out. Every record
# left out is listed with its reason.

# %%
excl = iops.exclusions(results, choices=choices)
catalogue.write("iops_model_exclusions", excl)
excl.groupby("reason").size().rename("records").to_frame()

# %%
run = sensitivity.planning_under(results, choices)
obs = run.obs
catalogue.write("iops_model_observations", obs)
obs.drop(columns=["source_id", "log_iops", "log_iops_vsi", "workload"])

# %% [markdown]
# ## Choice of specification
#
# Candidates: `pooled` (one level per cell, worker class ignored), `workload` (plus Login VSI's
# worker intensity), `vsi_offset` (classes scaled exactly as Login VSI's table) and `vantage`.
# The choice follows the computed criteria (`iops.choose_spec`): most held-out observations
# predicted, then the lowest leave-one-vendor-out error, then AIC (choice `model_spec = auto`).

# %%
spec, model, pred = run.spec, run.model, run.pred
print("specification:", spec)
iops.compare_specs(obs)

# %%
coefs = iops.coefficients(model) if model is not None else pd.DataFrame(columns=["term"])
catalogue.write("iops_model_coefficients", coefs)
coefs

# %% [markdown]
# ## Leave-one-vendor-out, per held-out vendor
#
# Each vendor is predicted from the others only. Per vendor: error factor, coverage of the 90 %
# interval and its sharpness (median ratio of the interval's ends). No all-vendor figure: a pooled
# coverage hides intervals too wide to inform a purchase.

# %%
cv = iops.leave_one_vendor_out(obs, spec)
catalogue.write("iops_model_cv", cv)
by_vendor = iops.cv_by_vendor(cv)
catalogue.write("iops_model_cv_by_vendor", by_vendor)
by_vendor

# %% [markdown]
# ## Out of sample: the external sources
#
# Sources with `role = external` in `sources.csv` are never fitted; their observations (same
# semantics and exclusions) are predicted by the seed model and labelled by how they differ
# (broker, load tool, guest OS, platform). Zero rows while no external records exist.

# %%
ext = iops.external_check(results, model, choices=choices) if model is not None else pd.DataFrame()
ext = ext if len(ext.columns) else pd.DataFrame(columns=iops.EXTERNAL_COLUMNS)
catalogue.write("iops_model_external", ext)
ext

# %% [markdown]
# ## Boot storms by rate
#
# Boot demand depends on how fast desktops are booted. Per document: boot rate (desktops per
# minute, from the boot duration), I/O per desktop boot (average IOPS × duration ÷ desktops; an
# upper bound where only a peak is reported) and peak IOPS per desktop booted per minute.

# %%
storms, boot_model = run.storms, run.boot_model
catalogue.write("boot_storms", storms)
storms

# %% [markdown]
# External documents' boot storms against the seeds' boot-rate model (zero rows if none).

# %%
ext_boot = boot.external_check(storms, boot_model)
catalogue.write("boot_external", ext_boot)
ext_boot

# %% [markdown]
# ## Read share, I/O size, latency; the planning table and the sizing inputs

# %%
plan = run.plan
catalogue.write("iops_per_desktop_model", plan)
plan

# %%
inputs = scenario.build_inputs(plan, scenario.demonstrated(results), scenario.capacity_per_desktop(results))
# what each tested configuration demonstrably carried, and its ports and controllers (verdicts.py)
sources_df = sources.load_sources()
capability = verdicts.capability(results, sources_df, sources.read_csv_text(config.RAW_DIR / "claims.csv"))
arrays = verdicts.arrays(results, sources_df, sources.read_csv_text(config.RAW_DIR / "discrepancies.csv"))
inputs.update(verdicts.to_inputs(capability, arrays, verdicts.capacity(results, sources_df)))
catalogue.write("sizing_inputs", inputs)
scenario.size(scenario.validate(2000, "knowledge"), inputs)

# %% [markdown]
# ## The rules of thumb the documents quote
#
# The sensitivity of the planning figures to every analysis choice (bounds and ranges included)
# is the stage `sensitivity` (notebook `06_sensitivity`, `data/processed/sensitivity.csv`).

# %%
iops.rules_of_thumb(results, pred)
