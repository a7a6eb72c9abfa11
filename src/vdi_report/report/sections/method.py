"""Chapter 3, Method: how the numbers were digitized, normalized and made comparable."""

from ...transform import normalize
from .. import formatting as fmt
from ..show import heading, say

ORDER = 30  # position in the report (sections/__init__.py)
# the report parameters this chapter uses: none (its outputs are kept between runs, report/chapter_cache.py)
PARAMETERS = ()


def render(ctx) -> None:
    heading(1, "Method", "method")
    r = ctx.results
    vant = ctx.vocabulary["vantage"]
    seed = r["source_id"].isin(ctx.seeds["source_id"])
    say(
        "## From a vendor's page to a table row\n\nEvery number in the {n_docs} documents was typed by hand into "
        "one row of `data/raw/records/<document>.csv`: its locator (table, figure or section), the line of the text "
        "extraction it starts on, a verbatim quote and the value exactly as printed with its exactness (exact, about, "
        "less than, more than). A test checks every quote against the document's text, whose SHA-256 is recorded "
        "in `data/raw/sources.csv` and in the colophon. {n} numbers were digitized, {n_seed} from these documents "
        "and {n_ext} from the {n_ext_docs} external documents of the out-of-sample check; {n_used} are used by the "
        "analysis, the others set aside by the audit register (each with the reason, see the evidence explorer of "
        "the HTML report).",
        n_docs=len(ctx.seeds),
        n=fmt.num(len(r)),
        n_seed=fmt.num(int(seed.sum())),
        n_ext=fmt.num(int((~seed).sum())),
        n_ext_docs=fmt.num(r.loc[~seed, "source_id"].nunique()),
        n_used=fmt.num(int(r["used_in_analysis"].sum())),
    )
    say(
        "## Normalization\n\nUnits become IOPS, ms, MB/s, minutes, seconds, %, GB and count (KB for I/O sizes, "
        "binary; throughput and capacity decimal, as the arrays print them). Bounds become intervals: *less than v* "
        "runs from zero to v, *more than v* from v up, *about v* is v ± {tol}, a printed range keeps both ends. "
        "Per-desktop "
        "figures are **derived** (reported total ÷ desktops of the test) and kept in their own columns; a reported "
        "per-desktop figure is never overwritten.",
        tol=fmt.pct(normalize.APPROX_TOLERANCE),
    )
    say(
        "## Where a number was measured\n\nThe same workload gives different IOPS and latency at different points "
        "of the I/O path, so each number carries the vantage the document names or clearly implies:\n\n{items}\n\n"
        "Numbers are compared across vendors only within the same phase, metric, statistic and vantage.",
        items="\n".join(f"- **{v['label']}**: {v['definition']}" for v in vant),
    )
    say(
        "## Reported, derived, model, assumed\n\nEvery column header of every table says which kind of number it "
        "holds: *reported* (printed in a vendor document), *derived* (arithmetic on reported numbers), *model* "
        "(fitted or extrapolated here) or *assumed* (the cost assumptions, each with its rationale). The report's "
        "prose takes every number from the processed data; none is typed."
    )
