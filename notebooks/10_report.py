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
# The report parameters at their declared defaults (parameters.PARAMETERS: Make variable, meaning,
# range; `make help` lists them); papermill's injected cell below sets the build's values.
from vdi_report import parameters

globals().update(parameters.notebook_defaults())

# %%
from vdi_report import stages
from vdi_report.report import chapter_cache, sections
from vdi_report.report.context import Context

# the report parameters, as declared once in parameters.PARAMETERS (the cell above sets their defaults)
ctx = Context({p.name: globals()[p.name] for p in stages.PARAMETERS})

# %%
# every chapter in report order (sections.CHAPTERS: the modules of report/sections/, by their ORDER);
# a chapter that states the parameters it uses is replayed from build/chapters/ while they and the
# report's other inputs are unchanged (report/chapter_cache.py)
sections.render_all(ctx, chapter_cache.CACHE_DIR)
