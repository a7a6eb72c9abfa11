"""Source audit: consistency rules over the normalized data, and the curated registers.

Two halves:

1. **Automated rules** (``run_rules``) read ``data/processed/results.csv`` (every source, so a
   fifth document is audited without new code) and return one row per finding, written to
   ``data/processed/audit_findings.csv`` (columns ``FINDING_COLUMNS``). Each rule compares
   numbers the documents *state*; nothing here changes a value.
2. **Curated registers** (``load_discrepancies``, ``load_claims``): what the rules cannot find
   (narrative contradictions, swapped labels, unsupported claims), written by hand in
   ``data/raw/discrepancies.csv`` and ``data/raw/claims.csv`` and validated here.
   ``resolutions`` turns the register into the records the analysis does not use.

Tolerance comes from the printed precision. A value printed ``441µs`` stands for 440.5-441.5 µs,
``3.2K`` for 3,150-3,250, ``~12 min`` for 12 min +/- ``normalize.APPROX_TOLERANCE`` (10 %),
``< 27%`` for 0-27 %. Two statements disagree only when these intervals cannot overlap, and a
computed figure (a sum, a product, a ratio) disagrees only when no choice of inputs inside their
intervals reproduces the stated one. So rounding never raises a finding.
"""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd

from . import config, provenance, sources

# --------------------------------------------------------------------------------------------
# Findings table
# --------------------------------------------------------------------------------------------

FINDING_COLUMNS = [
    "finding_id", "rule", "severity", "source_id", "test_id", "metric", "record_ids", "locators",
    "lines", "values", "quotes", "stated", "recomputed", "unit", "message", "register_ids",
]
# Rules in the order they run and appear; each maps to a one-line description for the report.
RULES = {
    "same_quantity": "the same quantity stated with different values at different locators",
    "read_write_total": "read + write does not give the stated total",
    "per_desktop": "a stated per-desktop figure is not total / desktops of the test",
    "comparison": "a stated % difference or multiple is not reproduced (or only with another base)",
    "shares_sum": "shares that should add up to 100 % do not",
    "capacity": "drive count x drive size does not give the stated raw/usable capacity",
    "count_product": "servers x VMs per server (or pools x desktops per pool, ...) is not the stated total",
    "average_above_peak": "an average is larger than the peak of the same series",
}
SEVERITIES = ("inconsistent", "note")  # note: arithmetic holds, but only with a base or pair worth knowing

# Statements about a test run; "testbed" facts and general statements are matched only by the
# rules that need them (capacity, count_product).
TEST_FREE = ("", "testbed")
KEY = ["source_id", "phase", "test_id", "condition", "variant", "configuration", "worker_class", "metric",
       "statistic", "vantage"]

# read_x + write_x = x
READ_WRITE = {"iops": ("read_iops", "write_iops"), "throughput": ("read_throughput", "write_throughput")}
# stated per-desktop metric -> total metric
PER_DESKTOP = {"iops_per_desktop": "iops", "used_capacity_per_desktop": "used_capacity",
               "capacity_per_desktop": "used_capacity"}
# stated comparisons: metric -> "percent" (a % difference) or "ratio" (a multiple)
COMPARISONS = {"percent_difference": "percent", "cost_saving": "percent", "iops_ratio": "ratio",
               "relative_iops": "ratio"}
INCREASE_WORDS = re.compile(r"increas|growth|grow|more|higher|faster|gain|times|\bx\d", re.IGNORECASE)
DECREASE_WORDS = re.compile(r"sav|reduc|less|fewer|lower|decreas|cut|drop", re.IGNORECASE)
# groups of shares that add up to 100 %: (name, metrics, rows grouped by line or by table)
SHARES = [
    ("read/write split", ("read_percent", "write_percent"), "line"),
    ("random/sequential split", ("seek_percent", "sequential_percent"), "line"),
    ("random/sequential x read/write split", ("random_read_percent", "random_write_percent",
                                             "sequential_read_percent", "sequential_write_percent"), "line"),
    ("workload profile by I/O size", ("workload_percent",), "table"),
]
# count x per-unit = total
COUNT_PRODUCTS = [
    ("hosts", "desktops_per_host", "desktops"),
    ("management_servers", "desktops_per_management_server", "desktops"),
    ("pools", "desktops_per_pool", "desktops"),
    ("datastores", "desktops_per_datastore", "desktops"),
    ("datastores", "vms_per_lun", "desktops"),
    ("volumes", "desktops_per_volume", "desktops"),
    ("launchers", "sessions_per_launcher", "sessions"),
]
DRIVE_COUNTS = ("drives", "active_drives")
DRIVE_SIZES = ("drive_capacity", "drive_usable_capacity")
# average of the component (key) cannot exceed the peak of the series (value) either
SERIES_PARENT = {"read_iops": "iops", "write_iops": "iops", "read_throughput": "throughput",
                 "write_throughput": "throughput"}

_NUM = re.compile(r"\d[\d,]*(?:\.\d+)?|\.\d+")


# --------------------------------------------------------------------------------------------
# Printed precision and intervals
# --------------------------------------------------------------------------------------------

def printed_half_step(value_text: str, reported_value: float) -> float:
    """Half of the last printed digit of ``reported_value`` as it appears in ``value_text``, in the
    printed unit: ``441µs`` -> 0.5, ``3.2K`` -> 0.05, ``0.59ms`` -> 0.005, ``216,000`` -> 0.5.

    The printed token is the number in ``value_text`` equal to ``reported_value`` (thousands
    commas removed, or a decimal comma as in ``8,1``); without one, the shortest decimal form of
    ``reported_value`` decides. Never raises; returns 0.5 for an integer.
    """
    for tok in _NUM.findall(str(value_text)):
        plain = tok.replace(",", "")
        for cand in (plain, tok.replace(",", ".") if tok.count(",") == 1 else None):
            if cand is None:
                continue
            try:
                if math.isclose(float(cand), float(reported_value), rel_tol=1e-9, abs_tol=1e-12):
                    decimals = len(cand.split(".")[1]) if "." in cand else 0
                    return 0.5 * 10 ** -decimals
            except ValueError:
                continue
    s = repr(float(reported_value))
    decimals = 0 if s.endswith(".0") or "." not in s or "e" in s else len(s.split(".")[1])
    return 0.5 * 10 ** -decimals


def intervals(df: pd.DataFrame) -> pd.DataFrame:
    """Add ``lo``, ``hi`` (normalized unit) and ``step`` to records of ``results.csv``.

    ``[lo, hi]`` is every true value the printed statement allows: the interval of the bound
    (``value_low``/``value_high``, see ``normalize.interval``) widened by half the last printed
    digit, except on the open side of ``<`` (low end 0) and ``>`` (high end unbounded or 100 %)
    and for ``~`` (whose +/-10 % already covers the rounding).
    ``step`` is that half digit in the normalized unit. Input columns: ``value, value_low,
    value_high, reported_value, value_text, bound``.
    """
    out = df.copy()
    half = [printed_half_step(t, v) for t, v in zip(out["value_text"], out["reported_value"])]
    factor = np.where(out["reported_value"].abs() > 0, out["value"] / out["reported_value"].replace(0, np.nan), 1.0)
    factor = np.nan_to_num(factor, nan=1.0)
    out["step"] = np.asarray(half) * np.abs(factor)
    widen = np.where(out["bound"] == "approx", 0.0, out["step"])  # "~" already spans +/-10 %
    out["lo"] = np.where(out["bound"] == "lt", out["value_low"], out["value_low"] - widen)
    out["hi"] = np.where(out["bound"] == "gt", out["value_high"], out["value_high"] + widen)
    return out


def _overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] <= b[1] + 1e-9 and b[0] <= a[1] + 1e-9


# --------------------------------------------------------------------------------------------
# Helpers to describe records in findings
# --------------------------------------------------------------------------------------------

def _fmt(x: float) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "inf" if x == math.inf else ""
    if abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:.4g}"


def _finding(rule: str, recs: pd.DataFrame, message: str, *, severity: str = "inconsistent",
             stated: float = np.nan, recomputed: float = np.nan, unit: str = "") -> dict:
    recs = recs.drop_duplicates("record_id")
    first = recs.iloc[0]
    return {
        "rule": rule, "severity": severity, "source_id": first["source_id"],
        "test_id": " ".join(dict.fromkeys(t for t in recs["test_id"] if t)),
        "metric": " ".join(dict.fromkeys(recs["metric"])),
        "record_ids": " ".join(recs["record_id"]),
        "locators": " | ".join(recs["locator"]),
        "lines": " ".join(str(int(x)) for x in recs["line"]),
        "values": " | ".join(recs["value_text"]),
        "quotes": " | ".join(recs["quote"]),
        "stated": stated, "recomputed": recomputed, "unit": unit or first["unit"], "message": message,
    }


def _what(r) -> str:
    """``average read iops``: statistic (unless a single value) and metric in words."""
    stat = "" if r["statistic"] == "single" else f"{r['statistic']} "
    return f"{stat}{r['metric'].replace('_', ' ')}"


def _where(r) -> str:
    return f"{r['value_text']} ({r['locator']}, line {int(r['line'])})"


# --------------------------------------------------------------------------------------------
# Rules. Each takes the records with intervals (``intervals(results)``) and returns a list of
# finding dicts (``FINDING_COLUMNS`` minus ``finding_id``).
# --------------------------------------------------------------------------------------------

def rule_same_quantity(df: pd.DataFrame) -> list[dict]:
    """The same quantity (``KEY``: source, phase, test, condition, variant, configuration,
    worker class, metric, statistic, vantage) stated at two locators with values whose intervals
    cannot overlap. One finding per quantity, listing all its records. Test-bed facts and general
    statements (empty ``test_id``) are left out: one metric there often names several things."""
    d = df[~df["test_id"].isin(TEST_FREE) & ~df["metric"].isin(list(COMPARISONS))]
    out = []
    for _, g in d.groupby(KEY, sort=True):
        if g["locator"].nunique() < 2:
            continue
        clash = [(a, b) for (_, a), (_, b) in itertools.combinations(g.iterrows(), 2)
                 if a["locator"] != b["locator"] and not _overlap((a["lo"], a["hi"]), (b["lo"], b["hi"]))]
        if not clash:
            continue
        a, b = clash[0]
        groups = g.groupby("value_text", sort=False)["locator"].agg(lambda s: ", ".join(dict.fromkeys(s)))
        said = "; ".join(f"{v} in {locs}" for v, locs in groups.items())
        out.append(_finding(
            "same_quantity", g.sort_values("record_id"),
            f"{_what(a)} of test {a['test_id']} is stated as {said}.",
            stated=a["value"], recomputed=b["value"]))
    return out


def rule_read_write_total(df: pd.DataFrame) -> list[dict]:
    """Read + write against the stated total of the same test, statistic and vantage.

    Averages and totals must add up; for peaks (which need not coincide in time) the total peak
    must lie between max(read, write) and read + write. Each distinct (read, write, total)
    combination of printed values is checked once."""
    d = df[~df["test_id"].isin(TEST_FREE)]
    keys = [k for k in KEY if k != "metric"]
    out = []
    for total_metric, (rm, wm) in READ_WRITE.items():
        part = d[d["metric"].isin([total_metric, rm, wm])]
        for _, g in part.groupby(keys, sort=True):
            reads, writes, totals = (g[g["metric"] == m].drop_duplicates("value") for m in (rm, wm, total_metric))
            for (_, r), (_, w), (_, t) in itertools.product(reads.iterrows(), writes.iterrows(), totals.iterrows()):
                lo, hi = r["lo"] + w["lo"], r["hi"] + w["hi"]
                if t["statistic"] == "peak":
                    ok = t["hi"] >= max(r["lo"], w["lo"]) - 1e-9 and t["lo"] <= hi + 1e-9
                    expect = f"between {_fmt(max(r['value'], w['value']))} and {_fmt(r['value'] + w['value'])}"
                else:
                    ok = _overlap((lo, hi), (t["lo"], t["hi"]))
                    expect = _fmt(r["value"] + w["value"])
                if ok:
                    continue
                recs = pd.concat([r.to_frame().T, w.to_frame().T, t.to_frame().T])
                out.append(_finding(
                    "read_write_total", recs,
                    f"{_what(t)} of test {t['test_id']}: read {_where(r)} + write "
                    f"{_where(w)} = {_fmt(r['value'] + w['value'])} {t['unit']}, but the total is stated as "
                    f"{_where(t)}" + (f" (a peak total must lie {expect})." if t["statistic"] == "peak" else "."),
                    stated=t["value"], recomputed=r["value"] + w["value"]))
    return out


def rule_per_desktop(df: pd.DataFrame) -> list[dict]:
    """A stated per-desktop figure against every stated total of the same test and statistic
    divided by the test's desktops (vantage must agree when both state one). A finding when no
    total reproduces it, or when a total at the same vantage as a reproducing one does not; the
    message says which totals reproduce it."""
    out = []
    keys = ["source_id", "phase", "test_id", "condition", "variant", "configuration", "worker_class", "statistic"]
    for pd_metric, total_metric in PER_DESKTOP.items():
        stated = df[(df["metric"] == pd_metric) & ~df["test_id"].isin(TEST_FREE)]
        totals = df[df["metric"] == total_metric]
        for _, s in stated.iterrows():
            cand = totals[(totals[keys] == s[keys]).all(axis=1)]
            cand = cand[(cand["vantage"] == s["vantage"]) | (cand["vantage"] == "") | (s["vantage"] == "")]
            if cand.empty:
                continue
            n = s["desktops"]
            good, bad = [], []
            for _, t in cand.drop_duplicates(["value", "vantage"]).iterrows():
                (good if _overlap((t["lo"] / n, t["hi"] / n), (s["lo"], s["hi"])) else bad).append(t)
            # a total at another vantage (e.g. back end) that no reproducing total shares is no contradiction
            if good:
                bad = [t for t in bad if t["vantage"] in {g["vantage"] for g in good}]
            if not bad:
                continue
            recs = pd.concat([s.to_frame().T, cand[cand["value"].isin([t["value"] for t in bad + good])]])
            msg = (f"{_what(s)} of test {s['test_id']} stated as {_where(s)}; " +
                   "; ".join(f"{_where(t)} / {n:,.0f} desktops = {_fmt(t['value'] / n)}" for t in bad) +
                   (". Reproduced by " + ", ".join(_where(t) for t in good) + "." if good else
                    ". No stated total reproduces it."))
            out.append(_finding("per_desktop", recs.sort_values("record_id"), msg, stated=s["value"],
                                recomputed=bad[0]["value"] / n))
    return out


def _pairs_at(df: pd.DataFrame, comp: pd.Series) -> list[tuple[pd.Series, pd.Series]]:
    """Candidate compared pairs for a stated comparison: two records at the same locator with the
    same metric, statistic and unit that differ in test, configuration or worker class."""
    same = df[(df["source_id"] == comp["source_id"]) & (df["locator"] == comp["locator"])
              & ~df["metric"].isin(list(COMPARISONS))]
    pairs = []
    for _, g in same.groupby(["metric", "statistic", "unit"], sort=False):
        g = g.drop_duplicates(["test_id", "configuration", "worker_class", "value"])
        for (_, a), (_, b) in itertools.combinations(g.iterrows(), 2):
            ka = (a["test_id"], a["configuration"], a["worker_class"])
            kb = (b["test_id"], b["configuration"], b["worker_class"])
            if ka != kb and a["value"] != b["value"]:
                pairs.append((a, b))
    pairs.sort(key=lambda p: (min(p[0]["record_id"], p[1]["record_id"])))
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
    return {"smaller": span(lambda s, l_: abs(l_ - s) / s * 100),
            "larger": span(lambda s, l_: abs(l_ - s) / l_ * 100)}


def _label(r: pd.Series) -> str:
    name = r["configuration"] or r["test_id"] or r["worker_class"] or r["record_id"]
    return f"{name} {r['value_text']}"


def rule_comparison(df: pd.DataFrame) -> list[dict]:
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
            hits = [name for name, (_, lo, hi) in rec.items() if _overlap((lo, hi), (c["lo"], c["hi"]))]
            results.append((a, b, rec, hits))
        good = [r for r in results if (expected in r[3] if expected else r[3])]
        stated = f"{c['value_text']} ({c['locator']}, line {int(c['line'])})"

        def describe(a, b, rec, kind=kind):
            sm, lg = (a, b) if a["value"] <= b["value"] else (b, a)
            if kind == "ratio":
                return f"{_label(lg)} / {_label(sm)} = {_fmt(rec['larger / smaller'][0])}x"
            return (f"{_label(sm)} vs {_label(lg)}: {_fmt(rec['smaller'][0])} % of the smaller, "
                    f"{_fmt(rec['larger'][0])} % of the larger")
        if not good:
            any_hit = [r for r in results if r[3]]
            if any_hit:
                a, b, rec, hits = any_hit[0]
                base = "larger" if "larger" in hits else "smaller"
                msg = (f"{stated} is worded as {'a decrease' if expected == 'larger' else 'an increase'} but is "
                       f"reproduced only against the {base} value: {describe(a, b, rec)}.")
            else:
                a, b, rec, _ = results[0]
                msg = f"{stated} is not reproduced by the values it compares: " + \
                      "; ".join(describe(a, b, rec) for a, b, rec, _ in results) + "."
            recs = pd.concat([c.to_frame().T, a.to_frame().T, b.to_frame().T])
            val = rec.get(expected or "", next(iter(rec.values())))[0]
            out.append(_finding("comparison", recs, msg, stated=c["value"], recomputed=val))
            continue
        a, b, rec, hits = good[0]
        recs = pd.concat([c.to_frame().T, a.to_frame().T, b.to_frame().T])
        if expected is None and kind == "percent" and len(hits) == 1:
            out.append(_finding(
                "comparison", recs, f"{stated} does not say its base; it is {describe(a, b, rec)}, so it is "
                f"computed against the {hits[0]} value.", severity="note", stated=c["value"],
                recomputed=rec[hits[0]][0]))
        elif kind == "percent" and len(results) > 1 and len(good) < len(results):
            others = [describe(x, y, r) for x, y, r, h in results if not any(r is g[2] for g in good)]
            out.append(_finding(
                "comparison", recs, f"{stated} holds only for {describe(a, b, rec)}; other stated pairs give "
                + "; ".join(others) + ".", severity="note", stated=c["value"],
                recomputed=rec[expected or hits[0]][0]))
    return out


def rule_shares_sum(df: pd.DataFrame) -> list[dict]:
    """Shares that should add up to 100 % (``SHARES``): the split of one table row (same line)
    or a whole profile table (same locator and test). A finding when 100 lies outside the sum of
    the printed intervals (n shares printed as integers allow 100 +/- n x 0.5)."""
    out = []
    keys = ["source_id", "locator", "phase", "test_id", "condition", "variant", "configuration", "worker_class"]
    for name, metrics, scope in SHARES:
        d = df[df["metric"].isin(metrics)]
        if scope == "table":
            d = d[d["locator"].str.startswith("Table ")]
        by = keys + (["line"] if scope == "line" else [])
        for _, g in d.groupby(by, sort=True):
            if len(metrics) > 1 and set(g["metric"]) != set(metrics):
                continue
            if len(g) < 2 or g["metric"].duplicated().any() and len(metrics) > 1:
                continue
            lo, hi, total = g["lo"].sum(), g["hi"].sum(), g["value"].sum()
            if lo <= 100 + 1e-9 and hi >= 100 - 1e-9:
                continue
            out.append(_finding(
                "shares_sum", g.sort_values("record_id"),
                f"{name} at {g.iloc[0]['locator']} (line {int(g['line'].min())}) adds up to {_fmt(total)} %, "
                f"not 100 % (printed precision allows {_fmt(lo)}-{_fmt(hi)}).",
                stated=100.0, recomputed=total, unit="%"))
    return out


def _scope(df: pd.DataFrame, r: pd.Series, metrics) -> pd.DataFrame:
    """Records of ``metrics`` in the scope of ``r``: same source and configuration (empty matches),
    preferring the same locator, then the same phase."""
    d = df[(df["source_id"] == r["source_id"]) & df["metric"].isin(metrics)
           & ((df["configuration"] == r["configuration"]) | (df["configuration"] == "") | (r["configuration"] == ""))]
    for narrow in (d[d["locator"] == r["locator"]], d[d["phase"] == r["phase"]]):
        if len(narrow):
            return narrow
    return d.iloc[0:0]


def rule_capacity(df: pd.DataFrame) -> list[dict]:
    """Stated raw capacity against drive count x drive size (``DRIVE_COUNTS`` x ``DRIVE_SIZES``)
    in its scope (``_scope``), and stated usable capacity against the largest such product
    (usable cannot exceed raw). The message names the product that reproduces a raw figure."""
    out = []
    for _, cap in df[df["metric"].isin(["raw_capacity", "usable_capacity"])].iterrows():
        counts, sizes = _scope(df, cap, DRIVE_COUNTS), _scope(df, cap, DRIVE_SIZES)
        if counts.empty or sizes.empty:
            continue
        prods = []
        for (_, n), (_, s) in itertools.product(counts.drop_duplicates(["metric", "value"]).iterrows(),
                                                sizes.drop_duplicates(["metric", "value"]).iterrows()):
            prods.append((n, s, n["value"] * s["value"], n["lo"] * s["lo"], n["hi"] * s["hi"]))
        def txt(p):
            return f"{p[0]['value_text']} {p[0]['metric']} x {p[1]['value_text']} {p[1]['metric']} = {_fmt(p[2])} GB"
        if cap["metric"] == "raw_capacity":
            plain = [p for p in prods if p[0]["metric"] == "drives" and p[1]["metric"] == "drive_capacity"]
            if not plain or any(_overlap((p[3], p[4]), (cap["lo"], cap["hi"])) for p in plain):
                continue
            wide = df[(df["source_id"] == cap["source_id"]) & (df["phase"] == cap["phase"])
                      & ((df["configuration"] == cap["configuration"]) | (df["configuration"] == ""))]
            other = []
            for (_, n), (_, z) in itertools.product(
                    wide[wide["metric"].isin(DRIVE_COUNTS)].drop_duplicates(["metric", "value"]).iterrows(),
                    wide[wide["metric"].isin(DRIVE_SIZES)].drop_duplicates(["metric", "value"]).iterrows()):
                if _overlap((n["lo"] * z["lo"], n["hi"] * z["hi"]), (cap["lo"], cap["hi"])):
                    other.append((n, z, n["value"] * z["value"]))
            p = plain[0]
            msg = (f"raw capacity stated as {_where(cap)} but {txt(p)}" +
                   (f"; it matches {txt(other[0])} instead." if other else "; no stated drive count and size give it."))
            recs = pd.concat([cap.to_frame().T, p[0].to_frame().T, p[1].to_frame().T] +
                             ([other[0][0].to_frame().T, other[0][1].to_frame().T] if other else []))
            out.append(_finding("capacity", recs, msg, stated=cap["value"], recomputed=p[2]))
        else:
            top = max(prods, key=lambda p: p[4])
            if cap["lo"] <= top[4] + 1e-9:
                continue
            recs = pd.concat([cap.to_frame().T, top[0].to_frame().T, top[1].to_frame().T])
            out.append(_finding("capacity", recs, f"usable capacity stated as {_where(cap)} exceeds the raw "
                                f"capacity of the drives: {txt(top)}.", stated=cap["value"], recomputed=top[2]))
    return out


def rule_count_product(df: pd.DataFrame) -> list[dict]:
    """Count x per-unit = total (``COUNT_PRODUCTS``: hosts x desktops per host = desktops, ...).

    For each stated per-unit figure (not a ``sizing`` limit such as "up to 500 VMs per LUN"),
    the counts in its scope (``_scope``; same worker class, empty matches) times the figure must
    reproduce a stated total of that worker class (``desktops``/``sessions``) or, for the whole
    population, the test population in the ``desktops`` column. A finding when no count does."""
    out = []
    for count_m, per_m, total_m in COUNT_PRODUCTS:
        for _, per in df[(df["metric"] == per_m) & (df["phase"] != "sizing")].iterrows():
            wc = per["worker_class"]
            counts = _scope(df, per, [count_m])
            counts = counts[(counts["worker_class"] == wc) | (counts["worker_class"] == "") | (wc == "")]
            if counts.empty:
                continue
            tot = df[(df["source_id"] == per["source_id"]) & (df["metric"] == total_m) & (df["worker_class"] == wc)]
            totals = [(t["value"], t["lo"], t["hi"], t) for _, t in tot.drop_duplicates("value").iterrows()]
            if total_m == "desktops" and wc in ("", "mixed"):
                totals.append((per["desktops"], per["desktops"], per["desktops"], None))
            if not totals:
                continue
            counts = counts.drop_duplicates("value")
            if any(_overlap((n["lo"] * per["lo"], n["hi"] * per["hi"]), (t_lo, t_hi))
                   for _, n in counts.iterrows() for _, t_lo, t_hi, _ in totals):
                continue
            n = counts.iloc[0]
            stated = "; ".join(_where(t) if t is not None else f"{_fmt(v)} (the test population)"
                               for v, _, _, t in totals)
            recs = [per.to_frame().T, n.to_frame().T] + [t.to_frame().T for *_, t in totals if t is not None]
            out.append(_finding(
                "count_product", pd.concat(recs),
                f"{count_m} {_where(n)} x {per_m} {_where(per)} = {_fmt(n['value'] * per['value'])} "
                f"{total_m}, but the document states {total_m}: {stated}.",
                stated=totals[0][0], recomputed=n["value"] * per["value"], unit="count"))
    return out


def rule_average_above_peak(df: pd.DataFrame) -> list[dict]:
    """An average of a series larger than its peak: same test, condition, variant,
    configuration, worker class and vantage; the peak's metric is the average's metric or its
    total (the average read IOPS cannot exceed the peak total IOPS, ``SERIES_PARENT``)."""
    d = df[~df["test_id"].isin(TEST_FREE)]
    keys = ["source_id", "phase", "test_id", "condition", "variant", "configuration", "worker_class", "vantage"]
    avgs, peaks = d[d["statistic"] == "average"], d[d["statistic"] == "peak"]
    out = []
    for _, a in avgs.drop_duplicates(keys + ["metric", "value"]).iterrows():
        metrics = {a["metric"], SERIES_PARENT.get(a["metric"], a["metric"])}
        p = peaks[(peaks[keys] == a[keys]).all(axis=1) & peaks["metric"].isin(metrics)]
        for _, pk in p.drop_duplicates(["metric", "value"]).iterrows():
            if a["lo"] > pk["hi"] + 1e-9:
                recs = pd.concat([a.to_frame().T, pk.to_frame().T])
                out.append(_finding(
                    "average_above_peak", recs,
                    f"{_what(a)} {_where(a)} is larger than the {_what(pk)} {_where(pk)} "
                    f"of test {a['test_id']}.", stated=a["value"], recomputed=pk["value"]))
    return out


RULE_FUNCTIONS = {
    "same_quantity": rule_same_quantity, "read_write_total": rule_read_write_total,
    "per_desktop": rule_per_desktop, "comparison": rule_comparison, "shares_sum": rule_shares_sum,
    "capacity": rule_capacity, "count_product": rule_count_product, "average_above_peak": rule_average_above_peak,
}


def link_register(findings: pd.DataFrame, register: pd.DataFrame) -> pd.Series:
    """For each finding, the ids (space-separated) of the register entries about the same
    statements: same source and either a record the entry sets aside among the finding's
    records, or one of the entry's two statements (locator and line) among the finding's."""
    out = []
    for f in findings.itertuples(index=False):
        recs = set(f.record_ids.split())
        spots = set(zip(f.locators.split(" | "), f.lines.split()))
        ids = []
        for e in register[register["source_id"] == f.source_id].itertuples(index=False):
            e_spots = {(e.a_locator, str(e.a_line)), (e.b_locator, str(e.b_line))}
            if recs & set(e.rejected_records.split()) or spots & e_spots:
                ids.append(e.id)
        out.append(" ".join(ids))
    return pd.Series(out, index=findings.index, dtype=str)


def run_rules(results: pd.DataFrame, rules=None, register: pd.DataFrame | None = None) -> pd.DataFrame:
    """Run the consistency rules over normalized records and return the findings.

    ``results``: the columns of ``normalize.RESULT_COLUMNS`` (``results.csv`` read with
    ``normalize.read_normalized``; all records, used in the analysis or not: the audit is about
    what the documents state). ``rules``: names from ``RULES`` (default: all).

    Returns columns ``FINDING_COLUMNS``: ``finding_id`` (``FNNN``, numbered in output order), ``rule``, ``severity``
    (``inconsistent`` or ``note``), ``source_id``, ``test_id``, ``metric`` (space-separated when
    several), ``record_ids`` (space-separated), ``locators`` / ``values`` / ``quotes``
    (``" | "``-separated, in record order), ``lines``, ``stated`` and ``recomputed`` (normalized
    unit ``unit``, NaN where not a single number), ``message`` and ``register_ids`` (entries of
    ``register``, the curated discrepancy register, about the same statements; see
    ``link_register``; empty without a register). Sorted by source, rule (order of
    ``RULES``) and first record id, so two runs give identical rows. Raises KeyError for an
    unknown rule name or a missing input column.
    """
    missing = {"record_id", "value", "value_low", "value_high", "reported_value", "value_text", "bound",
               "locator", "line", "quote", *KEY} - set(results.columns)
    if missing:
        raise KeyError(f"run_rules: results lack columns {sorted(missing)}")
    names = list(RULES) if rules is None else list(rules)
    for n in names:
        if n not in RULE_FUNCTIONS:
            raise KeyError(f"unknown rule {n!r}; known: {', '.join(RULES)}")
    df = intervals(results.sort_values(["source_id", "record_id"], kind="stable").reset_index(drop=True))
    rows = [f for n in names for f in RULE_FUNCTIONS[n](df)]
    out = pd.DataFrame(rows, columns=FINDING_COLUMNS[1:-1])
    if out.empty:
        return pd.DataFrame(columns=FINDING_COLUMNS)
    out["_r"] = out["rule"].map(list(RULES).index)
    out = out.drop_duplicates(["rule", "record_ids", "message"])
    out = out.sort_values(["source_id", "_r", "record_ids", "message"], kind="stable").drop(columns="_r")
    out.insert(0, "finding_id", [f"F{i:03d}" for i in range(1, len(out) + 1)])
    out = out.reset_index(drop=True)
    out["register_ids"] = "" if register is None else link_register(out, register)
    return out[FINDING_COLUMNS]


def findings_summary(findings: pd.DataFrame, sources_df: pd.DataFrame | None = None) -> pd.DataFrame:
    """Counts of findings per vendor (rows) and rule (columns), inconsistencies and notes apart.

    Returns a table with a ``Vendor`` column (``source_id`` if ``sources_df`` is None), one column
    per rule that fired and ``Total``; cells are ``n`` or ``n (+m notes)``."""
    f = findings.copy()
    if sources_df is not None:
        f["source_id"] = f["source_id"].map(sources_df.set_index("source_id")["vendor"]).fillna(f["source_id"])
    cols = [r for r in RULES if r in set(f["rule"])]
    rows = []
    for src, g in f.groupby("source_id", sort=True):
        row = {"Vendor": src}
        for r in cols + ["Total"]:
            h = g if r == "Total" else g[g["rule"] == r]
            n, m = (h["severity"] == "inconsistent").sum(), (h["severity"] == "note").sum()
            row[r] = f"{n}" + (f" (+{m} notes)" if m else "")
        rows.append(row)
    return pd.DataFrame(rows, columns=["Vendor", *cols, "Total"])


# --------------------------------------------------------------------------------------------
# Curated registers (data/raw/discrepancies.csv, data/raw/claims.csv)
# --------------------------------------------------------------------------------------------

DISCREPANCY_COLUMNS = ["id", "source_id", "category", "a_locator", "a_line", "a_quote", "b_locator", "b_line",
                       "b_quote", "explanation", "resolution", "impact", "rejected_records"]
CATEGORIES = ("contradiction", "arithmetic", "unsupported-claim", "ambiguity", "extraction-artifact", "comparability")
CLAIM_COLUMNS = ["claim_id", "source_id", "claim", "locator", "line", "quote", "evidence_for", "evidence_against",
                 "verdict"]
VERDICTS = ("supported", "partly supported", "not supported", "not testable")
PREFIXES = {"netapp_tr4540": "NTAP", "dell_sc9000": "DELL", "hitachi_g600": "HDS", "accelstor_p710": "ACCS"}


class RegisterError(ValueError):
    """A curated register that cannot be used; the message names file, line and column."""


def _check_rows(df: pd.DataFrame, path: Path, checks) -> None:
    problems = []
    for i, r in df.iterrows():
        for col, ok, what in checks:
            if not ok(r[col], r):
                problems.append(f"{path}: line {i + 2}: column {col!r} = {r[col]!r}: {what}")
    if problems:
        raise RegisterError(f"{len(problems)} problem(s):\n  " + "\n  ".join(problems))


def load_discrepancies(path: Path = config.RAW_DIR / "discrepancies.csv",
                       record_ids: set[str] | None = None) -> pd.DataFrame:
    """The curated discrepancy register, validated; columns ``DISCREPANCY_COLUMNS`` (all str).

    ``id`` is ``D-<PREFIX>-NN`` and unique; ``category`` in ``CATEGORIES``; ``source_id`` in
    ``sources.csv``; ``a_*`` filled; ``a_line``/``b_line`` 1-based integers (``b_*`` may be empty);
    ``resolution`` filled; ``rejected_records`` space-separated record ids that must exist in
    ``record_ids`` (default: all of ``data/raw/records``) and belong to the entry's source.
    Raises RegisterError listing every problem with its CSV line.
    """
    path = Path(path)
    df = sources.read_csv_text(path)
    if list(df.columns) != DISCREPANCY_COLUMNS:
        raise RegisterError(f"{path}: columns {list(df.columns)}; expected {DISCREPANCY_COLUMNS}")
    known_sources = set(sources.load_sources()["source_id"])
    if record_ids is None:
        record_ids = set()
        for f in sorted(config.RECORDS_DIR.glob("*.csv")):
            record_ids |= set(sources.read_csv_text(f)["record_id"])
    prefix_of = lambda s: PREFIXES.get(s, s.split("_")[0].upper())
    _check_rows(df, path, [
        ("id", lambda v, r: re.fullmatch(rf"D-{prefix_of(r['source_id'])}-\d{{2,3}}", v) is not None,
         "expected D-<PREFIX>-NN"),
        ("source_id", lambda v, r: v in known_sources, "unknown source (see sources.csv)"),
        ("category", lambda v, r: v in CATEGORIES, f"expected one of {', '.join(CATEGORIES)}"),
        ("a_locator", lambda v, r: re.fullmatch(sources.LOCATOR_PATTERN[1:-1], v) is not None, "bad locator"),
        ("a_line", lambda v, r: v.isdigit() and int(v) >= 1, "expected a line number"),
        ("a_quote", lambda v, r: bool(v.strip()), "empty quote"),
        ("b_locator", lambda v, r: v == "" or re.fullmatch(sources.LOCATOR_PATTERN[1:-1], v) is not None,
         "bad locator"),
        ("b_line", lambda v, r: (v == "") == (r["b_quote"] == "") and (v == "" or v.isdigit()),
         "b_line and b_quote go together"),
        ("resolution", lambda v, r: bool(v.strip()), "every entry needs a resolution"),
        ("rejected_records", lambda v, r: all(x in record_ids for x in v.split()), "unknown record id"),
        ("rejected_records", lambda v, r: all(x.startswith(prefix_of(r["source_id"]) + "-") for x in v.split()),
         "record of another source"),
    ])
    if df["id"].duplicated().any():
        raise RegisterError(f"{path}: duplicate ids {sorted(df.loc[df['id'].duplicated(), 'id'])}")
    return df


def load_claims(path: Path = config.RAW_DIR / "claims.csv") -> pd.DataFrame:
    """The claims table, validated; columns ``CLAIM_COLUMNS`` (all str). ``claim_id`` is
    ``C-<PREFIX>-NN`` and unique, ``verdict`` in ``VERDICTS``, ``line`` a 1-based integer.
    Raises RegisterError listing every problem with its CSV line."""
    path = Path(path)
    df = sources.read_csv_text(path)
    if list(df.columns) != CLAIM_COLUMNS:
        raise RegisterError(f"{path}: columns {list(df.columns)}; expected {CLAIM_COLUMNS}")
    known_sources = set(sources.load_sources()["source_id"])
    _check_rows(df, path, [
        ("claim_id", lambda v, r: re.fullmatch(r"C-[A-Z]+-\d{2,3}", v) is not None, "expected C-<PREFIX>-NN"),
        ("source_id", lambda v, r: v in known_sources, "unknown source"),
        ("verdict", lambda v, r: v in VERDICTS, f"expected one of {', '.join(VERDICTS)}"),
        ("line", lambda v, r: v.isdigit() and int(v) >= 1, "expected a line number"),
        ("quote", lambda v, r: bool(v.strip()), "empty quote"),
    ])
    if df["claim_id"].duplicated().any():
        raise RegisterError(f"{path}: duplicate claim ids")
    return df


def resolutions(register: pd.DataFrame) -> pd.DataFrame:
    """Records the analysis does not use, from the register's ``rejected_records``: columns
    ``record_id, discrepancy_id, resolution`` (one row per record; a record named by two entries
    keeps the first), as ``normalize.combine`` expects."""
    rows = [(rid, r["id"], r["resolution"]) for _, r in register.iterrows() for rid in r["rejected_records"].split()]
    out = pd.DataFrame(rows, columns=["record_id", "discrepancy_id", "resolution"])
    return out.drop_duplicates("record_id").reset_index(drop=True)


def verify_quotes(df: pd.DataFrame, quote_cols: list[tuple[str, str]], texts: dict[str, str],
                  id_col: str = "id", window: int = provenance.LINE_WINDOW) -> list[str]:
    """Check that each quote occurs verbatim (whitespace collapsed) in its source's text and
    starts near its line. ``quote_cols``: (quote column, line column) pairs; ``texts``:
    source_id -> seed text. Returns one message per problem (empty: all verified)."""
    problems = []
    for _, r in df.iterrows():
        text = texts.get(r["source_id"])
        if text is None:
            problems.append(f"{r[id_col]}: no seed text for {r['source_id']}")
            continue
        flat = provenance.squash(text)
        lines = text.splitlines()
        for qcol, lcol in quote_cols:
            q = provenance.squash(r[qcol])
            if not q:
                continue
            if q not in flat:
                problems.append(f"{r[id_col]}: {qcol} not found verbatim: {q!r}")
                continue
            line = int(r[lcol])
            near = provenance.squash(" ".join(lines[max(line - 1 - 2, 0): line - 1 + window]))
            if q[:30] not in near:
                problems.append(f"{r[id_col]}: {qcol} does not start near line {line}")
    return problems


def seed_texts(sources_df: pd.DataFrame | None = None) -> dict[str, str]:
    """source_id -> text of its first text file (``provenance.text_path``); register and claims
    quotes refer to that file. Raises FileNotFoundError when the texts are absent."""
    s = sources.load_sources() if sources_df is None else sources_df
    return {r.source_id: provenance.text_path(r.text_dir, r.text_files.split()[0]).read_text(encoding="utf-8")
            for r in s.itertuples()}


def register_summary(register: pd.DataFrame, sources_df: pd.DataFrame | None = None) -> pd.DataFrame:
    """Register entries per vendor (rows) and category (columns, order of ``CATEGORIES``), with
    totals and the number of records set aside (``Records not used``)."""
    r = register.copy()
    if sources_df is not None:
        r["source_id"] = r["source_id"].map(sources_df.set_index("source_id")["vendor"]).fillna(r["source_id"])
    t = pd.crosstab(r["source_id"], r["category"])
    t = t.reindex(columns=[c for c in CATEGORIES if c in t.columns], fill_value=0)
    t["Total"] = t.sum(axis=1)
    t["Records not used"] = r.groupby("source_id")["rejected_records"].apply(lambda s: sum(len(x.split()) for x in s))
    t = t.reset_index().rename(columns={"source_id": "Vendor"})
    t.columns.name = None
    return t


# --------------------------------------------------------------------------------------------
# Report tables and chart (read data/processed/audit_findings.csv and the registers)
# --------------------------------------------------------------------------------------------

RULE_LABELS = {
    "same_quantity": "Same quantity, different values", "read_write_total": "Read + write ≠ total",
    "per_desktop": "Per-desktop ≠ total ÷ desktops", "comparison": "% difference / multiple",
    "shares_sum": "Shares ≠ 100 %", "capacity": "Drives × size ≠ capacity",
    "count_product": "Count × per-unit ≠ total", "average_above_peak": "Average > peak",
}
VERDICT_ORDER = ("not supported", "partly supported", "supported", "not testable")
VERDICT_COLORS = ("#d62728", "#ff7f0e", "#2ca02c", "#9e9e9e")


def read_findings(path: Path = config.PROCESSED_DIR / "audit_findings.csv") -> pd.DataFrame:
    """``audit_findings.csv`` back with its types (columns ``FINDING_COLUMNS``; ``stated`` and
    ``recomputed`` float, the rest str). Raises FileNotFoundError when the audit has not run."""
    df = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")
    for col in ("stated", "recomputed"):
        df[col] = pd.to_numeric(df[col].replace("", None)).astype(float)
    return df[FINDING_COLUMNS]


def _vendor(source_ids: pd.Series, sources_df: pd.DataFrame | None) -> pd.Series:
    if sources_df is None:
        return source_ids
    return source_ids.map(sources_df.set_index("source_id")["vendor"]).fillna(source_ids)


def findings_counts(findings: pd.DataFrame, sources_df: pd.DataFrame | None = None) -> pd.DataFrame:
    """Findings per vendor (rows) and rule (columns labelled by ``RULE_LABELS``): counts of
    inconsistencies, with notes in brackets (``3 (+2 notes)``), and a Total column and row."""
    f = findings.assign(vendor=_vendor(findings["source_id"], sources_df))
    rules = [r for r in RULES if r in set(f["rule"])]
    rows = []
    for vendor, g in list(f.groupby("vendor", sort=True)) + [("Total", f)]:
        row = {"Vendor": vendor}
        for r in rules + ["Total"]:
            h = g if r == "Total" else g[g["rule"] == r]
            n, m = int((h["severity"] == "inconsistent").sum()), int((h["severity"] == "note").sum())
            row[RULE_LABELS.get(r, r) if r != "Total" else "Total"] = f"{n}" + (f" (+{m} notes)" if m else "")
        rows.append(row)
    return pd.DataFrame(rows)


def findings_table(findings: pd.DataFrame, sources_df: pd.DataFrame | None = None,
                   severity: str = "inconsistent") -> pd.DataFrame:
    """The findings of one ``severity`` for the report: Document (vendor and check), Finding (the
    rule's message, quoting the printed values with their locators), Recomputed (derived by the
    check from other stated values; empty when it compares stated values only), Records (with
    the curated register entries about the same statements in brackets)."""
    f = findings[findings["severity"] == severity]
    recomputed = [
        "" if r in ("same_quantity", "average_above_peak") or pd.isna(x) else
        f"{x:,.0f} {u}".strip() if abs(x) >= 100 else f"{x:.3g} {u}".strip()
        for r, x, u in zip(f["rule"], f["recomputed"], f["unit"].replace({"count": "", "ratio": "x"}))]
    return pd.DataFrame({
        "Document and check": (_vendor(f["source_id"], sources_df) + ": " + f["rule"].map(RULE_LABELS)).values,
        "Finding (stated values as printed, with locator)": f["message"].values,
        "Recomputed (derived)": recomputed,
        "Records (register entry)": [r + (f" ({g})" if g else "") for r, g in zip(f["record_ids"], f["register_ids"])],
    })


def register_table(register: pd.DataFrame, sources_df: pd.DataFrame | None = None,
                   only_with_rejections: bool = True) -> pd.DataFrame:
    """Register entries for the report: Entry (id, vendor, category and the two statements'
    locators), Resolution (what the analysis uses, and why), Records not used (their ids).
    ``only_with_rejections`` keeps the entries that set records aside, i.e. those that change the
    numbers the analysis uses."""
    r = register[register["rejected_records"] != ""] if only_with_rejections else register
    vendor = _vendor(r["source_id"], sources_df)
    entry = [f"{i} ({v}, {c}): {a} (line {al})" + (f" vs {b} (line {bl})" if b else "")
             for i, v, c, a, al, b, bl in zip(r["id"], vendor, r["category"], r["a_locator"], r["a_line"],
                                               r["b_locator"], r["b_line"])]
    return pd.DataFrame({"Entry": entry, "Resolution: what the analysis uses": r["resolution"].values,
                         "Records not used": r["rejected_records"].values})


def claims_table(claims: pd.DataFrame, sources_df: pd.DataFrame | None = None) -> pd.DataFrame:
    """The claims table for the report, by vendor and verdict (``VERDICT_ORDER``): Claim (vendor,
    claim, locator), Verdict, Evidence for, Evidence against (both from the vendor's own data)."""
    c = claims.assign(_v=claims["verdict"].map(VERDICT_ORDER.index), _s=claims["source_id"])
    c = c.sort_values(["_s", "_v", "claim_id"], kind="stable")
    return pd.DataFrame({
        "Claim": (_vendor(c["source_id"], sources_df) + ": " + c["claim"] + " (" + c["locator"] + ", line "
                  + c["line"] + ")").values,
        "Verdict": c["verdict"].values, "Evidence for": c["evidence_for"].values,
        "Evidence against": c["evidence_against"].values,
    })


def verdict_chart(claims: pd.DataFrame, sources_df: pd.DataFrame | None = None):
    """Stacked bars: headline claims per vendor by verdict (Altair chart; show with
    ``charts.show``)."""
    import altair as alt

    d = claims.assign(vendor=_vendor(claims["source_id"], sources_df)).groupby(
        ["vendor", "verdict"]).size().rename("claims").reset_index()
    d["order"] = d["verdict"].map(VERDICT_ORDER.index)
    return alt.Chart(d).mark_bar().encode(
        y=alt.Y("vendor:N", title=None),
        x=alt.X("claims:Q", title="Headline claims"),
        color=alt.Color("verdict:N", title="Verdict", sort=list(VERDICT_ORDER),
                        scale=alt.Scale(domain=list(VERDICT_ORDER), range=list(VERDICT_COLORS))),
        order=alt.Order("order:Q"),
        tooltip=["vendor", "verdict", "claims"],
    ).properties(width=520, height=140, title="Vendors' headline claims tested against their own data")
