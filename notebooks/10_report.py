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

# %% tags=["parameters"]
report_date = ""  # empty: today's date
desktops = 2000  # sizing scenario: number of desktops
worker_class = "knowledge"  # sizing scenario: Login VSI worker class (task, office, knowledge, power)
headroom = 0.2  # sizing scenario: fraction of each resource kept free
cost_file = ""  # cost assumptions CSV; empty: data/raw/cost_assumptions.csv

# %%
import datetime

import pandas as pd
from IPython.display import Markdown, display

from vdi_report import charts, config, normalize, sources, tables

srcs = sources.load_sources()
results = normalize.read_normalized(config.PROCESSED_DIR / "results.csv")
tests = pd.read_csv(config.PROCESSED_DIR / "tests.csv", keep_default_na=False)
date = report_date or datetime.date.today().isoformat()
n_records = len(results)
display(Markdown(f"""# VDI storage: a cross-vendor comparison of four reference architectures

*Generated {date} from {n_records:,} digitized numbers in {len(srcs)} vendor documents.
Every number below is read from `data/processed`; each traces back to a locator and a line of
the vendor's text in `data/raw`.*"""))

# %% [markdown]
# ## Sources
#
# Four storage vendors published reference architectures for VMware Horizon virtual desktops,
# each tested with Login VSI. They tested different arrays with different desktop counts, clone
# types and workloads, and measured at different vantage points; the tables below keep those
# differences visible rather than hiding them.

# %%
tables.styled(tables.sources_table(srcs), "Table 1. The four documents")

# %% [markdown]
# ## Headline results per desktop
#
# One row per test run in normal operation (controller-failover runs are in the data set and
# the audit). Per-desktop IOPS are **derived**: the reported IOPS divided by the desktops of
# that test; for Hitachi's mixed pool of 400 task and 180 extreme power users, by all 580
# desktops, the mix kept explicit. A sign before a number is the document's own bound: `<` "less
# than", `>` "more than", `≈` "about". "Measured at" is the vantage point the vendor names (array
# front end, array back end, ESXi host, storage port, guest); numbers from different vantage
# points are not directly comparable. A dash: the document does not state it.

# %%
tables.styled(tables.headline_table(tests), "Table 2. Headline results per test run, normal operation")

# %%
charts.show(charts.per_desktop_iops_chart(results))

# %% [markdown]
# Each point is one reported number divided by its test's desktops. Peak and average figures are
# shown with different shapes; hover in the HTML report for the vantage, bound and locator.

# %%
charts.show(charts.latency_chart(results))

# %% [markdown]
# <!-- MODELS-SECTION: the models (issue 6) go here -->

# %% [markdown]
# <!-- AUDIT-SECTION: the source audit (issue 5) goes here -->

# %% [markdown]
# ## Appendix: coverage of the digitized data
#
# Records per document and phase (testbed: facts about the test bed; sizing: targets, rules of
# thumb and workload definitions).

# %%
tables.styled(tables.coverage_table(results), "Table A1. Digitized records per phase and document")
