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
# # Explore the data behind the report
#
# Not part of the build (`make report` never runs it). Open it with `make lab` after `make report`
# (or `make data` and the model stages): it reads only `data/processed` and `data/raw`.
#
# 1. the processed tables, 2. any record's provenance by id, 3. the sizing function, interactively.

# %%
import pandas as pd

from vdi_report.models import scenario
from vdi_report.report.context import Context

ctx = Context(
    dict(
        desktops=2000,
        concurrency=1.0,
        headroom=0.2,
        boot_window_min=30,
        raid="none",
        failover="none",
        report_date="",
        cost_file="",
    )
)
results = ctx.results
print(f"{len(results):,} digitized numbers from {results['source_id'].nunique()} documents")
results.groupby(["vendor", "phase"]).size().unstack(fill_value=0)

# %% [markdown]
# ## 1. The processed tables
# `ctx.results`, `ctx.tests`, `ctx.testbeds`, `ctx.pred` (planning table), `ctx.obs`, `ctx.density`,
# `ctx.findings`, `ctx.register`, `ctx.claims`, `ctx.sizing_inputs`: any of them is a DataFrame (or a dict).

# %%
ctx.pred

# %% [markdown]
# ## 2. Where does a number come from?
# Type a record id (e.g. the first one of the table) to see its document, locator, line, the verbatim
# quote, the value as printed and normalized, and whether the analysis uses it.

# %%
PROVENANCE = [
    "record_id",
    "vendor",
    "source_id",
    "locator",
    "line",
    "quote",
    "value_text",
    "value",
    "unit",
    "bound",
    "phase",
    "metric",
    "statistic",
    "vantage",
    "condition",
    "test_id",
    "desktops",
    "per_desktop",
    "used_in_analysis",
    "resolution",
]


def provenance(record_id: str) -> pd.Series:
    """The provenance of one record of results.csv (KeyError naming an unknown id)."""
    hit = results[results["record_id"] == record_id]
    if hit.empty:
        raise KeyError(f"no record {record_id!r} in data/processed/results.csv")
    row = hit.iloc[0][PROVENANCE]
    src = ctx.sources.set_index("source_id").loc[row["source_id"]]
    return pd.concat(
        [row, pd.Series({"document": src["title"], "text_files": src["text_files"], "text_sha256": src["text_sha256"]})]
    )


provenance(results["record_id"].iloc[0])  # edit the id and re-run the cell


# %% [markdown]
# ## 3. Size a scenario
# The same function as the report and its HTML calculator: `scenario.size(params, inputs)`.

# %%
inputs = ctx.sizing_inputs
params = scenario.validate(
    desktops=2000,
    concurrency=0.8,
    headroom=0.2,
    boot_window_min=30,
    raid="raid5",
    failover="none",
)  # edit and re-run
scenario.size(params, inputs)

# %% [markdown]
# A bad value stops with a plain message, as the report's `make report DESKTOPS=...` does:

# %%
try:
    scenario.validate(desktops=-5)
except ValueError as exc:
    print(f"invalid parameter: {exc}")
