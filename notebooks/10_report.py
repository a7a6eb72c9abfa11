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
desktops = 2000  # DESKTOPS: desktops to size for
concurrency = 1.0  # CONCURRENCY: fraction of the desktops active at once
headroom = 0.2  # HEADROOM: fraction of each resource kept free
boot_window_min = 30  # BOOT_WINDOW: minutes to boot every provisioned desktop (all DESKTOPS)
raid = "none"  # RAID: none, raid10, raid5, raid6 (write penalty 1, 2, 4, 6)
failover = "none"  # FAILOVER: none, controller (sized with one controller down)
clone_type = "linked"  # CLONE_TYPE: linked, full (capacity per desktop by clone type)
latency_target_ms = 15  # LATENCY_TARGET_MS: a load counts only where its own latency met this target
report_date = ""  # REPORT_DATE: ISO date; empty: today
era = "modern"  # ERA: planning figures of the seed (2016–2018) or modern (2022–2024) documents
login_window_min = 30  # LOGIN_WINDOW: minutes for all concurrently active users to log in
profile_file = ""  # PROFILE_FILE: your own per-phase figures (CSV); empty: the era's
cost_file = ""  # COST_FILE: cost assumptions CSV; empty: data/raw/cost_assumptions.csv
choices_file = ""  # CHOICES: a reviewer's analysis choices (choice_id, option); empty: the declared defaults

# %%
from vdi_report import stages
from vdi_report.report import sections
from vdi_report.report.context import Context

# the report parameters, as declared once in stages.PARAMETERS (the cell above holds their defaults)
ctx = Context({p.name: globals()[p.name] for p in stages.PARAMETERS})

# %%
# every chapter in report order (sections.CHAPTERS: the modules of report/sections/, by their ORDER)
sections.render_all(ctx)
