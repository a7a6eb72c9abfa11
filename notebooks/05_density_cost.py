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
# # Density (demonstrated before extrapolated) and cost (explicit assumptions only)
#
# Reads `data/processed/results.csv`, `data/raw/sources.csv`, `data/raw/claims.csv`, `discrepancies.csv` (via
# `vdi_report.raw.sources`) and the cost assumptions (`cost_file`, papermill parameter; default
# `data/raw/cost_assumptions.csv`). Writes, through the table catalogue (`vdi_report.catalogue`),
# `data/processed/density.csv` (every utilization figure, whether and how it may be
# extrapolated), `density_summary.csv` (per tested array), `cost_readings.csv` (each reading of
# each $-per-desktop claim) and `cost.csv` (cost per desktop from assumed array prices; empty when
# none is assumed). Port bandwidth and the tiering saving are shown here, not stored: the report
# computes them where it prints them.

# %% tags=["parameters"]
cost_file = ""  # path of the cost assumptions CSV; empty: data/raw/cost_assumptions.csv

# %%
import numpy as np
import pandas as pd

from vdi_report import catalogue, config
from vdi_report.models import cost, density, scenario
from vdi_report.raw import sources

pd.set_option("display.width", 200, "display.max_columns", 30, "display.precision", 3)
results = catalogue.read("results")
sources_df = sources.load_sources()
claims_register = sources.read_csv_text(config.RAW_DIR / "claims.csv")
cost_path = cost_file or config.RAW_DIR / "cost_assumptions.csv"
assumptions = cost.load_assumptions(cost_path)
prices = cost.array_prices(assumptions, sources_df, cost_path)  # the buyer's quotes, validated (file, line)
register = sources.read_csv_text(config.RAW_DIR / "discrepancies.csv")
assumptions

# %% [markdown]
# ## Which figures may be extrapolated
#
# Controller CPU (and Hitachi's MPU) scales with desktops; busy % of disks and flash modules
# does not; a figure at 95 % or more means the test already reached a limit; and a statement the
# claims table rates *not testable* is never a basis (AccelStor's "CPU always under 4 %").

# %%
dens = density.max_desktops(density.utilization(results), claims_register, register)
catalogue.write("density", dens)
dens[
    [
        "vendor",
        "configuration",
        "phase",
        "condition",
        "resource",
        "statistic",
        "utilization_pct",
        "bound",
        "extrapolation",
        "reason",
        "max_desktops",
        "record_id",
    ]
]

# %% [markdown]
# Port bandwidth: link speed × data ports against the highest tested throughput per desktop.

# %%
ports = density.port_bandwidth(results)
ports

# %% [markdown]
# ## Per array: demonstrated, then extrapolated

# %%
summ = density.summary(dens, density.claims(results), ports, scenario.demonstrated(results, sources_df))
catalogue.write("density_summary", summ)
summ

# %% [markdown]
# ## Cost: the claims' readings, and cost from explicit assumptions
#
# The register sets every $-per-desktop claim aside; each is shown with every reading its
# document allows and the consequence of each. Cost per desktop is computed only from array
# prices stated in the assumptions file.

# %%
readings = cost.claim_readings(results, sources_df, claims_register)
catalogue.write("cost_readings", readings)
readings.drop(columns=["audit"])

# %%
per_desktop = cost.cost_per_desktop(assumptions, summ, sources_df)
catalogue.write("cost", per_desktop)
per_desktop

# %% [markdown]
# ## Tiered configurations: flash modules saved, HDDs included

# %%
drives = cost.drive_mix(results)
tiered = cost.tiered_configuration(drives) if len(drives) else ""
r = cost.values(assumptions)["hdd_to_fmd_price_ratio"]
saving = pd.DataFrame(
    [
        {**cost.tiering_saving(g, r, ref, tiered), "source_id": sid, "hdd_to_fmd_price_ratio": r}
        for sid, g in drives.groupby("source_id")
        for ref in g["configuration"]
        if ref != tiered
    ],
    columns=[
        "reference",
        "tiered",
        "claimed_fmd_only",
        "with_hdds",
        "break_even_ratio",
        "source_id",
        "hdd_to_fmd_price_ratio",
    ],
)
catalogue.write("cost_assumptions", assumptions)
catalogue.write("drive_mix", drives)
catalogue.write("tiering_saving", saving)
# the saving against each reference over HDD/FMD price ratios 0 to 1 (the report's saving curve)
curve = pd.DataFrame(
    [
        {
            "source_id": sid,
            "reference": ref,
            "tiered": tiered,
            "hdd_to_fmd_price_ratio": ratio,
            "with_hdds": cost.tiering_saving(g, ratio, ref, tiered)["with_hdds"],
        }
        for sid, g in drives.groupby("source_id")
        for ref in g["configuration"]
        if ref != tiered
        for ratio in np.linspace(0, 1, 101)
    ],
    columns=["source_id", "reference", "tiered", "hdd_to_fmd_price_ratio", "with_hdds"],
)
catalogue.write("tiering_saving_curve", curve)
saving
