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
# # Source audit: consistency rules over every document
#
# Vendor white papers contradict themselves. This notebook runs the automated consistency rules of
# `vdi_report.audit` over `data/processed/results.csv` (all sources, every record as stated, used
# in the analysis or not) and writes one row per finding to `data/processed/audit_findings.csv`.
# A fifth document needs no new code: the rules key on the codebook's columns (test, condition,
# variant, configuration, worker class, metric, statistic, vantage, aggregation, window, load), not
# on vendors, and pair only numbers that describe the same thing. Each rule is one module under
# `vdi_report/audit/rules/`, registered with its name, label and description; the list below is
# the registry itself.
#
# Tolerance comes from the printed precision: `441µs` stands for 440.5-441.5 µs, `3.2K` for
# 3,150-3,250, `~12 min` for ±10 %, `< 27%` for 0-27 %. A finding means no reading of the printed
# numbers within those limits makes them agree. What rules cannot find (narrative contradictions,
# swapped labels, unsupported claims) is in the curated register `data/raw/discrepancies.csv`,
# validated here too, together with the claims table `data/raw/claims.csv`.

# %%
import pandas as pd

from vdi_report import audit, catalogue
from vdi_report.raw import facts

pd.set_option("display.max_colwidth", 200)
audit.rules_table()

# %%
results = catalogue.read("results")
register = audit.load_discrepancies()
# test-bed and method facts stated in words (data/raw/facts.csv): the rules compare their statements
statements = facts.load_facts()
findings = audit.run_rules(results, register=register, facts=statements)
catalogue.write("audit_findings", findings)
print(f"{len(findings)} findings over {results['source_id'].nunique()} sources -> {catalogue.path('audit_findings')}")

# %% [markdown]
# Findings per source and rule (`note`: the arithmetic holds, but only with a base or a pair of
# values a reader should know about, e.g. a "% difference" computed against the larger value):

# %%
findings.pivot_table(
    index=["source_id", "rule"], columns="severity", values="finding_id", aggfunc="count", fill_value=0
)

# %%
findings[["finding_id", "source_id", "rule", "severity", "message", "register_ids"]]

# %% [markdown]
# Every inconsistency should be explained by an entry of the curated register (`register_ids`);
# one without is listed here, to be added to `data/raw/discrepancies.csv`:

# %%
findings[(findings["severity"] == "inconsistent") & (findings["register_ids"] == "")][["finding_id", "message"]]

# %% [markdown]
# ## The curated register and the claims table
#
# Both are validated (ids, categories, verdicts, record ids). Records named in a register entry's
# `rejected_records` are marked `used_in_analysis = False` by `02_combine`; the check below
# confirms `results.csv` agrees with the register.

# %%
claims = audit.load_claims()
rejected = audit.resolutions(register)
unused = set(results.loc[~results["used_in_analysis"], "record_id"])
assert set(rejected["record_id"]) <= unused, "results.csv is stale: re-run 02_combine"
print(f"register: {len(register)} entries, {len(rejected)} records set aside; claims: {len(claims)}")
register.groupby(["source_id", "category"]).size().unstack(fill_value=0)

# %% [markdown]
# A verdict must follow from its evidence: *supported* needs evidence for and no register entry
# that refutes the same statement, *not supported* needs evidence against, *partly supported* both.

# %%
problems = audit.check_claim_verdicts(claims, register)
assert not problems, "\n".join(problems)
claims.groupby(["source_id", "verdict"]).size().unstack(fill_value=0)
