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
# Reads `data/processed/results.csv`, `data/raw/sources.csv` (via `vdi_report.raw.sources`) and
# `data/raw/test_setup.csv` (via `vdi_report.raw.test_setup`).
# Writes, through the table catalogue (`vdi_report.catalogue`; the README's data contract lists
# their columns), `data/processed/iops_per_desktop_model.csv` (the planning table),
# `iops_model_observations.csv`, `iops_model_exclusions.csv`,
# `iops_model_coefficients.csv`, `iops_model_cv.csv`, `iops_model_cv_by_vendor.csv`,
# `iops_model_external.csv`, `iops_model_lodo.csv`, `iops_calibration.csv`, `within_lab_effects.csv`,
# `boot_storms.csv`,
# `boot_external.csv`, the Models chapter's `iops_calibration_coverage.csv`,
# `observation_context.csv`, `rules_of_thumb.csv`, `io_profile.csv` and `headline_iops.csv`, and
# `sizing_inputs.json`
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
from vdi_report.models import iops, scenario, sensitivity, verdicts
from vdi_report.raw import choices as analysis
from vdi_report.raw import sources, test_setup

pd.set_option("display.width", 200, "display.max_columns", 30, "display.precision", 3)
results = catalogue.read("results")
sources_df = sources.load_sources()  # read once here: the model functions take it as an argument
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
# each era function no choice reaches computed once for its arguments, as in the sensitivity grid
# (sensitivity.choice_independent_once: the same tables in 1.8 s instead of 3.2 s)
with sensitivity.choice_independent_once():
    run = sensitivity.planning_under(results, choices, sources_df)
    tables = sensitivity.model_tables(results, choices, sources_df, run=run)  # every table of this stage, one path
excl = tables["iops_model_exclusions"]
catalogue.write("iops_model_exclusions", excl)
excl.groupby("reason").size().rename("records").to_frame()

# %%
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
run.specs if run.specs is not None else iops.compare_specs(obs)  # computed by planning_under when model_spec is auto

# %%
coefs = tables["iops_model_coefficients"]  # no rows (declared columns) when no model can be fitted
catalogue.write("iops_model_coefficients", coefs)
coefs

# %% [markdown]
# ## Leave-one-vendor-out, per held-out vendor
#
# Each vendor is predicted from the others only. Per vendor: error factor, coverage of the 90 %
# interval and its sharpness (median ratio of the interval's ends). No all-vendor figure: a pooled
# coverage hides intervals too wide to inform a purchase.

# %%
cv = tables["iops_model_cv"]
catalogue.write("iops_model_cv", cv)
by_vendor = tables["iops_model_cv_by_vendor"]
catalogue.write("iops_model_cv_by_vendor", by_vendor)
by_vendor

# %% [markdown]
# ## Boot storms by rate
#
# Boot demand depends on how fast desktops are booted. Per document: boot rate (desktops per
# minute, from the boot duration), I/O per desktop boot (average IOPS × duration ÷ desktops; an
# upper bound where only a peak is reported) and peak IOPS per desktop booted per minute.

# %%
storms = tables["boot_storms"]
catalogue.write("boot_storms", storms)
storms

# %% [markdown]
# ## The planning table by era, the document as the unit of replication
#
# Two eras, never pooled (`era` in `data/raw/vocabulary.csv`): `seed` (the four 2016–2018
# documents) and `modern` (the external 2022–2024 documents). Per era and cell, one figure per
# document (its runs are not independent), pooled over labs (the unit of replication) by a
# random-effects meta-analysis of ln IOPS per desktop: a 90 % prediction interval for a new lab
# with three labs or more, and below that with τ² borrowed from the seed labs (choice
# `tau2_source`; `none` keeps the range of the labs' runs). The
# planning rows are knowledge-worker rows (task-worker samples excluded). Modern figures are read
# with their true status: read + write averages of one run are exact, one direction's peak is a
# lower bound of the total peak, the sum of read and write peaks an upper bound. Read share, I/O
# size and latency of the seed rows: the seeds' own (`scenario.io_characteristics`); of the
# modern rows: their whole runs'. (The cross-vendor regression above, under the analysis
# choices, is the check of the seed cells; `sensitivity.csv` varies it.)

# %%
plan = tables["iops_per_desktop_model"]  # era.planning_rows on the observations under the analysis choices
catalogue.write("iops_per_desktop_model", plan)
plan

# %% [markdown]
# Leave one document out, per era: each document's figure against the row pooled from the
# era's other documents.

# %%
lodo = tables["iops_model_lodo"]
catalogue.write("iops_model_lodo", lodo)
lodo

# %% [markdown]
# Leave one lab out (the lab is the unit of replication): each lab's figure against the interval
# for a new lab pooled from the cell's other labs, τ² recomputed without it (`era.calibration`),
# beside the range of the other labs' runs the rows printed before.

# %%
cal = tables["iops_calibration"]
catalogue.write("iops_calibration", cal)
catalogue.write("iops_calibration_coverage", tables["iops_calibration_coverage"])
tables["iops_calibration_coverage"]

# %% [markdown]
# ## Within-lab effects
#
# Runs of one lab that differ by one declared factor, on the whole-test average: MCS against
# Citrix Provisioning in each document, FSLogix profiles on Nutanix Files colocated against a
# dedicated cluster, and the 2023 edition of RA-2022 (EUX 2023 disk actions on) against the 2024
# edition (EUX settings modified), whose ratio also holds hardware, versions and window
# (`also_differs`). Reported read and write averages with their records; IOPS per desktop and
# the ratio are derived (`era.within_lab_effects`).

# %%
within = tables["within_lab_effects"]
catalogue.write("within_lab_effects", within)
within

# %% [markdown]
# ## Out of sample: every external figure with its true status
#
# Each external figure against the seed row of its cell: whole-test averages (exact) against the
# seed whole-test average, the login peak's lower and upper bounds against the seed login peak;
# verdict inside, above, below, or uninformative (a bound that cannot contradict the interval).
# `covered` means the seed interval contains the figure (an exact value inside it).

# %%
ext = tables["iops_model_external"]
catalogue.write("iops_model_external", ext)
ext

# %%
ext_boot = tables["boot_external"]
catalogue.write("boot_external", ext_boot)
ext_boot

# %% [markdown]
# ## The sizing inputs

# %%
inputs = scenario.build_inputs(plan, scenario.demonstrated(results, sources_df))
# what each tested configuration demonstrably carried, and its ports and controllers (verdicts.py)
capability = verdicts.capability(results, sources_df, sources.read_csv_text(config.RAW_DIR / "claims.csv"))
setup = test_setup.setup_wide()  # test_setup.csv, read once here: the protection and provisioning of each test
arrays = verdicts.arrays(results, sources_df, sources.read_csv_text(config.RAW_DIR / "discrepancies.csv"), setup)
inputs.update(verdicts.to_inputs(capability, arrays, verdicts.capacity(results, sources_df, setup)))
catalogue.write("sizing_inputs", inputs)
scenario.size(scenario.validate(2000), inputs)

# %% [markdown]
# ## The rules of thumb the documents quote
#
# The sensitivity of the planning figures to every analysis choice (bounds and ranges included)
# is the stage `sensitivity` (notebook `06_sensitivity`, `data/processed/sensitivity.csv`).

# %%
catalogue.write("rules_of_thumb", tables["rules_of_thumb"])
tables["rules_of_thumb"]

# %% [markdown]
# What each observation was measured with (Login VSI version, guest OS, clone type, broker), and
# the read share and implied I/O size per test (derived): the Models chapter's tables.

# %%
catalogue.write("observation_context", tables["observation_context"])
catalogue.write("io_profile", tables["io_profile"])
catalogue.write("headline_iops", tables["headline_iops"])  # the headline table's IOPS cells
tables["io_profile"]
