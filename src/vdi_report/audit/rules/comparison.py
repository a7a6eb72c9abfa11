"""Rule ``comparison``: a stated % difference or multiple is not reproduced (or only with another base)."""

from __future__ import annotations

import itertools
import re

import pandas as pd

from ..common import COMPARISONS, finding, fmt, overlap
from ..registry import rule

INCREASE_WORDS = re.compile(r"increas|growth|grow|more|higher|faster|gain|times|\bx\d", re.IGNORECASE)
DECREASE_WORDS = re.compile(r"sav|reduc|less|fewer|lower|decreas|cut|drop", re.IGNORECASE)


def _pairs_at(df: pd.DataFrame, comp: pd.Series) -> list[tuple[pd.Series, pd.Series]]:
    """Candidate compared pairs for a stated comparison: two records at the same locator with the
    same metric, statistic and unit that differ in test, configuration or worker class."""
    same = df[
        (df["source_id"] == comp["source_id"])
        & (df["locator"] == comp["locator"])
        & ~df["metric"].isin(list(COMPARISONS))
    ]
    pairs = []
    for _, g in same.groupby(["metric", "statistic", "unit"], sort=False):
        g = g.drop_duplicates(["test_id", "configuration", "worker_class", "value"])
        for (_, a), (_, b) in itertools.combinations(g.iterrows(), 2):
            ka = (a["test_id"], a["configuration"], a["worker_class"])
            kb = (b["test_id"], b["configuration"], b["worker_class"])
            if ka != kb and a["value"] != b["value"]:
                pairs.append((a, b))
    pairs.sort(key=lambda p: min(p[0]["record_id"], p[1]["record_id"]))
    return pairs


def _recompute(kind: str, a: pd.Series, b: pd.Series) -> dict[str, tuple[float, float, float]]:
    """Recomputed comparison of ``a`` and ``b`` with each base: name -> (value, low, high).

    ``percent``: ``|a-b| / smaller`` ("increase" convention) and ``|a-b| / larger`` ("decrease");
    ``ratio``: larger / smaller. Low and high span the inputs' printed-precision intervals."""
    (sm, lg) = (a, b) if a["value"] <= b["value"] else (b, a)
    corners_s = [max(sm["lo"], 1e-12), sm["hi"]]
    corners_l = [lg["lo"], lg["hi"]]

    def span(f):
        vals = [f(s, l_) for s in corners_s for l_ in corners_l if s > 0 and l_ > 0]
        return f(sm["value"], lg["value"]), min(vals), max(vals)

    if kind == "ratio":
        return {"larger / smaller": span(lambda s, l_: l_ / s)}
    return {"smaller": span(lambda s, l_: abs(l_ - s) / s * 100), "larger": span(lambda s, l_: abs(l_ - s) / l_ * 100)}


def _label(r: pd.Series) -> str:
    name = r["configuration"] or r["test_id"] or r["worker_class"] or r["record_id"]
    return f"{name} {r['value_text']}"


@rule(
    40,
    "comparison",
    "% difference / multiple",
    "a stated % difference or multiple is not reproduced (or only with another base)",
)
def rule_comparison(df: pd.DataFrame) -> list[dict]:  # noqa: C901  (one branch per comparison kind)
    """Stated % differences and multiples (``COMPARISONS``) against the values they compare.

    The compared pair is found at the same locator (``_pairs_at``); when a table row states as
    many comparisons as there are pairs, they are matched in column order, otherwise every pair
    is tried. A statement with no pair of its own borrows the pair of an identical statement of
    the same source, or of a comparison on the same line. The quote's wording sets the expected
    base: "increase/growth/more/times" -> the smaller value, "save/reduce/less/fewer" -> the
    larger. Findings: not reproduced by any base (inconsistent); reproduced only with the other
    base (inconsistent); reproduced with one base where the wording names none, or only by some
    of several candidate pairs (note)."""
    comps = df[df["metric"].isin(list(COMPARISONS))].sort_values("record_id")
    matched: dict[str, list[tuple[pd.Series, pd.Series]]] = {}
    # 1) pairs at the same locator, in column order when counts agree
    for _, loc_comps in comps.groupby(["source_id", "locator", "line"], sort=True):
        pairs = _pairs_at(df, loc_comps.iloc[0])
        if not pairs:
            continue
        if len(pairs) == len(loc_comps):
            for (_, c), p in zip(loc_comps.iterrows(), pairs):
                matched[c["record_id"]] = [p]
        else:
            for _, c in loc_comps.iterrows():
                matched[c["record_id"]] = pairs
    # 2) borrow: same stated value (same kind) elsewhere in the source, or same line
    for _, c in comps.iterrows():
        if c["record_id"] in matched:
            continue
        kind = COMPARISONS[c["metric"]]
        donors = comps[(comps["source_id"] == c["source_id"]) & comps["record_id"].isin(list(matched))]
        same_val = donors[(donors["metric"].map(COMPARISONS) == kind) & (donors["value"] == c["value"])]
        same_line = donors[donors["line"] == c["line"]]
        for cand in (same_val, same_line):
            if len(cand):
                matched[c["record_id"]] = matched[cand.iloc[0]["record_id"]]
                break
    out = []
    for _, c in comps.iterrows():
        pairs = matched.get(c["record_id"])
        if not pairs:
            continue
        kind = COMPARISONS[c["metric"]]
        q = c["quote"]
        expected = None
        if kind == "percent":
            if DECREASE_WORDS.search(q):
                expected = "larger"
            elif INCREASE_WORDS.search(q):
                expected = "smaller"
        results = []
        for a, b in pairs:
            rec = _recompute(kind, a, b)
            hits = [name for name, (_, lo, hi) in rec.items() if overlap((lo, hi), (c["lo"], c["hi"]))]
            results.append((a, b, rec, hits))
        good = [r for r in results if (expected in r[3] if expected else r[3])]
        stated = f"{c['value_text']} ({c['locator']}, line {int(c['line'])})"

        def describe(a, b, rec, kind=kind):
            sm, lg = (a, b) if a["value"] <= b["value"] else (b, a)
            if kind == "ratio":
                return f"{_label(lg)} / {_label(sm)} = {fmt(rec['larger / smaller'][0])}x"
            return (
                f"{_label(sm)} vs {_label(lg)}: {fmt(rec['smaller'][0])} % of the smaller, "
                f"{fmt(rec['larger'][0])} % of the larger"
            )

        if not good:
            any_hit = [r for r in results if r[3]]
            if any_hit:
                a, b, rec, hits = any_hit[0]
                base = "larger" if "larger" in hits else "smaller"
                msg = (
                    f"{stated} is worded as {'a decrease' if expected == 'larger' else 'an increase'} but is "
                    f"reproduced only against the {base} value: {describe(a, b, rec)}."
                )
            else:
                a, b, rec, _ = results[0]
                msg = (
                    f"{stated} is not reproduced by the values it compares: "
                    + "; ".join(describe(a, b, rec) for a, b, rec, _ in results)
                    + "."
                )
            recs = pd.concat([c.to_frame().T, a.to_frame().T, b.to_frame().T])
            val = rec.get(expected or "", next(iter(rec.values())))[0]
            out.append(finding("comparison", recs, msg, stated=c["value"], recomputed=val))
            continue
        a, b, rec, hits = good[0]
        recs = pd.concat([c.to_frame().T, a.to_frame().T, b.to_frame().T])
        if expected is None and kind == "percent" and len(hits) == 1:
            out.append(
                finding(
                    "comparison",
                    recs,
                    f"{stated} does not say its base; it is {describe(a, b, rec)}, so it is "
                    f"computed against the {hits[0]} value.",
                    severity="note",
                    stated=c["value"],
                    recomputed=rec[hits[0]][0],
                )
            )
        elif kind == "percent" and len(results) > 1 and len(good) < len(results):
            others = [describe(x, y, r) for x, y, r, h in results if not any(r is g[2] for g in good)]
            out.append(
                finding(
                    "comparison",
                    recs,
                    f"{stated} holds only for {describe(a, b, rec)}; other stated pairs give "
                    + "; ".join(others)
                    + ".",
                    severity="note",
                    stated=c["value"],
                    recomputed=rec[expected or hits[0]][0],
                )
            )
    return out
