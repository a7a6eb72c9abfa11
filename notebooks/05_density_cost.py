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
# # Headroom, density and cost per desktop
#
# From the vendors' own utilization figures: which resource is closest to saturation in each
# phase, and how many desktops each tested array and configuration could carry under a stated
# scaling law. Then the vendors' cost claims, what they imply, and the cost per desktop at the
# tested and the model densities. Writes `data/processed/density.csv`,
# `data/processed/density_summary.csv`, `data/processed/cost.csv` and
# `data/processed/hitachi_drive_cost.csv`. Every price assumption comes from `cost_file`
# (papermill parameter; default `data/raw/cost_assumptions.csv`).

# %% tags=["parameters"]
cost_file = ""  # path of the cost assumptions CSV; empty: data/raw/cost_assumptions.csv

# %%
import pandas as pd

from vdi_report import config, files, normalize
from vdi_report.models import cost, density

pd.set_option("display.width", 200, "display.max_columns", 30, "display.precision", 3)
results = normalize.read_normalized(config.PROCESSED_DIR / "results.csv")
assumptions = cost.load_assumptions(cost_file or None)
assumptions

# %% [markdown]
# ## Scaling law
#
# A resource at *u* % with *d* desktops saturates at *d* × 100 / *u* desktops (utilization
# proportional to desktops). A `< u` utilization gives a lower bound on that maximum, a `> u` an
# upper bound, and a resource already at 100 % gives at most the tested desktops. Controller
# resources (array CPU, Hitachi MPU) double when one of two controllers carries the load; disk
# busy does not change. NetApp measured failover itself; its failover figures are used as
# measured. Latency is not extrapolated: it grows non-linearly near saturation.

# %%
dens = density.max_desktops(density.utilization(results))
files.write_csv(dens, config.PROCESSED_DIR / "density.csv")
dens.drop(columns=["source_id", "population", "utilization_low", "utilization_high"])

# %% [markdown]
# ## The binding resource, beside the vendors' claims
#
# Per configuration, the lowest maximum over the user-facing phases (boot, login, steady state).

# %%
claims = density.claims(results)
summ = density.summary(dens, claims)
files.write_csv(summ, config.PROCESSED_DIR / "density_summary.csv")
summ

# %%
density.latency(results)

# %% [markdown]
# ## Cost: the vendors' claims and what they imply
#
# The implied array price is the claimed $ per desktop times the density the claim is made at.
# AccelStor's "full desktop density" is not quantified in its document; its value comes from the
# assumptions file (and is varied below). NetApp's US$29 for an AFF A200 comes with no density and
# no test, so it implies nothing.

# %%
vclaims = cost.vendor_claims(results, assumptions)
recomputed = cost.recompute(vclaims, summ, assumptions)
files.write_csv(recomputed, config.PROCESSED_DIR / "cost.csv")
vclaims.drop(columns=["quote"])

# %%
recomputed

# %% [markdown]
# ## Hitachi's "75 % of the FMD cost saved"
#
# Configuration 2 (4 FMDs + 20 HDDs) against Configuration 3 (16 FMDs) saves 75 % of the FMD
# count, but adds 20 HDDs; against Configuration 1 (8 FMDs + 12 HDDs) it saves half the FMDs and
# adds 8 HDDs. The saving in drive cost depends on the price of an HDD relative to an FMD
# (assumed; no price in the document).

# %%
drives = cost.hitachi_drives(results)
r = cost.values(assumptions)["hdd_to_fmd_price_ratio"]
saving = pd.DataFrame([cost.hitachi_saving(drives, r, ref) for ref in ("config3", "config1")]).assign(hdd_to_fmd_price_ratio=r)
files.write_csv(saving, config.PROCESSED_DIR / "hitachi_drive_cost.csv")
saving

# %% [markdown]
# ## Sensitivity
#
# Each input at its low and high end, the others at their base value. Model densities: NetApp
# from its binding peak (tested desktops, saturated) to its average-based maximum; AccelStor from
# the tested 500 desktops to its CPU-based lower bound.

# %%
ranges = cost.density_ranges(summ)
tor = cost.tornado(assumptions, vclaims, ranges, drives)
tor
