"""Display tables of the model sections of the report (formatting only; no computation).

Every column header says what kind of number it holds: *reported* (printed in a vendor
document), *derived* (arithmetic on reported numbers), *model* (fitted or extrapolated here) or
*assumed* (from the cost assumptions file).
"""

import re

import numpy as np
import pandas as pd

from ..config import BOUND_SIGNS, PHASE_LABELS, label
from ..models.boot import STATISTIC_LABELS
from .tables import fmt_bound, fmt_number


def _iv(est, lo, hi, pct=False, bound: str = "") -> str:
    """``est (lo–hi)``, ``est (no interval)``; ``bound``: the estimate's sign and rounding (``fmt_bound``)."""
    if pd.isna(est):
        return "not estimable"
    f = (lambda x: f"{x:.0%}") if pct else fmt_number
    e = f"{est:.0%}" if pct else fmt_bound(est, bound)
    if pd.isna(lo) or pd.isna(hi) or lo == hi:  # one document: no interval to show
        return f"{e} (no interval)"
    return f"{e} ({f(lo)}–{f(hi)})"


def _at_least(est) -> str:
    """A lower bound as printed everywhere: ``≥ 65,302``, no interval (``not estimable`` if NaN)."""
    return "not estimable" if pd.isna(est) else fmt_bound(est, "gt")


def _bounds(t: pd.DataFrame) -> pd.Series:
    """The ``bound`` column of a ``scenario.size`` table (``eq`` where a table has none)."""
    return t["bound"] if "bound" in t.columns else pd.Series("eq", index=t.index)


def _phase(p: pd.Series) -> pd.Series:
    return p.map(PHASE_LABELS).fillna(p.str.replace("_", " "))


def prediction_table(pred: pd.DataFrame) -> pd.DataFrame:
    """The planning table (``iops_per_desktop_model.csv``): per era, phase, statistic and worker
    class, the estimate (``≥`` a lower bound) with its interval, what the interval spans
    (``interval_spans``) with its τ², the documents behind
    it, a modern row's ratio to the seed row, and read share, I/O size and latency beside every
    IOPS figure (one column: ``31 %; 16.7 KB; 0.451 ms``, ``–`` where not known)."""
    unit = pred["unit"].fillna("")
    bound = pred["bound"] if "bound" in pred.columns else pd.Series("", index=pred.index)
    return pd.DataFrame(
        {
            "Era": pred["era"] if "era" in pred.columns else "",
            "Phase": _phase(pred["phase"]),
            "Statistic": pred["statistic"].map(lambda x: STATISTIC_LABELS.get(x, x.replace("_", " "))),
            "Worker class": pred["worker_class"].replace({"any": "any (pooled)"}),
            "Estimate": [
                f"{_iv(e, lo, hi, bound=b or 'eq')} {u}"
                for e, lo, hi, u, b in zip(pred["estimate"], pred["pi90_low"], pred["pi90_high"], unit, bound)
            ],
            # what the interval spans, with the τ² behind it; the whole wording (interval_kind) is in
            # the CSV and the heterogeneity table that follows
            "Interval": [
                str(sp) + ("" if pd.isna(t) else f" (τ² {t:.3f})")
                for sp, t in zip(
                    pred.get("interval_spans", pred["interval_kind"]).fillna(""),
                    pred["tau2"] if "tau2" in pred.columns else pd.Series(np.nan, index=pred.index),
                )
            ],
            "Documents": [f"{int(n)}: {v}" for n, v in zip(pred["n_documents"], pred["documents"])],
            "Modern ÷ seed": [
                "" if pd.isna(r) else f"{r:.2f}× ({lo:.2f}–{hi:.2f}×)"
                for r, lo, hi in zip(pred["ratio_to_seed"], pred["ratio_low"], pred["ratio_high"])
            ],
            # one column for the phase's I/O profile, so that the table fits a portrait page
            "Read share; KB per I/O (derived); latency, ms (reported, median)": [
                "; ".join(
                    (
                        "–" if pd.isna(r) else f"{r:.0%}",
                        "–" if pd.isna(k) else f"{fmt_number(k)} KB",
                        "–" if pd.isna(ms) else f"{fmt_number(ms)} ms",
                    )
                )
                for r, k, ms in zip(pred["read_share"], pred["io_size_kb"], pred["latency_ms"])
            ],
        }
    )


def exclusions_table(ex: pd.DataFrame) -> pd.DataFrame:
    """Records the IOPS model leaves out, grouped by reason: reason, records (count), record ids."""
    g = ex.groupby("reason", sort=True)["record_id"].agg(["count", lambda s: " ".join(s)]).reset_index()
    return pd.DataFrame({"Reason left out": g["reason"], "Records": g["count"], "Record ids": g["<lambda_0>"]})


def boot_table(storms: pd.DataFrame) -> pd.DataFrame:
    """Per document: desktops, boot duration (reported), boot rate, I/O per desktop boot and peak
    IOPS per desktop booted per minute (derived, with their bounds), records."""

    def b(v, bound):
        return "" if pd.isna(v) else fmt_bound(v, bound)

    return pd.DataFrame(
        {
            "Vendor": storms["vendor"],
            "Desktops": storms["desktops"].map(fmt_number),
            "Boot duration, min (reported)": [
                b(v, x) for v, x in zip(storms["duration_min"], storms["duration_bound"])
            ],
            "Boot rate, desktops/min (derived)": [
                b(v, x) for v, x in zip(storms["boot_rate_per_min"], storms["rate_bound"])
            ],
            "Peak IOPS (reported)": [b(v, x) for v, x in zip(storms["peak_iops"], storms["peak_bound"])],
            "I/O per desktop boot (derived)": [
                b(v, x) for v, x in zip(storms["io_per_boot"], storms["io_per_boot_bound"])
            ],
            "Peak IOPS per desktop/min (derived)": [
                b(v, x) for v, x in zip(storms["peak_iops_per_rate"], storms["peak_per_rate_bound"])
            ],
            "Sources": (
                storms["duration_record"]
                + " "
                + storms["peak_record"].fillna("")
                + " "
                + storms["average_record"].fillna("")
            )
            .str.split()
            .str.join(" "),
        }
    )


def term_label(term: str) -> str:
    """A model term (patsy/statsmodels name, as in ``iops.coefficients``) in words:
    ``cell[login peak]`` -> ``login peak``, ``vantage[T.host]`` -> ``vantage: host (against the
    reference)``, ``Intercept`` -> ``intercept``; other names with underscores as spaces."""
    m = re.fullmatch(r"(\w+)\[(T\.)?(.*)\]", term)
    if not m:
        return term.replace("_", " ").replace("Intercept", "intercept")
    factor, contrast, level = m.group(1).replace("_", " "), m.group(2), m.group(3).replace("_", " ")
    if contrast:
        return f"{factor}: {level} (against the reference)"
    return level if factor == "cell" else f"{factor}: {level}"


def coefficient_table(coefs: pd.DataFrame) -> pd.DataFrame:
    """Term (in words, ``term_label``), multiplicative factor on IOPS per desktop with its 95 %
    CI (for a cell: its IOPS per desktop), p-value."""
    return pd.DataFrame(
        {
            "Term": coefs["term"].map(term_label),
            "Factor on IOPS per desktop (95 % CI)": [
                _iv(f, lo, hi) for f, lo, hi in zip(coefs["factor"], coefs["factor_low"], coefs["factor_high"])
            ],
            "p-value": coefs["p_value"].map(lambda p: f"{p:.2g}"),
        }
    )


def _value_cell(r: pd.Series) -> str:
    """An observation's value with the sign of its bound, or the printed range (``3–4``) it
    stands for (the model takes the range's midpoint)."""
    lo, hi = r.get("low"), r.get("high")
    if pd.notna(lo) and pd.notna(hi) and hi > lo:
        return f"{fmt_number(lo)}–{fmt_number(hi)} (midpoint {fmt_number(r['value'])})"
    return _max(r["value"], r.get("bound", "eq") or "eq")


def context_table(ctx: pd.DataFrame) -> pd.DataFrame:
    """Per observation behind the planning table: the load tool (Login VSI version), guest OS,
    clone type and broker of its test (sources.csv)."""
    return pd.DataFrame(
        {
            "Vendor": ctx["vendor"],
            "Observation": ctx["what"].str.replace("_", " "),
            "Worker class": ctx["worker_class"],
            "Value (derived)": [_value_cell(r) for _, r in ctx.iterrows()],
            "Load tool": ctx["load_tool"],
            "Guest OS": ctx["guest_os"],
            "Clone type": ctx["clone_type"].str.replace("_", " "),
            "Broker": ctx["broker"],
            "Records": ctx["records"],
        }
    )


def cv_table(by_vendor: pd.DataFrame) -> pd.DataFrame:
    """Per held-out vendor (``iops.cv_by_vendor``): observations, predicted, error factor,
    coverage, sharpness; no all-vendor row."""

    def f(x, fmt):
        return "" if pd.isna(x) else fmt.format(x)

    return pd.DataFrame(
        {
            "Held-out vendor": by_vendor["held_out"],
            "Trained on": by_vendor["trained_on"].str.replace(";", ", "),
            "Observations": by_vendor["n_obs"],
            "Predicted": by_vendor["n_predicted"],
            "Median error factor": by_vendor["median_error_factor"].map(lambda x: f(x, "{:.2f}×")),
            "Inside 90 % PI": [
                f"{int(c)} of {int(n)}" if n else "not estimable"
                for c, n in zip(by_vendor["n_covered"], by_vendor["n_predicted"])
            ],
            "Sharpness (median PI high/low)": [
                f(x, "{:.1f}×") + (" (vacuous)" if v else "")
                for x, v in zip(by_vendor["sharpness"], by_vendor["vacuous"])
            ],
        }
    )


def record_ids(ids: str) -> str:
    """Record ids (separated by ``+``, ``;``, ``,`` or spaces) as ``, ``-joined spans that never
    break inside an id (CSS class ``vdi-id``: ``white-space: nowrap``)."""
    parts = [p for p in re.split(r"[+;,\s]+", str(ids)) if p]
    return ", ".join(f'<span class="vdi-id">{p}</span>' for p in parts)


EXTERNAL_WIDTHS = {
    "Document": "10%",
    "Test": "11%",
    "Cell": "9%",
    "Status": "9%",
    "Observed (derived)": "12%",
    "Seed row (interval)": "12%",
    "Observed ÷ seed": "10%",
    "Verdict": "14%",
    "Records": "12%",
}


def external_table(ext: pd.DataFrame, labels: dict[str, str] | None = None) -> pd.DataFrame:
    """Every external figure (``era.external_evidence``, ``iops_model_external.csv``) against the
    seed row of its cell: document (``labels``: {source_id: name}), test (with its variant),
    cell, status (exact, lower bound, upper bound), observed (``≥`` a lower bound, ``≤`` an upper
    bound), the seed row with its interval, the ratio, the CSV's ``verdict`` as it stands
    (inside, above, below, uninformative) and the record ids. Column widths: ``EXTERNAL_WIDTHS``."""
    labels = labels or {}
    test = [
        t.replace("_", " ") + (f" ({v.replace('_', ' ')})" if v else "") for t, v in zip(ext["test_id"], ext["variant"])
    ]
    return pd.DataFrame(
        {
            "Document": ext["source_id"].map(lambda s: labels.get(s, s)),
            "Test": test,
            "Cell": ext["cell"],
            "Status": ext["status"],
            "Observed (derived)": [fmt_bound(v, b) for v, b in zip(ext["observed"], ext["bound"])],
            "Seed row (interval)": [
                _iv(e, lo, hi) for e, lo, hi in zip(ext["predicted"], ext["pi90_low"], ext["pi90_high"])
            ],
            "Observed ÷ seed": ext["ratio"].map(lambda x: f"{x:.2f}×"),
            "Verdict": ext["verdict"],
            "Records": ext["record_ids"].map(record_ids),
        }
    )


def lodo_table(lodo: pd.DataFrame) -> pd.DataFrame:
    """Leave-one-document-out per era (``era.leave_one_document_out``): era, cell, held-out
    document, the row from the other documents (estimate and interval, its kind), the held-out
    figure, the ratio and the verdict."""
    return pd.DataFrame(
        {
            "Era": lodo["era"],
            "Cell": lodo["cell"].str.replace("_", " "),
            "Held out": lodo["held_out"],
            "From the others": [
                f"{_iv(e, lo, hi)} ({t})"
                for e, lo, hi, t in zip(lodo["estimate"], lodo["pi90_low"], lodo["pi90_high"], lodo["trained_on"])
            ],
            "Held-out figure": lodo["observed"].map(fmt_number),
            "Held out ÷ others": lodo["ratio"].map(lambda x: f"{x:.2f}×"),
            "Verdict": lodo["verdict"],
        }
    )


def heterogeneity_table(pred: pd.DataFrame) -> pd.DataFrame:
    """Per planning row with an interval (``iops_per_desktop_model.csv``; bounds have none): era,
    cell, provisioning, labs, τ² with its source, I², the estimate and the interval, named by what
    it spans."""
    p = pred[pred["pi90_low"].notna()]
    return pd.DataFrame(
        {
            "Era": p["era"],
            "Cell": p["cell"],
            "Provisioning": p["provisioning"],
            "Labs": p["n_labs"].astype(int),
            "τ² (source)": ["–" if pd.isna(t) else f"{t:.3f} ({s})" for t, s in zip(p["tau2"], p["tau2_source"])],
            "I²": p["i2"].map(lambda x: "–" if pd.isna(x) else f"{x:.0%}"),
            "Estimate (interval)": [_iv(e, lo, hi) for e, lo, hi in zip(p["estimate"], p["pi90_low"], p["pi90_high"])],
            "Interval": p["interval_spans"],
        }
    )


def calibration_table(cal: pd.DataFrame) -> pd.DataFrame:
    """Leave one lab out (``era.calibration``): era, cell, held-out lab, its figure, the interval
    for a new lab from the other labs (τ² recomputed without it) and its verdict, the range the
    rows printed before and its verdict."""
    return pd.DataFrame(
        {
            "Era": cal["era"],
            "Cell": cal["cell"],
            "Held out": cal["held_out"],
            "Held-out figure": cal["observed"].map(fmt_number),
            "Interval for a new lab from the others": [
                "none (no τ² without the held-out lab)" if pd.isna(lo) else f"{_iv(e, lo, hi)}, τ² {t:.3f} ({s})"
                for e, lo, hi, t, s in zip(
                    cal["estimate"], cal["pi90_low"], cal["pi90_high"], cal["tau2"], cal["tau2_source"]
                )
            ],
            "Verdict": cal["verdict"],
            "Range of the others' runs (before)": [
                f"{fmt_number(lo)}–{fmt_number(hi)}" if lo != hi else fmt_number(lo)
                for lo, hi in zip(cal["range_low"], cal["range_high"])
            ],
            "Verdict (before)": cal["range_verdict"],
        }
    )


def sizing_table(t: pd.DataFrame) -> pd.DataFrame:
    """The scenario (``scenario.size``) per phase: front end with its interval, read share,
    back end, throughput, capacity per desktop of the scenario's era and clone type (written space
    the documents measured + the era's swap: ``verdicts.capacity``, the per-array answers' figure)
    and which arrays demonstrably carried it. The rate warnings are the prose's
    (``fmt_how``), next to the table, not a column of it."""
    return pd.DataFrame(
        {
            "Phase": _phase(t["phase"]),
            "Statistic": t["statistic"],
            "Figures": [f + (f" ({n})" if n else "") for f, n in zip(t["figures"], t["note"])],
            "Desktops, rate per minute": [
                fmt_number(d) + ("" if pd.isna(r) else f", {fmt_number(r)}")
                for d, r in zip(t["desktops_sized"], t["boot_rate_per_min"].fillna(t["login_rate_per_min"]))
            ],
            "Front-end IOPS (model, 90 % PI)": [
                _at_least(e) if b == "gt" else _iv(e, lo, hi)
                for e, lo, hi, b in zip(t["fe_iops"], t["fe_iops_pi90_low"], t["fe_iops_pi90_high"], _bounds(t))
            ],
            "Read share": t["read_share"].map(lambda x: "–" if pd.isna(x) else f"{x:.0%}"),
            "Back-end IOPS (write penalty)": [
                f"{_at_least(e) if b == 'gt' else _iv(e, lo, hi)} (×{w:g})"
                for e, lo, hi, w, b in zip(
                    t["be_iops"], t["be_iops_pi90_low"], t["be_iops_pi90_high"], t["write_penalty"], _bounds(t)
                )
            ],
            "Throughput, MB/s": t["throughput_mbps"].map(lambda x: "not known" if pd.isna(x) else fmt_number(x)),
            "Capacity per desktop (written + swap)": [
                f"{fmt_number(lo)}–{fmt_number(hi)} GB, {clone} clones ({fmt_number(tb)} TB at the high end)"
                if pd.notna(hi)
                else "not stated"
                for lo, hi, tb, clone in zip(
                    t["capacity_gb_per_desktop_low"],
                    t["capacity_gb_per_desktop_high"],
                    t["capacity_tb_high"],
                    t["clone_type"],
                )
            ],
            "Demonstrably carried by (" + t["condition"].iloc[0] + ")": t["carried_by"],
        }
    )


def rules_table(rules: pd.DataFrame) -> pd.DataFrame:
    """Each quoted rule of thumb (reported) beside the model (steady-state average, login peak, each
    with its interval: a 90 % PI only where the planning row has one, else the range it is), and
    the verdict against the steady-state interval named as it is (``rules_of_thumb``)."""
    sign = BOUND_SIGNS
    rule = [
        f"{sign[b]}{fmt_number(v)}" + (f"–{fmt_number(h)}" if h != v and b == "eq" else "")
        for b, v, h in zip(rules["bound"], rules["rule_value"], rules["rule_high"])
    ]
    return pd.DataFrame(
        {
            "Vendor": rules["vendor"],
            "Rule, IOPS per desktop (reported)": rule,
            "Worker class": rules["worker_class"].str.replace("_", " "),
            "Steady-state average (model, interval)": [
                _iv(e, lo, hi) if c else ""
                for e, lo, hi, c in zip(
                    rules.get("steady_avg"),
                    rules.get("steady_pi90_low"),
                    rules.get("steady_pi90_high"),
                    rules["compared_class"],
                )
            ],
            "Login peak (model, interval)": [
                _iv(e, lo, hi) if c else ""
                for e, lo, hi, c in zip(
                    rules.get("login_peak"),
                    rules.get("login_pi90_low"),
                    rules.get("login_pi90_high"),
                    rules["compared_class"],
                )
            ],
            "Rule vs the steady-state interval": rules["verdict"],
            "Source": rules["record_id"],
        }
    )


def _max(v, b) -> str:
    return "" if pd.isna(v) else fmt_bound(v, b)


def _short_max(v, b, basis: str) -> str:
    """A density maximum in a few words (its basis is in ``summary_sentences``): ``≤ 1,724``,
    ``580 (limit reached)``, ``not determined``, ``not tested``, ``not extrapolated``."""
    if b == "limit":
        return f"{fmt_number(v)} (limit reached)"
    if pd.notna(v):
        return _max(v, b)
    for words in ("not determined", "not tested"):
        if basis.startswith(words):
            return words
    return "not extrapolated"


def density_table(summ: pd.DataFrame) -> pd.DataFrame:
    """Per configuration, in short cells whose basis (resource, phase, record) the notes under the
    table give (``summary_sentences``): the array, demonstrated desktops (normal / one controller
    down), the busiest resource (reported), the maximum desktops at peak, on averages and at peak
    with one controller down (model: only from resources that scale; ``limit reached`` when the
    test already reached one) and, where any array has one, the port-bandwidth limit (derived).
    The vendors' claims are in the notes."""
    conf = summ["configuration"].fillna("").map(lambda c: label("configuration", c) if c else "")
    out = pd.DataFrame(
        {
            "Array": [f"{v} {c}".strip() for v, c in zip(summ["vendor"], conf)],
            "Desktops demonstrated (normal / one controller down)": [
                f"{fmt_number(n)} / {fmt_number(f) if pd.notna(f) else 'not tested'}"
                for n, f in zip(summ["desktops_tested"], summ["desktops_failover_tested"])
            ],
            "Busiest resource (reported)": [
                f"{r}: {fmt_bound(u, b)} % ({str(p).replace('_', ' ')}, {rec})"
                if isinstance(r, str) and r
                else "no utilization reported"
                for r, u, b, p, rec in zip(
                    summ["busiest_resource"],
                    summ["busiest_pct"],
                    summ["busiest_bound"],
                    summ["busiest_phase"],
                    summ["busiest_record"],
                )
            ],
        }
    )
    for head, col in (
        ("Max at peak (model)", "peak"),
        ("Max on averages (model)", "average"),
        ("Max at peak, one controller down (model)", "peak_failover"),
    ):
        out[head] = [
            _short_max(v, b, x)
            for v, b, x in zip(summ[f"{col}_max"], summ[f"{col}_bound"].fillna(""), summ[f"{col}_basis"].fillna(""))
        ]
    if summ["port_max"].notna().any():
        out["Port bandwidth limit (derived)"] = [
            f"{'≤' if pb == 'lt' else '≈'} {fmt_number(v)}" if pd.notna(v) else ""
            for v, pb in zip(summ["port_max"], summ["port_bound"].fillna(""))
        ]
    return out


def assumptions_table(a: pd.DataFrame) -> pd.DataFrame:
    """The assumptions file as printed: name, value (low–high), unit, basis, scope, rationale."""
    return pd.DataFrame(
        {
            "Assumption": a["name"],
            "Value (low–high), assumed": [
                f"{fmt_number(v)} ({fmt_number(lo)}–{fmt_number(hi)})"
                for v, lo, hi in zip(a["value"], a["low"], a["high"])
            ],
            "Unit": a["unit"],
            "Basis": a["basis"],
            "Scope": a["scope"],
            "Source or rationale": a["source_or_rationale"],
        }
    )


def readings_table(r: pd.DataFrame) -> pd.DataFrame:
    """Each reading of each $-per-desktop claim (reported claim, derived consequences)."""

    def money(x):
        return f"${fmt_number(x)}" if pd.notna(x) else "—"

    return pd.DataFrame(
        {
            "Vendor": r["vendor"],
            "Claim, USD per desktop (reported)": r["claim_usd"].map(money),
            "Reading": r["reading"],
            "Desktops": r["density"].map(lambda x: fmt_number(x) if pd.notna(x) else "—"),
            "How (records)": r["derivation"].replace("", "—"),
            "Array price if this reading held (derived; not a quote)": r["implied_price_usd"].map(money),
            "Per tested desktop (derived)": r["usd_per_tested_desktop"].map(money),
            "Status": [
                ("claims table: not testable (" + str(c) + "); " if isinstance(v, str) and v else "")
                + "set aside by the register"
                for v, c in zip(r["verdict"], r["claim_id"])
            ],
            "Source": r["record_id"],
        }
    )


def cost_table(c: pd.DataFrame) -> pd.DataFrame:
    """Price per tested desktop from assumed array prices (the quote over the desktops the array
    carried in its test, or its extrapolated maximum), with the scope of each price: not the
    scenario's cost per desktop, which is the per-array answers'."""
    return pd.DataFrame(
        {
            "Vendor": c["vendor"],
            "Price, USD (assumed)": [
                f"${fmt_number(v)} (${fmt_number(lo)}–${fmt_number(hi)})"
                for v, lo, hi in zip(c["price_usd"], c["price_low"], c["price_high"])
            ],
            "Scope": c["scope"],
            "Density": c["density_case"],
            "Desktops": c["desktops"].map(fmt_number),
            "USD per tested desktop (derived)": [
                f"${fmt_number(v)} (${fmt_number(lo)}–${fmt_number(hi)})"
                for v, lo, hi in zip(c["usd_per_desktop"], c["usd_per_desktop_low"], c["usd_per_desktop_high"])
            ],
        }
    )


def io_profile_table(
    p: pd.DataFrame, phases=("boot", "login", "login_and_steady_state", "steady_state")
) -> pd.DataFrame:
    """Read share and implied KB per I/O (both derived) for the user-facing phases."""
    p = p[p["phase"].isin(phases)]
    return pd.DataFrame(
        {
            "Vendor": p["vendor"],
            "Test": p["test_id"].str.replace("_", " "),
            "Phase": _phase(p["phase"]),
            "Statistic, vantage": p["statistic"] + ", " + p["vantage"].str.replace("_", " ").replace("", "not stated"),
            "Read share (derived)": p["read_share"].map(lambda x: "" if pd.isna(x) else f"{x:.0%}"),
            "KB per I/O (derived)": p["kb_per_io"].map(lambda x: "" if pd.isna(x) else fmt_number(x)),
            "Sources": p["records"],
        }
    )


def _other_maxima(s: pd.Series) -> str:
    """The part of a density note on the maxima on averages (where its basis differs from the
    peak's) and with one controller down: what the density table's short cells leave out."""
    txt = ""
    avg = s.get("average_basis") if isinstance(s.get("average_basis"), str) else ""
    if avg and avg != s.get("peak_basis"):
        at_limit = s.get("average_bound") == "limit"
        txt += f"; on averages: {'at its limit (' + avg.replace('limit reached: ', '') + ')' if at_limit else avg}"
    fo = s.get("peak_failover_basis") if isinstance(s.get("peak_failover_basis"), str) else ""
    if fo:
        if s.get("peak_failover_bound") == "limit":
            fo = f"{s['peak_failover_max']:,.0f} desktops, at its limit ({fo.replace('limit reached: ', '')})"
        txt += f"; with one controller down: {fo}"
    return txt


def summary_sentences(summ: pd.DataFrame) -> list[str]:
    """Plain-language sentences, one per configuration, built from ``summary`` (no typed numbers)."""
    word = {"eq": "", "approx": "about ", "gt": "at least ", "lt": "at most "}
    out = []
    for _, s in summ.iterrows():
        conf = s["configuration"] if isinstance(s["configuration"], str) else ""
        name = f"{s['vendor']} {label('configuration', conf) if conf else ''}".strip()
        txt = (
            f"{name}: demonstrated {s['desktops_tested']:,.0f} desktops"
            if pd.notna(s["desktops_tested"])
            else f"{name}: no test run"
        )
        if pd.notna(s.get("desktops_failover_tested")):
            txt += f", and {s['desktops_failover_tested']:,.0f} with one controller down"
        if isinstance(s.get("busiest_resource"), str) and s["busiest_resource"]:
            at = {"lt": "", "gt": ""}.get(s["busiest_bound"], "at ")  # "at most 4 %", not "at at most"
            txt += (
                f"; busiest resource {s['busiest_resource']} "
                f"{at}{word.get(s['busiest_bound'], '')}{s['busiest_pct']:g} % "
                f"({s['busiest_phase'].replace('_', ' ')}, {s['busiest_record']})"
            )
        if s.get("peak_bound") == "limit":
            txt += f". At its limit in the test, so nothing is extrapolated ({s['peak_basis']})"
        elif pd.notna(s.get("peak_max")):
            txt += (
                ". Extrapolated from a resource that scales: "
                f"{word.get(s['peak_bound'], '')}{s['peak_max']:,.0f} desktops at peak ({s['peak_basis']})"
            )
        elif isinstance(s.get("peak_basis"), str) and s["peak_basis"].startswith("not determined"):
            txt += f". Maximum at peak {s['peak_basis']}"
        elif pd.notna(s.get("port_max")):
            txt += ". No reported resource can be extrapolated"
        else:
            txt += ". Nothing it reported can be extrapolated: only the demonstrated load stands"
        if pd.notna(s.get("port_max")):
            about = "at most" if s.get("port_bound") == "lt" else "about"
            txt += f"; port bandwidth allows {about} {s['port_max']:,.0f} ({s['port_basis']})"
            if s.get("port_bound") == "lt":
                txt += ", an upper bound: the throughput is an average, and the peak it hides would fit fewer desktops"
        if isinstance(s.get("boot_limit"), str) and s["boot_limit"]:
            txt += (
                f"; boot storm at a limit ({s['boot_limit']}): "
                "more desktops need a slower boot, not a bigger count limit"
            )
        txt += _other_maxima(s)
        if isinstance(s.get("caveat"), str) and s["caveat"]:
            txt += f"; headroom unknown for {s['caveat']}"
        if isinstance(s.get("consistency"), str) and s["consistency"]:
            txt += f"; {s['consistency']}"
        if isinstance(s.get("claims"), str) and s["claims"]:
            txt += f". Vendor claims: {s['claims']}"  # († D-…: the register entry that qualifies a claim)
        out.append(txt + ".")
    return out
