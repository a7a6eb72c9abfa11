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
concurrency = 1.0  # sizing scenario: fraction of desktops active at once
headroom = 0.2  # sizing scenario: fraction of each resource kept free
boot_window_min = 30  # sizing scenario: minutes to boot all concurrently needed desktops
raid = "none"  # sizing scenario: none, raid10, raid5, raid6 (write penalty 1, 2, 4, 6)
failover = "none"  # sizing scenario: none, or controller (sized with one controller down)
cost_file = ""  # cost assumptions CSV; empty: data/raw/cost_assumptions.csv

# %%
import datetime

import pandas as pd
from IPython.display import Markdown, display

from vdi_report import charts, config, files, normalize, sources, tables

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
different vantage points are not directly comparable; a figure at another vantage than the rest of its
row says so in its cell. Latency reported per user type (storage ports serving each) is shown per type.
A value the document states for the whole phase without naming the test run, or with another
statistic, is marked "(phase)", "(total)" or "(single value)". A dash: the document does not state it.
"Source" gives where in the document the row's numbers are."""))

# %%
tables.styled(tables.headline_table(tests, results), "Table 2. Headline results per test run, normal operation")

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

params = scenario.validate(desktops, worker_class, concurrency, headroom, boot_window_min, raid, failover)
assumptions = cost.load_assumptions(cost_file or config.RAW_DIR / "cost_assumptions.csv")
P = config.PROCESSED_DIR
pred = pd.read_csv(P / "iops_per_desktop_model.csv", keep_default_na=False, na_values=[""])
by_vendor = pd.read_csv(P / "iops_model_cv_by_vendor.csv")
cv = pd.read_csv(P / "iops_model_cv.csv")
coefs = pd.read_csv(P / "iops_model_coefficients.csv")
specs = pd.read_csv(P / "iops_model_specs.csv")
obs = pd.read_csv(P / "iops_model_observations.csv", keep_default_na=False)
excl = pd.read_csv(P / "iops_model_exclusions.csv", keep_default_na=False)
ext = pd.read_csv(P / "iops_model_external.csv", keep_default_na=False)
storms = pd.read_csv(P / "boot_storms.csv", keep_default_na=False, na_values=[""])
boot_model = pred[pred["phase"] == "boot"]
inputs = scenario.read_inputs(P / "sizing_inputs.json")

# %% [markdown]
# ## IOPS per desktop: what the documents can tell a planner
#
# Each per-desktop figure says what it aggregates (an array or host total divided by the test's
# desktops, or a sample of single desktops), over what window (a phase, or a whole test spanning
# login and steady state), at what vantage and under what load (a standard Login VSI workload or a
# boosted one). The model (statsmodels OLS on the logarithm) uses like with like: the login peak,
# the steady-state average and the average over a whole test are separate cells. Boot storms are
# modelled by boot rate (next section). The specification is chosen by the criteria computed in
# notebook `04_iops_model` (held-out predictions, leave-one-vendor-out error, AIC).

# %%
chosen = pred.loc[pred["phase"] != "boot", "spec"].iloc[0]
pooled = (pred["worker_class"] == "any").all()
display(Markdown(
    f"The criteria choose the **{chosen}** specification. "
    + (f"It pools the worker classes ({iops.class_vendors(obs)}): the class effect cannot be separated from the vendor "
       "effect, and the table below has one row per phase for every class (`any`)."
       if pooled else "It estimates a worker-class effect.")
    + f" It rests on {len(obs)} observations from {obs['vendor'].nunique()} documents; {excl['record_id'].nunique()} records are left out, "
    "each with its reason (Table M0)."))
tables.styled(mtables.prediction_table(pred), "Table M1. Planning table: IOPS per desktop (model, 90 % interval), boot-rate model, read share, I/O size, latency")

# %%
tables.styled(mtables.context_table(iops.observation_context(obs, storms.assign(
    peak_iops_per_rate=pd.to_numeric(storms["peak_iops_per_rate"])), srcs)),
    "Table M1b. What each observation was measured with: Login VSI version, guest OS, clone type, broker")

# %%
tables.styled(mtables.exclusions_table(excl), "Table M0. Records the model leaves out, and why")

# %%
charts.show(iops.prediction_chart(pred[pred["phase"] != "boot"], obs))

# %%
tables.styled(mtables.coefficient_table(coefs), "Table M2. Model coefficients (IOPS per desktop per cell, 95 % CI)")

# %% [markdown]
# ### Validation: leave one vendor out, per vendor
#
# Each vendor's figures are predicted by the model fitted to the other vendors only. Per held-out
# vendor: the error factor, how many observations fell inside the 90 % interval, and the
# interval's sharpness (median ratio of its ends). There is no all-vendor figure: pooled, it
# would hide intervals too wide to guide a purchase.

# %%
display(Markdown("\n".join(
    f"- **{r.held_out}**: " + (f"{r.n_predicted} of {r.n_obs} observations predictable; typical error factor "
                             f"{r.median_error_factor:.2f}; {r.n_covered} of {r.n_predicted} inside the 90 % interval; "
                             f"interval ends {r.sharpness:.1f}× apart" + (" (too wide to inform a purchase)" if r.vacuous else "")
                             if r.n_predicted else f"none of its {r.n_obs} observations can be predicted from the other vendors "
                             "(a cell only it reports, or too few observations left)")
    for r in by_vendor.itertuples())))
tables.styled(mtables.cv_table(by_vendor), "Table M3. Leave-one-vendor-out validation, per held-out vendor")

# %% [markdown]
# ### Out of sample: the external documents
#
# Later documents (`role = external` in `sources.csv`) are never fitted; the seed model predicts
# their figures, labelled by what differs (broker, load tool, guest OS, platform).

# %%
ext_boot = pd.read_csv(P / "boot_external.csv", keep_default_na=False, na_values=[""])
if len(ext):
    exact = ext[ext["bound"] != "lt"]
    display(Markdown(
        f"{len(ext)} external figures from {ext['source_id'].nunique()} documents ({', '.join(sorted(set(ext['load_tool'])))}; "
        f"{', '.join(sorted(set(ext['guest_os'])))}). Of the {len(exact)} exact ones, {int(exact['covered'].astype(str).eq('True').sum())} "
        f"fall inside the seed model's 90 % interval; observed / predicted runs from {exact['ratio'].astype(float).min():.1f}× to "
        f"{exact['ratio'].astype(float).max():.1f}×. Upper bounds (a sum of separate read and write peaks) are marked. Later "
        "documents with another load tool and guest OS sit far above the 2016–2018 seeds: the planning table describes the "
        "seeds' era, not today's desktops."))
    display(tables.styled(mtables.external_table(ext.assign(**{c: ext[c].astype(float) for c in ("observed", "predicted", "pi90_low", "pi90_high", "ratio")},
                                                            covered=ext["covered"].astype(str).eq("True"))),
                          "Table M3b. External documents predicted by the seed model"))
else:
    display(Markdown("No external document has a usable per-desktop observation yet, so there is no out-of-sample check."))
if len(ext_boot):
    display(Markdown("Boot storms of the external documents against the seeds' boot-rate model: " + "; ".join(
        f"{r.source_id} {r.statistic.replace('_', ' ')} {r.observed:,.0f} ({r.bound}; seeds {r.low:,.0f}–{r.high:,.0f}): {r.inside}"
        for r in ext_boot.itertuples()) + "."))

# %% [markdown]
# ## Boot storms by rate
#
# A boot storm's peak is set by how fast desktops are booted, not by the desktop alone. Per
# document: the boot rate (desktops ÷ boot duration), the I/O one desktop boot costs (average
# IOPS × duration ÷ desktops; an upper bound where only a peak is given) and the peak IOPS per
# desktop booted per minute. The sizing scenario multiplies the last by its boot rate.

# %%
tables.styled(mtables.boot_table(storms), "Table M4a. Boot storms: rate, I/O per desktop boot, peak IOPS per desktop/min")

# %%
from vdi_report.models import boot as boot_mod  # noqa: E402
charts.show(boot_mod.demand_chart(boot_model, storms.assign(
    **{c: pd.to_numeric(storms[c]) for c in ("boot_rate_per_min", "peak_iops", "average_iops")}),
    scenario_rate=params["desktops"] * params["concurrency"] / params["boot_window_min"]))

# %% [markdown]
# ### The rules of thumb the documents quote
#
# Each rule is set beside the model's steady-state average (pooled over classes where the model
# cannot separate them). Rules are reported values, and the model never uses them as data.

# %%
rules = iops.rules_of_thumb(results, pred)
tables.styled(mtables.rules_table(rules), "Table M4. Quoted IOPS-per-desktop rules against the model")

# %%
tables.styled(mtables.io_profile_table(iops.io_profile(results)), "Table M4b. Read share and implied I/O size per test (derived)")

# %% [markdown]
# ## Density: demonstrated before extrapolated
#
# For each tested array and configuration: what it demonstrably carried (desktops, with both
# controllers and with one down), the busiest resource it reported, and only then what the
# figures allow beyond the test. Controller CPU (array CPU, Hitachi MPU) is extrapolated under a
# stated scaling law (a resource at *u* % with *d* desktops saturates at *d* × 100 / *u*; an
# assumption: controller load need not grow linearly). Port bandwidth gives a limit from link
# speed × ports. Nothing is extrapolated from a figure at 95 % or more (the test already reached a
# limit), from disk or flash-module busy % (not proportional to desktops), or from a statement the
# claims table rates *not testable*. A peak maximum is never above the average-based one. A boot
# storm at a limit limits the boot rate, not the number of desktops (see the boot-rate section).

# %%
dens = density.read(P / "density.csv")
summ = pd.read_csv(P / "density_summary.csv", keep_default_na=False, na_values=[""])
tables.styled(mtables.density_table(summ), "Table M5. Density per array: demonstrated, busiest resource, extrapolated only where it scales")

# %%
display(Markdown("\n".join("- " + t for t in density.summary_sentences(summ))))

# %% [markdown]
# ## Cost per desktop
#
# No document states an array price, and the audit register sets every vendor $-per-desktop claim
# aside. Each claim is shown with every reading its document allows and what each reading
# implies; cost per desktop is computed only from array prices stated in the assumptions file
# (`data/raw/cost_assumptions.csv`, or `COST_FILE`), each with its scope.

# %%
tables.styled(mtables.assumptions_table(assumptions), "Table M6. Cost assumptions (all assumed, with their scope)")

# %%
readings = pd.read_csv(P / "cost_readings.csv", keep_default_na=False, na_values=[""])
tables.styled(mtables.readings_table(readings), "Table M7. The vendors' $ per desktop claims: each reading and its consequence")

# %%
per_desktop = pd.read_csv(P / "cost.csv", keep_default_na=False, na_values=[""])
if len(per_desktop):
    display(tables.styled(mtables.cost_table(per_desktop), "Table M8. Cost per desktop from assumed array prices"))
else:
    display(Markdown("No array price is assumed, so no cost per desktop is computed: a price enters only as a row "
                     f"`{cost.ARRAY_PRICE_PREFIX}<source_id>` of the assumptions file, with its scope and rationale."))

# %% [markdown]
# ### Tiered configurations: flash modules saved, HDDs included
#
# A document that compares drive counts of configurations that replace flash modules (FMD) with
# HDDs saves flash modules, but the HDDs cost money too. Counting them at an assumed HDD/FMD
# price ratio (drives only):

# %%
drives = cost.drive_mix(results)
if len(drives):
    ratio = cost.values(assumptions)["hdd_to_fmd_price_ratio"]
    tiered = cost.tiered_configuration(drives)
    sav = [cost.tiering_saving(drives, ratio, ref, tiered) for ref in drives["configuration"] if ref != tiered]
    d = drives.set_index("configuration")
    display(Markdown(", ".join(f"{c}: {d.at[c, 'fmd']:.0f} FMD + {d.at[c, 'hdd']:.0f} HDD" for c in d.index) + " (reported). " + " ".join(
        f"{s['tiered']} against {s['reference']}: {s['claimed_fmd_only']:.0%} fewer FMDs, "
        f"a {s['with_hdds']:.0%} drive-cost saving with the HDDs at {ratio:g} × an FMD's price (assumed), "
        f"and no saving at all if an HDD costs {s['break_even_ratio']:.2f} × an FMD or more." for s in sav)
        + " Shelves, power and the tiering licence are not counted."))
    charts.show(cost.saving_curve(drives, assumptions))

# %% [markdown]
# ## Sizing scenario

# %%
sizing = scenario.size(params, inputs)
config.REPORTS_DIR.mkdir(parents=True, exist_ok=True)
files.write_csv(sizing, config.REPORTS_DIR / "sizing_scenario.csv")
display(Markdown(
    f"**{params['desktops']:,} {params['worker_class']} desktops, {params['concurrency']:.0%} active at once, "
    f"{params['headroom']:.0%} headroom, all booted within {params['boot_window_min']:g} minutes, {params['raid']} "
    f"(write penalty {inputs['write_penalty'][params['raid']]}), failover: {params['failover']}** (report parameters `DESKTOPS`, "
    "`WORKER`, `CONCURRENCY`, `HEADROOM`, `BOOT_WINDOW`, `RAID`, `FAILOVER`). Active desktops = desktops × concurrency; "
    "login and steady state: active × IOPS per desktop; boot: (active ÷ boot window) × peak IOPS per desktop booted per "
    "minute; everything ÷ (1 − headroom); back end = front end × (read share + (1 − read share) × write penalty); "
    "throughput = front end × I/O size. Written to `reports/sizing_scenario.csv`."))
tables.styled(mtables.sizing_table(sizing), "Table M9. Sizing scenario per phase")

# %%
ext_cov = ext["covered"].astype(str).eq("True") if len(ext) else pd.Series(dtype=bool)
display(Markdown(
    "**Validation in brief.** Leave one vendor out: " + "; ".join(
        f"{r.held_out} {r.n_covered} of {r.n_predicted} inside the 90 % interval, typical error ×{r.median_error_factor:.2f}, "
        f"interval ends {r.sharpness:.1f}× apart" if r.n_predicted else f"{r.held_out} not predictable from the others"
        for r in by_vendor.itertuples()) + ". "
    + (f"External documents: {int(ext_cov.sum())} of {len(ext)} figures consistent with the seed model's interval "
       f"({int((ext['bound'] == 'lt').sum())} of them upper bounds); observed / predicted {ext['ratio'].astype(float).min():.1f}× to "
       f"{ext['ratio'].astype(float).max():.1f}×."
       if len(ext) else "External documents: none with a usable observation yet.")))

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
