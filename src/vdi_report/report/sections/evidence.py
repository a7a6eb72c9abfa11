"""Chapter 2, Evidence: the documents, the headline results per test, comparability, test beds,
the charts and (HTML) the evidence explorer of every digitized number."""

from ... import config
from ...transform import normalize
from .. import charts, explorer, tables
from .. import formatting as fmt
from ..show import figure, fill, heading, html_only, ref, say, table

ORDER = 20  # position in the report (sections/__init__.py)
# the report parameters this chapter uses: none (its outputs are kept between runs, report/chapter_cache.py)
PARAMETERS = ()


def render(ctx) -> None:
    heading(1, "Evidence", "evidence")
    s = ctx.seeds
    say(
        "## The documents\n\nStorage vendors published these {n} reference architectures for VMware Horizon virtual "
        "desktops, each tested with Login VSI. They tested different arrays with different desktop counts, clone "
        "types and workloads, and measured at different vantage points; the tables keep those differences visible "
        "({ref}).",
        n=len(s),
        ref=ref("sources"),
    )
    table(
        tables.sources_table(s),
        "The documents compared",
        "sources",
        {
            "Vendor": "10%",
            "Array": "12%",
            "Document": "38%",
            "Published": "9%",
            "Desktops": "8%",
            "Clone type": "9%",
            "Workload": "14%",
        },
    )
    mixed = s[s["clone_type"] == "mixed"]
    mix_line = (
        ""
        if mixed.empty
        else f" For {mixed['vendor'].iloc[0]}'s mixed pool ({mixed['workload'].iloc[0]}), the division is by all "
        f"{fmt.num(mixed['desktops'].iloc[0])} desktops, the mix kept explicit."
    )
    say(
        "## Headline results per desktop\n\nOne row per test run in normal operation (controller-failover runs "
        "are in the data set and the audit). Per-desktop IOPS are **derived**: the reported IOPS divided by the "
        "desktops of that test.{mix} A sign before a number is the document's own bound: `<` less than, `>` more "
        "than, `≈` about (taken as ± {tol}). *Measured at* is the vantage point the vendor names; numbers from "
        "different vantage points are not directly comparable (the external documents are compared with the model "
        "in the Models chapter, not here); a figure at another vantage than the rest of its "
        "row says so in its cell. Latency reported per user type is shown per type. A value the document states for "
        "the whole phase without naming the test run, or with another statistic, is marked *(phase)*, *(total)* or "
        "*(single value)*. Where a test states its read and write IOPS, the total is their sum *(read + write)*, the "
        "value the model uses (the register prefers it: AccelStor's stated totals exceed their parts); a value the "
        "register sets aside is shown *set aside* with the entry that does. A dash: no document states it. *Source* "
        "gives where the row's numbers are.",
        mix=mix_line,
        tol=fmt.pct(normalize.APPROX_TOLERANCE),
    )
    table(
        # a register id never breaks at its hyphens (a narrow column once printed "(D-" / "ACCS-03)")
        tables.headline_table(ctx.seed_tests, ctx.seed_results, ctx.headline_iops).replace(
            r"\b(D-[A-Z0-9]+-\d+)\b", r'<span class="vdi-id">\1</span>', regex=True
        ),
        "Headline results per test run, normal operation",
        "headline",
        {
            "Vendor": "8%",
            "Test": "10%",
            "Desktops": "8%",
            "Peak IOPS per desktop": "9%",
            "Average IOPS per desktop": "8%",
            "IOPS measured at": "9%",
            "Average latency": "8%",
            "Peak latency": "8%",
            "Latency measured at": "9%",
            "Duration": "8%",
            "Source": "15%",
        },
    )
    say(
        "Only some numbers can be compared across vendors at all: the same phase, metric and statistic measured "
        "at the same vantage point. {ref} lists the groups that two or more vendors report.",
        ref=ref("comparable"),
    )
    table(
        tables.comparability_table(ctx.seed_results), "Cross-vendor comparable groups of reported numbers", "comparable"
    )
    say(
        "## Test beds: desktops per drive and per raw terabyte\n\nDerived from each document's drive count and "
        "drive size (a count and a size stated together in one table row or sentence)."
    )
    table(
        tables.testbed_table(ctx.testbeds[ctx.testbeds["source_id"].isin(s["source_id"])]),
        "Tested arrays: capacity density (derived)",
        "testbeds",
        {
            "Vendor": "11%",
            "Configuration": "12%",
            "Desktops": "8%",
            "Drives": "18%",
            "Raw capacity (derived)": "10%",
            "Desktops per drive (derived)": "10%",
            "Desktops per raw TB (derived)": "10%",
            "Source": "13%",
        },
    )
    say(
        "## IOPS and latency by phase\n\nEach point of {ref_a} is one reported number divided by its test's "
        "desktops, failover runs included; the shape is the vantage point. Array back-end figures include the "
        "array's own internal I/O and sit far to the right: they are not comparable with front-end or host "
        "figures. Hover in the HTML report for the condition, bound and locator of each point.",
        ref_a=ref("per-desktop-iops"),
    )
    figure(
        charts.per_desktop_iops_chart(ctx.seed_results),
        "IOPS per desktop by phase (derived: reported IOPS ÷ desktops of the test). Filled marks: reported values; "
        "open marks with a caret: bounds, the caret pointing towards the true value",
        "per-desktop-iops",
    )
    lat = charts.latency_data(ctx.seed_results)
    r = ctx.seed_results
    n_all = int(((r["metric"] == "latency") & r["used_in_analysis"] & r["phase"].isin(config.PHASE_ORDER)).sum())
    lt = lat[lat["bound"] == "lt"]
    figure(
        charts.latency_chart(ctx.seed_results),
        fill(
            "Reported storage latency by phase, normal condition only (all controllers up; {n_left} left out). {marks} "
            "Vantages differ ({vantages}): latency at the host includes the path to the array; the tooltip names each "
            "point's vantage.",
            n_left=(
                fill("{n} failover or degraded records", n=fmt.num(n_all - len(lat))) if n_all > len(lat) else "none"
            ),
            marks=(
                "Filled marks: reported values; open marks: bounds, drawn at the bound with a caret towards the "
                "true value ("
                + fill("“< {v} ms” means at most that: caret to the left", v=f"{lt['value'].min():g}")
                + ")."
                if len(lt)
                else "Filled marks: reported values."
            ),
            vantages=", ".join(sorted(set(lat["vantage"]))),
        ),
        "latency",
    )
    say("## Evidence explorer")
    ev = explorer.evidence_table(ctx)
    html_only(explorer.explorer_html(ev), fmt_note(len(ev), ctx.results["source_id"].nunique()))


def fmt_note(n: int, n_documents: int) -> str:
    from ..show import fill

    return fill(
        "The HTML report lists all {n} digitized numbers of the {k} documents in a searchable, filterable "
        "table: vendor, test, phase, metric, the value as printed and normalized, vantage, locator, line, "
        "the verbatim quote, and whether the analysis uses it (and if not, why).",
        n=fmt.num(n),
        k=fmt.num(n_documents),
    )
