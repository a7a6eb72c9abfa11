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

# %%
mixed = srcs[srcs["clone_type"] == "mixed"].iloc[0]  # Hitachi: one pool, two user types
tol = f"{normalize.APPROX_TOLERANCE:.0%}"
display(Markdown(f"""## Headline results per desktop

One row per test run in normal operation (controller-failover runs are in the data set and
the audit). Per-desktop IOPS are **derived**: the reported IOPS divided by the desktops of
that test; for {mixed['vendor']}'s mixed pool ({mixed['workload']}), by all {mixed['desktops']:,}
desktops, the mix kept explicit. A sign before a number is the document's own bound: `<` "less
than", `>` "more than", `≈` "about" (taken as ± {tol}). "Measured at" is the vantage point the
vendor names (array front end, array back end, ESXi host, storage port, guest); numbers from
different vantage points are not directly comparable. A dash: the document does not state it."""))

# %%
tables.styled(tables.headline_table(tests), "Table 2. Headline results per test run, normal operation")

# %% [markdown]
# Only some numbers can be compared across vendors at all: the same phase, metric and statistic
# measured at the same vantage point. These are the groups that two or more vendors report:

# %%
tables.styled(tables.comparability_table(results), "Table 3. Cross-vendor comparable groups of reported numbers")

# %% [markdown]
# ## Test beds: desktops per drive and per raw terabyte
#
# Derived from each document's drive count and drive size (a count and a size stated together in
# one table row or sentence). Hitachi tested one population on three pool configurations.

# %%
testbeds = pd.read_csv(config.PROCESSED_DIR / "testbeds.csv", keep_default_na=False,
                       na_values={c: [""] for c in ["drives", "raw_capacity_gb", "desktops_per_drive", "desktops_per_raw_tb"]})
tables.styled(tables.testbed_table(testbeds), "Table 4. Tested arrays: capacity density (derived)")

# %% [markdown]
# ## Charts

# %%
charts.show(charts.per_desktop_iops_chart(results))

# %% [markdown]
# Each point is one reported number divided by its test's desktops, failover runs included. The
# shape is the vantage point: array back-end figures (AccelStor) include the array's own
# internal I/O and sit far to the right; they are not comparable with front-end or host figures.
# Hover in the HTML report for the condition, bound and locator of each point.

# %%
charts.show(charts.latency_chart(results))

# %%
# Models (issue 6). Scenario parameters first: invalid values stop the report here.
import math

from vdi_report.models import cost, density, iops, scenario
from vdi_report.models import tables as mtables

desktops, worker_class, headroom = scenario.validate(desktops, worker_class, headroom)
assumptions = cost.load_assumptions(cost_file or None)
pred = pd.read_csv(config.PROCESSED_DIR / "iops_per_desktop_model.csv")
cv = pd.read_csv(config.PROCESSED_DIR / "iops_model_cv.csv")
coefs = pd.read_csv(config.PROCESSED_DIR / "iops_model_coefficients.csv")
obs = pd.read_csv(config.PROCESSED_DIR / "iops_model_observations.csv", keep_default_na=False)
cv_stats = iops.cv_summary(cv)

# %% [markdown]
# ## IOPS per desktop: one model for four vendors
#
# Each vendor tested one array with one population and extrapolated from it. Fitting the four
# documents together gives a planning figure with an honest spread. The model (statsmodels OLS)
# explains the logarithm of IOPS per desktop by the phase of the VDI day (boot storm, login
# storm, steady state), the statistic (peak or average) and the worker class. The worker class
# enters as one number: Login VSI's own IOPS for that class, from the workload table AccelStor
# reprints. Only normal-operation tests measured at the array front end, the ESXi host or the
# storage port are used. Left out: failover runs, NetApp's warm-cache Tuesday login, back-end
# IOPS, and values printed as "<" or ">". Approximate values enter at their midpoint.
# Hitachi's mixed pool of task and extreme power users (Table 1) is never divided by one class's
# count. Its boot storm counts with all the pool's desktops, because nobody is logged in during a
# boot, and its pooled login figures are left out. Notebook `04_iops_model` justifies each choice and
# checks its sensitivity.

# %%
tables.styled(mtables.prediction_table(pred), "Table M1. IOPS per desktop: model estimate and 90 % prediction interval")

# %%
charts.show(iops.prediction_chart(pred, obs))

# %% [markdown]
# The intervals are wide because the vendors disagree: for the same phase and statistic their
# per-desktop figures differ by a factor of two to three. A 90 % prediction interval is the range
# a *new* deployment's figure should fall in nine times out of ten, not the uncertainty of the
# average. Boot storms are workload-independent, so the boot rows are the same for every class.
# The coefficients below are multiplicative factors on IOPS per desktop, with 95 % confidence
# intervals. The worker-class slope is not distinguishable from zero: with four documents, the
# differences between vendors swamp those between worker classes.

# %%
tables.styled(mtables.coefficient_table(coefs), "Table M2. Model coefficients (factors on IOPS per desktop, 95 % CI)")

# %% [markdown]
# ### Validation: leave one vendor out
#
# Each vendor's figures were predicted by the model fitted to the other three vendors only.

# %%
display(Markdown(
    f"Out of sample, {cv_stats['n_predicted']} of {cv_stats['n']} observations could be predicted. "
    f"The root-mean-square error is {cv_stats['rmse_log']:.2f} on the natural-log scale: a typical prediction is off "
    f"by a factor of about {math.exp(cv_stats['rmse_log']):.1f} (median {cv_stats['median_factor']:.2f}). "
    f"{cv_stats['coverage']:.0%} of the held-out observations fell inside their 90 % prediction interval."))
tables.styled(mtables.cv_table(cv), "Table M3. Leave-one-vendor-out validation")

# %%
charts.show(iops.cv_chart(cv))

# %% [markdown]
# ### The rules of thumb the documents quote
#
# Each rule is set beside the model's steady-state average for its worker class. A rule that
# names no class is compared with a knowledge worker, Dell's test workload. Rules are reported
# values, and the model never uses them as data, except that Login VSI's table sets the relative
# intensity of the classes.

# %%
rules = iops.rules_of_thumb(results, pred)
tables.styled(mtables.rules_table(rules), "Table M4. Quoted IOPS-per-desktop rules against the model")

# %% [markdown]
# ### Read/write mix and I/O size
#
# Derived from tests that report read and write IOPS, or throughput and IOPS, at the same
# vantage. The implied size is MB/s × 10^6 / IOPS / 1024, in binary KB. AccelStor's array
# back-end figures include the array's own I/O and are not the desktops' demand. NetApp's
# per-size profiles are in `data/processed/results.csv` (metrics `io_size`, `read_percent`).

# %%
tables.styled(mtables.io_profile_table(iops.io_profile(results)), "Table M4b. Read share and implied I/O size (derived)")

# %%
display(Markdown(
    f"**Limitations.** The model rests on {len(obs)} observations from {obs['vendor'].nunique()} documents, and each "
    "vendor measured at one main vantage with one clone type. Vantage and clone type are therefore confounded with "
    "the vendor and cannot be modelled. \"Peak\" means the highest value of each vendor's own sampling interval, and "
    "the intervals differ. Login VSI classes are not identical across Login VSI versions. Extreme power users "
    "(Hitachi) run a custom workload and are outside the model."))

# %% [markdown]
# ## Headroom and density
#
# For each tested array and configuration, the vendor's own utilization figures (array controller
# CPU, Hitachi MPU, disk busy) show which resource is closest to saturation in each phase. The
# scaling law is an assumption: utilization is proportional to desktops. A resource at *u* %
# with *d* desktops saturates at *d* × 100 / *u* desktops. A "< u" figure gives only a lower
# bound (≥), and a resource already at 100 % gives at most the tested count (≤). With one of two
# controllers down, controller load doubles and disk load does not. Where the vendor measured
# failover (NetApp), its measured figures are used. Latency is not extrapolated, because it rises
# non-linearly near saturation.

# %%
dens = density.read(config.PROCESSED_DIR / "density.csv")
claims_df = density.claims(results)
summ = density.summary(dens, claims_df)
tables.styled(mtables.density_table(summ), "Table M5. Maximum desktops under the scaling law (binding phase and resource) and the vendors' claims")

# %%
charts.show(density.summary_chart(summ, claims_df))

# %%
display(Markdown("\n".join("- " + t for t in density.summary_sentences(summ))))

# %% [markdown]
# ## Cost per desktop
#
# No document states an array price. The vendors' own $-per-desktop claims imply one: claimed
# $ per desktop × the density the claim is made at. The cost model uses only these implied
# prices and the assumptions below, all listed in `data/raw/cost_assumptions.csv` (or
# `COST_FILE`). Each assumption carries its rationale and a low–high range.

# %%
tables.styled(mtables.assumptions_table(assumptions), "Table M6. Cost assumptions (all assumed)")

# %%
vclaims = cost.vendor_claims(results, assumptions)
recomputed = cost.recompute(vclaims, summ, assumptions)
tables.styled(mtables.claims_table(vclaims), "Table M7. The vendors' $ per desktop claims and the array price they imply")

# %%
tables.styled(mtables.recompute_table(recomputed), "Table M8. Implied price per desktop at the claimed, tested and model densities")

# %% [markdown]
# ### Hitachi's "save 75 % of the FMD cost"
#
# The document compares drive counts (its Table 10). The tiered configuration replaces flash
# modules (FMD) with SAS HDDs, and the HDDs cost money too. Counting them at an assumed HDD/FMD
# price ratio:

# %%
drives = cost.hitachi_drives(results)
ratio = cost.values(assumptions)["hdd_to_fmd_price_ratio"]
sav = [cost.hitachi_saving(drives, ratio, ref) for ref in ("config3", "config1")]
d = drives.set_index("configuration")
display(Markdown(", ".join(f"{c}: {d.at[c, 'fmd']:.0f} FMD + {d.at[c, 'hdd']:.0f} HDD" for c in d.index) + " (reported). " + " ".join(
    f"Against {s['reference']}: {s['claimed_fmd_only']:.0%} fewer FMDs (the document's arithmetic), "
    f"a {s['with_hdds']:.0%} drive-cost saving with the HDDs at {ratio:g} × an FMD's price (assumed), "
    f"and no saving at all if an HDD costs {s['break_even_ratio']:.2f} × an FMD or more." for s in sav)
    + " Shelves, power and the tiering licence are not counted."))
charts.show(cost.saving_curve(drives, assumptions))

# %% [markdown]
# ### Sensitivity
#
# Each input is moved to its low and its high end while the others stay at their base values.
# For AccelStor, the meaning of "full desktop density" decides almost everything.

# %%
charts.show(cost.tornado_chart(cost.tornado(assumptions, vclaims, cost.density_ranges(summ), drives)))

# %% [markdown]
# ## Sizing scenario

# %%
req = scenario.required_iops(pred, desktops, worker_class, headroom)
cov = scenario.coverage(req, scenario.capacity(results))
display(Markdown(
    f"**{desktops:,} {worker_class} desktops with {headroom:.0%} headroom** (report parameters `DESKTOPS`, `WORKER`, "
    f"`HEADROOM`). Required IOPS = desktops × IOPS per desktop (model) / (1 − headroom), with the 90 % prediction interval."))
tables.styled(mtables.required_table(req), "Table M9. Required IOPS for the scenario")

# %% [markdown]
# Capacity of a tested configuration: the peak IOPS it delivered in its test × 100 / the peak
# utilization of its busiest resource in that phase (the scaling law above). Where no
# utilization is reported, the capacity is only what the test demonstrated. This assumes that the
# busiest resource a vendor reported is the one that limits the array. AccelStor reports only an
# upper bound on its controller CPU, so its capacity is a far extrapolation, not a measurement. A
# configuration *covers* a phase when its capacity exceeds the requirement even at the upper end
# of the prediction interval.

# %%
tables.styled(mtables.coverage_table(cov), "Table M10. Which tested configurations cover the scenario's peak demand")

# %%
cr = scenario.cost_range(cov, vclaims, assumptions, desktops)
display(Markdown(
    "Cost range, only for arrays whose price a vendor claim implies. The number of arrays is set "
    "by the tightest phase, from the estimate up to the prediction interval's upper end. The price "
    "runs from the implied price to the implied price × the assumed claim factor. Dell and Hitachi "
    "state no price, so their cost cannot be computed without inventing one."))
tables.styled(mtables.cost_range_table(cr), "Table M11. Storage cost range for the scenario (derived from assumed prices)")

# %%
display(Markdown(
    f"**Validation in one line:** predicting each vendor from the other three, IOPS per desktop was off by a "
    f"typical factor of {cv_stats['median_factor']:.2f} (median; RMSE {cv_stats['rmse_log']:.2f} in ln units), and "
    f"{cv_stats['coverage']:.0%} of held-out observations fell inside the 90 % prediction interval "
    f"({cv_stats['n_predicted']} of {cv_stats['n']} predictable)."))

# %% [markdown]
# ## Source audit
#
# Vendor white papers contradict themselves, and a comparison that silently picks one value hides
# it. The audit has three parts, all from the documents' own text. **Automated checks**
# (`vdi_report.audit`, run over every source) compare numbers that must agree: the same quantity
# stated twice, read + write against total, per-desktop figures against total ÷ desktops,
# percentage differences and multiples against the values they compare, shares against 100 %,
# drive count × drive size against capacity, counts × per-unit figures against totals, and
# averages against peaks. A check fires only when no reading of the printed numbers within their
# printed precision (`441µs` is 440.5-441.5 µs; `~` widens a value by the tolerance stated in Table 2's notes) makes them agree, so rounding
# never counts as an error. A **curated register** records what rules cannot see (swapped labels,
# narrative contradictions, unsupported claims, comparability traps) and says which value this
# analysis uses; the records it sets aside are excluded from every table and model above. A
# **claims table** tests each vendor's headline claims against the vendor's own data.

# %%
from vdi_report import audit

findings = audit.read_findings()
register = audit.load_discrepancies()
claims = audit.load_claims()
n_bad = int((findings["severity"] == "inconsistent").sum())
display(Markdown(
    f"The automated checks found **{n_bad} inconsistencies** and {len(findings) - n_bad} notes "
    f"(arithmetic that holds only with an unstated base or for one of several pairs); the register "
    f"holds **{len(register)} entries**, which set aside {len(audit.resolutions(register))} of the "
    f"{n_records:,} digitized numbers; {len(claims)} headline claims were tested."))
tables.styled(audit.findings_counts(findings, srcs),
              "Table S1. Automated consistency checks: findings per document and check")

# %% [markdown]
# ### What the automated checks found
#
# *Stated* values are quoted as printed; *recomputed* values are derived by the check from other
# stated values of the same document (record ids trace each to its quote in `data/raw`).

# %%
tables.styled(audit.findings_table(findings, srcs), "Table S2. Inconsistencies found by the automated checks",
             {"Document and check": "16%", "Finding (stated values as printed, with locator)": "52%",
              "Recomputed (derived)": "11%", "Records (register entry)": "13%"})

# %% [markdown]
# Notes are not errors: the arithmetic holds, but only in a way a reader should know, e.g. a
# "% difference" computed against the larger of two values, or a saving that holds against one
# configuration only.

# %%
tables.styled(audit.findings_table(findings, srcs, severity="note"), "Table S3. Notes from the automated checks",
             {"Document and check": "16%", "Finding (stated values as printed, with locator)": "52%",
              "Recomputed (derived)": "11%", "Records (register entry)": "13%"})

# %% [markdown]
# ### The curated discrepancy register
#
# `data/raw/discrepancies.csv` holds each discrepancy with both statements (locator, line and
# verbatim quote), an explanation, the resolution (which value this analysis uses, and why) and
# the impact on the comparison. Categories: *contradiction* (two statements disagree),
# *arithmetic* (a computation does not hold), *unsupported-claim*, *ambiguity*,
# *extraction-artifact* (the text extraction garbled a table) and *comparability* (a trap when
# comparing with other vendors).

# %%
tables.styled(audit.register_summary(register, srcs),
              "Table S4. Discrepancy register: entries per document and category")

# %% [markdown]
# The entries below change the numbers this report uses: each sets aside the records it names
# (they stay in `results.csv`, marked `used_in_analysis = False` with the entry's id).

# %%
tables.styled(audit.register_table(register, srcs),
             "Table S5. Register entries that set records aside, and what the analysis uses instead",
             {"Entry": "28%", "Resolution: what the analysis uses": "50%", "Records not used": "14%"})

# %% [markdown]
# ### Headline claims against the vendors' own data
#
# Verdicts: *supported* (the document's data show it), *partly supported* (true for part of the
# claim or only under a condition the claim omits), *not supported* (the document's own data
# contradict it), *not testable* (the document gives no data that could confirm or refute it, e.g.
# a price without prices or a platform that was not tested).

# %%
charts.show(audit.verdict_chart(claims, srcs))

# %%
tables.styled(audit.claims_table(claims, srcs), "Table S6. Headline claims, evidence and verdicts",
             {"Claim": "26%", "Verdict": "9%", "Evidence for": "28%", "Evidence against": "29%"})

# %% [markdown]
# ## Appendix: coverage of the digitized data
#
# Records per document and phase (testbed: facts about the test bed; sizing: targets, rules of
# thumb and workload definitions).

# %%
tables.styled(tables.coverage_table(results), "Table A1. Digitized records per phase and document")
