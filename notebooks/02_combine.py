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
# # Combine the sources
#
# Stacks the normalized sources into `data/processed/results.csv` (one row per reported number)
# and derives `data/processed/tests.csv` (one row per test run with its headline metrics) and
# `data/processed/testbeds.csv` (drives, raw capacity and desktops per drive of each tested array).
# A record is *comparable* across vendors when it states its vantage and another vendor reports
# the same phase, metric, statistic and vantage.
#
# The source audit's curated register (`data/raw/discrepancies.csv`) resolves contradictions in
# the documents: the records it names in `rejected_records` stay in `results.csv` but are marked
# `used_in_analysis = False`, with the register entry and its resolution in `resolution`.

# %%
from vdi_report import catalogue
from vdi_report.raw import registers, sources
from vdi_report.transform import normalize

srcs = sources.load_sources()
frames = [catalogue.read("normalized", source_id=s) for s in srcs["source_id"]]
resolutions = registers.resolutions(registers.load_discrepancies())
results = normalize.combine(frames, resolutions)
tests = normalize.build_tests(results, srcs)
catalogue.write("results", results)
catalogue.write("tests", tests)
catalogue.write("testbeds", normalize.build_testbeds(results, srcs))
print(
    f"results.csv: {len(results)} records ({(~results['used_in_analysis']).sum()} set aside by the "
    f"audit register); tests.csv: {len(tests)} tests"
)

# %%
results.groupby(["vendor", "comparable"]).size().unstack(fill_value=0)
