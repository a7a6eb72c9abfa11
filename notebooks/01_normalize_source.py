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
# # Normalize one source
#
# Reads one document's digitized records from `data/raw/records/<source_id>.csv`, validates them
# (pandera, all problems at once), converts units with pint, turns bounds into intervals and
# computes per-desktop figures. Writes `data/processed/normalized/<source_id>.csv`.
# The Makefile runs this notebook once per source with papermill (`-p source_id ...`).

# %% tags=["parameters"]
source_id = "netapp_tr4540"

# %%
from vdi_report import config, files, normalize

table = normalize.normalize_source(source_id)
out = files.write_csv(table, config.NORMALIZED_DIR / f"{source_id}.csv")
print(f"{source_id}: {len(table)} records -> {out.relative_to(config.PROJ_ROOT)}")

# %% [markdown]
# Records by phase and metric (a quick look for the reviewer):

# %%
table.pivot_table(index="phase", columns="statistic", values="record_id", aggfunc="count", fill_value=0)
