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
# # Normalize the sources
#
# Reads each document's digitized records from `data/raw/records/<source_id>.csv`, validates them
# (pandera, all problems at once), converts units with pint, turns bounds into intervals and
# computes per-desktop figures. Writes `data/processed/normalized/<source_id>.csv` per source.
# The Makefile runs this notebook once for all the sources listed in `data/raw/sources.csv`
# (one kernel start-up instead of one per source); `-p source_id ID` normalizes one source.
# Every source is normalized before any file is written, so a bad one leaves the outputs as they were.

# %% tags=["parameters"]
source_id = ""  # empty: every source of data/raw/sources.csv; else one source id

# %%
from vdi_report import catalogue, config
from vdi_report.raw import sources
from vdi_report.transform import normalize

ids = [source_id] if source_id else sources.load_sources()["source_id"].tolist()
tables = {s: normalize.normalize_source(s) for s in ids}
for s, table in tables.items():
    out = catalogue.write("normalized", table, source_id=s)
    print(f"{s}: {len(table)} records -> {out.relative_to(config.PROJ_ROOT)}")

# %% [markdown]
# Records by source and statistic (a quick look for the reviewer):

# %%
import pandas as pd

pd.concat(tables.values()).pivot_table(
    index="source_id", columns="statistic", values="record_id", aggfunc="count", fill_value=0
)
