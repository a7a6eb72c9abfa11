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
# # Sensitivity of the planning figures to the analysis choices
#
# Reads `data/processed/results.csv` and the declared analysis choices
# (`data/raw/analysis_choices.csv`, `vdi_report.raw.choices`). Writes
# `data/processed/sensitivity.csv` through the table catalogue: the planning table under each
# option of each choice, one at a time, and under every combination of the joint choices (the
# specification curve). Every row comes from `vdi_report.models.sensitivity.planning_under`, the
# path the model stage (notebook 04) takes, so a reviewer's `make report CHOICES=file` reproduces
# the rows of that file's specification, and the summaries the report reads (ranking, the movers of
# each planning row, the tornado chart's ranges). The stage takes no report parameter: a
# reviewer's choices do not re-run it.

# %%
import pandas as pd

from vdi_report import catalogue
from vdi_report.models import sensitivity
from vdi_report.raw import choices as analysis

pd.set_option("display.width", 200, "display.max_columns", 30, "display.precision", 3)
results = catalogue.read("results")
declared = analysis.declared()
pd.DataFrame(declared.rows)[["choice_id", "options", "default", "joint"]]

# %%
sens = sensitivity.sensitivity(results, declared)
catalogue.write("sensitivity", sens)
print(f"{len(sens)} rows, {sens['specification'].nunique()} specifications")

# %% [markdown]
# The summaries the report reads, computed once here from the table as written (the figures every
# reader of `sensitivity.csv` sees): the choices ordered by how far one flip moves a planning
# estimate (`sensitivity_ranking.csv`), per planning row the choices that move it
# (`sensitivity_movers.csv`) and the tornado chart's lowest and highest change per choice and row
# (`sensitivity_tornado.csv`).

# %%
written = catalogue.read("sensitivity")
catalogue.write("sensitivity_movers", sensitivity.row_movers(written))
catalogue.write("sensitivity_tornado", sensitivity.tornado(written))
ranking = sensitivity.ranking(written)
catalogue.write("sensitivity_ranking", ranking)
ranking

# %% [markdown]
# The specification curve: the range of each planning estimate over the joint choices.

# %%
j = sens[sens["kind"] == "joint"]
j.groupby(["era", "phase", "statistic"])["estimate"].describe()[["count", "min", "50%", "max"]]
