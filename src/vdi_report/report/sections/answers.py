"""Chapter 1, Answers: what a storage buyer needs, on the first page.

Scope, the planning table (IOPS per desktop by phase with the prediction interval, read share,
I/O size, latency, vendors behind it), the sizing-relevant vendor claims with verdicts, what
each array demonstrably carried, how to size N desktops, and the caveats that matter most.
"""

import pandas as pd

from .. import formatting as fmt
from ..show import block, heading, ref, say, table

ORDER = 10  # position in the report (sections/__init__.py)

# The claims a sizing rests on (claims.csv ``topic``): how many desktops an array supports and
# the load one desktop puts on it. Headroom, boot, cost, capacity and the other topics are in the
# appendix's full claims table.
SIZING_TOPICS = ("density", "per_desktop_load")
N_CAVEATS = 5  # the issue asks for the five caveats that matter most
USER_PHASES = ("boot", "login", "steady_state")


def title(ctx) -> None:
    """The title block and, in the PDF, the printed contents (filled in by render)."""
    seeds = ctx.seeds
    block(
        '<header class="vdi-title" data-date="{date}"><div class="vdi-doc-title">VDI storage: what {n_docs} vendor '
        "reference "
        'architectures show</div><div class="vdi-doc-subtitle">Report of {date} · {n_records} digitized numbers '
        "({n_seed} from these documents, {n_ext} from later ones kept apart) · every number traced to a line of "
        "a vendor document</div></header><!--vdi:toc-->",
        n_docs=len(seeds),
        date=ctx.report_date,
        n_records=fmt.num(len(ctx.results)),
        n_seed=fmt.num(int(ctx.results["source_id"].isin(seeds["source_id"]).sum())),
        n_ext=fmt.num(int((~ctx.results["source_id"].isin(seeds["source_id"])).sum())),
    )


def scope(ctx) -> None:
    s = ctx.seeds
    years = s["published"].astype(str).str[:4]
    ext = ctx.sources[ctx.sources.get("role", pd.Series("seed", index=ctx.sources.index)) == "external"]
    say(
        "**Scope.** {n_docs} vendor documents ({vendors}), arrays of {years}, each figure from a single test run "
        "(no document reports repeated runs or their spread). Load tool, desktop OS and broker per document: "
        "{per_doc}. {ext_line}",
        n_docs=len(s),
        vendors=fmt.words(s["vendor"] + " " + s["array"]),
        years="–".join(dict.fromkeys([min(years), max(years)])),
        per_doc="; ".join(
            f"{r.vendor}: " + " / ".join(str(x).replace("; ", " + ") for x in (r.load_tool, r.guest_os, r.broker))
            for r in s.itertuples()
        ),
        ext_line=(
            ""
            if ext.empty
            else f"{len(ext)} later documents "
            f"({fmt.words(ext['vendor'] + ' ' + ext['document_number'] + ': ' + ext['array'])}) are kept apart as an "
            "out-of-sample check, never pooled with these."
        ),
    )


def _pi_label() -> str:
    from ...models import iops

    return fmt.pct(1 - iops.PI_ALPHA)


def planning_table(ctx) -> pd.DataFrame:
    """The model stage's planning table (``iops_per_desktop_model.csv``) for the report's worker
    class (or the pooled ``any`` rows): one row per phase and statistic.

    Columns: Phase, Statistic, Estimate (interval), Unit, Read share, KB per I/O, Latency (ms),
    Vendors (IOPS). Read share, I/O size and latency are the model stage's figures for the row's
    phase, each followed by the number of vendors behind it.
    """
    from ...models import boot, iops

    wc = ctx.params["worker_class"]
    p = ctx.pred
    p = p[p["worker_class"].isin([wc, iops.ANY_CLASS])]
    order = {ph: i for i, ph in enumerate(ctx.vocabulary_order("phase"))}
    p = p.assign(_o=p["phase"].map(order)).sort_values(["_o", "statistic"], kind="stable")
    return pd.DataFrame(
        {
            "Phase": [ctx.label("phase", x) for x in p["phase"]],
            "Statistic": [boot.STATISTIC_LABELS.get(x, ctx.label("statistic", x)) for x in p["statistic"]],
            "Estimate (interval)": [
                fmt.interval(e, lo, hi) + _clone_note(ctx, v)
                for e, lo, hi, v in zip(p["estimate"], p["pi90_low"], p["pi90_high"], p["vendors"])
            ],
            "Unit": p["unit"],
            "Read share (derived)": _with_vendors(
                p["read_share"].map(lambda x: "–" if pd.isna(x) else fmt.pct(x)), p["read_share_vendors"]
            ),
            "KB per I/O (derived)": _with_vendors(
                p["io_size_kb"].map(lambda x: "–" if pd.isna(x) else fmt.num(x)), p["io_size_vendors"]
            ),
            "Latency, ms": _with_vendors(
                p["latency_ms"].map(lambda x: "–" if pd.isna(x) else fmt.num(x)), p["latency_vendors"]
            ),
            "Vendors (IOPS)": p["n_vendors"].map(lambda x: "–" if pd.isna(x) else str(int(x))),
        }
    )


def _clone_note(ctx, vendors: str) -> str:
    """`` — full clones only`` when the vendors behind a row tested one clone type and the other
    seed documents another (e.g. I/O per boot from a full-clone document alone)."""
    from ..tables import CLONE_LABELS

    clones = dict(zip(ctx.seeds["vendor"], ctx.seeds["clone_type"]))
    behind = {clones.get(v) for v in str(vendors).split(", ") if v in clones}
    if len(behind) == 1 and set(clones.values()) - behind:
        (c,) = behind
        return f", {CLONE_LABELS.get(c, c)} only"
    return ""


def _with_vendors(cells: pd.Series, vendors: pd.Series) -> list[str]:
    """Each cell with the number of vendors behind it in parentheses (``10 % (1)``)."""
    return [c if c == "–" else f"{c} ({len([x for x in v.split(', ') if x])})" for c, v in zip(cells, vendors)]


def claims_table(ctx) -> pd.DataFrame:
    """One line per claim of a seed document whose topic is in ``SIZING_TOPICS``: Vendor, Claim
    (reported), Verdict, Why (the document's own data), Id.

    Why: the first sentence of the evidence against (verdicts other than *supported*) or for.
    """
    c = ctx.claims.merge(ctx.sources[["source_id", "vendor"]], on="source_id", how="left")
    c = c[c["topic"].isin(SIZING_TOPICS) & c["source_id"].isin(ctx.seeds["source_id"])]
    why = [
        fmt.first_sentence(f if v == "supported" else a or f, limit=120)
        for v, f, a in zip(c["verdict"], c["evidence_for"].fillna(""), c["evidence_against"].fillna(""))
    ]
    verdict = [f'<span class="vdi-verdict vdi-verdict-{v.replace(" ", "-")}">{v}</span>' for v in c["verdict"]]
    return pd.DataFrame(
        {
            "Vendor": c["vendor"],
            "Claim (reported)": c["claim"],
            "Verdict": verdict,
            "Why (the document's own data)": why,
            "Id": c["claim_id"],
        }
    ).reset_index(drop=True)


def carried_table(ctx) -> pd.DataFrame:
    """What each array demonstrably carried in its own test (normal operation), one row per seed
    document: Vendor, Array, Desktops tested (reported), Highest peak IOPS (reported: the highest
    peak not at the array back end, with phase, configuration and vantage), Busiest resource at
    peak (reported: the highest peak utilization, with phase and configuration; a figure whose
    statement the claims table rates not testable is left out), Steady-state average latency
    (reported: steady-state averages, else the login + steady-state run's, with the sign of a
    bound and the vantage of each value)."""
    from ..tables import CLONE_LABELS, VANTAGE_LABELS, fmt_value

    def where(phase, conf, vantage=""):
        bits = [
            ctx.label("phase", phase).lower(),
            ctx.label("configuration", conf) if conf else "",
            VANTAGE_LABELS.get(vantage, "") if vantage else "",
        ]
        return ", ".join(b for b in bits if b)

    t = ctx.tests[(ctx.tests["condition"] == "normal")]
    rows = []
    for _, s in ctx.seeds.iterrows():
        ts = t[t["source_id"] == s["source_id"]].copy()
        ts["_pk"] = pd.to_numeric(ts["peak_iops"], errors="coerce")
        fe = ts[ts["peak_iops_vantage"] != "array_backend"].dropna(subset=["_pk"])
        best = fe.sort_values("_pk", ascending=False).head(1)
        d = ctx.density[
            (ctx.density["source_id"] == s["source_id"])
            & (ctx.density["condition"] == "normal")
            & (ctx.density["statistic"] == "peak")
            & (ctx.density["claim_id"] == "")
            & (ctx.density["phase_kind"] == "user")
        ]
        busiest = d.sort_values(["utilization_pct", "record_id"], ascending=[False, True]).head(1)
        r = ctx.results
        lat = r[
            (r["source_id"] == s["source_id"])
            & (r["metric"] == "latency")
            & (r["statistic"] == "average")
            & r["used_in_analysis"]
            & (r["condition"] == "normal")
            & (r["vantage"] != "array_backend")
        ]
        steady = lat[lat["phase"] == "steady_state"]
        lat = steady if len(steady) else lat[lat["phase"] == "login_and_steady_state"]
        lat_cells = []
        for (phase, vantage), g in lat.groupby(["phase", "vantage"], sort=True):
            exact = g[g["bound"].isin(["eq", "approx"])]  # a bound ("under 0.6 ms") only where no value is stated
            span = (
                fmt.span(exact["value"])
                if len(exact)
                else ", ".join(dict.fromkeys(fmt_value(v, "", b).strip() for v, b in zip(g["value"], g["bound"])))
            )
            at = where(phase, "", vantage) if phase != "steady_state" else VANTAGE_LABELS.get(vantage, vantage)
            lat_cells.append(f"{span} ms ({at})")
        rows.append(
            {
                "Vendor": s["vendor"],
                "Array": s["array"],
                "Desktops tested (reported)": (
                    f"{fmt.num(s['desktops'])} {CLONE_LABELS.get(s['clone_type'], s['clone_type'])}"
                ),
                "Highest peak IOPS (reported)": (
                    "–"
                    if best.empty
                    else f"{fmt_value(best['_pk'].iloc[0], 'IOPS', best['peak_iops_bound'].iloc[0])} "
                    + "("
                    + where(best["phase"].iloc[0], best["configuration"].iloc[0], best["peak_iops_vantage"].iloc[0])
                    + ")"
                ),
                "Busiest resource at peak (reported)": (
                    "not reported"
                    if busiest.empty
                    else f"{busiest['resource'].iloc[0]} "
                    f"{fmt_value(busiest['utilization_pct'].iloc[0], '%', busiest['bound'].iloc[0])} "
                    f"({where(busiest['phase'].iloc[0], busiest['configuration'].iloc[0])})"
                ),
                "Steady-state average latency (reported)": "; ".join(lat_cells) or "–",
            }
        )
    return pd.DataFrame(rows)


def caveats(ctx) -> list[str]:
    """The ``N_CAVEATS`` comparability traps of the audit register, one per document in turn
    (documents in sources.csv order): each entry's impact, with its id."""
    reg = ctx.register[ctx.register["category"] == "comparability"]
    order = {s: i for i, s in enumerate(ctx.seeds["source_id"])}
    reg = reg[reg["source_id"].isin(order)].copy()
    reg["_rank"] = reg.groupby("source_id").cumcount()
    reg["_doc"] = reg["source_id"].map(order)
    reg = reg.sort_values(["_rank", "_doc"]).head(N_CAVEATS)
    vendor = ctx.sources.set_index("source_id")["vendor"]
    return [f"**{vendor[r['source_id']]}** ({r['id']}): {r['impact']}" for _, r in reg.iterrows()]


def sizing(ctx) -> None:
    from .models import fmt_how

    say(
        "**How to size {desktops} desktops.** {how} The HTML report's calculator ({calc}) recomputes this for any "
        "desktops, worker class, concurrency, headroom, boot window, RAID level and failover, with the same formulas; "
        "the PDF shows the report parameters' scenario.",
        desktops=fmt.num(ctx.params["desktops"]),
        how=fmt_how(ctx),
        calc='<a href="#sizing-calculator">Models: sizing calculator</a>',
    )
    table(
        sizing_table(ctx),
        "Sizing scenario of the report parameters (model)",
        "answers-scenario",
        {
            "Phase": "12%",
            "Front-end IOPS (model, PI)": "22%",
            "Read share": "9%",
            "Back-end IOPS (model)": "13%",
            "Throughput, MB/s (model)": "12%",
            "Demonstrably carried by (reported)": "32%",
        },
    )


def _carried_names(ctx, carried_by: str) -> str:
    """``scenario.size``'s carried_by (``array (IOPS, record); ...``) as vendor and array names,
    a document's configurations in one parenthesis: ``Hitachi Data Systems VSP G600 with active
    flash (Config 1, Config 2), NetApp AFF8040``."""
    demo = pd.DataFrame(ctx.sizing_inputs["demonstrated"])
    if demo.empty:
        return carried_by
    d = demo[[f", {r})" in carried_by for r in demo["record_id"]]]
    if d.empty:
        return carried_by
    arrays = dict(zip(ctx.seeds["vendor"], ctx.seeds["array"]))
    names = []
    for vendor, g in d.groupby("vendor", sort=False):
        confs = [ctx.label("configuration", c) for c in dict.fromkeys(g["configuration"].fillna("")) if c]
        names.append(f"{vendor} {arrays.get(vendor, '')}".strip() + (f" ({', '.join(confs)})" if confs else ""))
    return ", ".join(names)


def sizing_table(ctx) -> pd.DataFrame:
    """``scenario.size`` of the report parameters, compact: Phase, Front-end IOPS (model, PI),
    Read share, Back-end IOPS (model), Throughput, and the arrays that demonstrably carried the
    front-end estimate in their own test (names only; the Models chapter gives the records)."""
    s = ctx.sizing
    carried = [_carried_names(ctx, c) for c in s["carried_by"]]
    return pd.DataFrame(
        {
            "Phase": [ctx.label("phase", p) for p in s["phase"]],
            "Front-end IOPS (model, PI)": [
                fmt.interval(e, lo, hi)
                for e, lo, hi in zip(s["fe_iops"], s["fe_iops_pi90_low"], s["fe_iops_pi90_high"])
            ],
            "Read share": s["read_share"].map(fmt.pct),
            "Back-end IOPS (model)": s["be_iops"].map(fmt.num),
            "Throughput, MB/s (model)": s["throughput_mbps"].map(fmt.num),
            "Demonstrably carried by (reported)": carried,
        }
    )


def render(ctx) -> None:
    """Title block and chapter 1."""
    title(ctx)
    heading(1, "Answers", "answers")
    scope(ctx)
    from ...models import iops
    from ..tables import VANTAGE_LABELS

    obs, pred = ctx.obs, ctx.pred
    pooled = (pred.loc[pred["phase"] != "boot", "worker_class"] == iops.ANY_CLASS).all()
    spec = pred.loc[pred["phase"] != "boot", "spec"].iloc[0]
    vantages = [VANTAGE_LABELS.get(v, v) for v in obs["vantage"].value_counts().index if v]
    say(
        "**Planning figures** for a {wc} (the report's worker class{pooled}): front-end IOPS per concurrent desktop "
        "by phase with the {pi} interval of the cross-vendor model ({ref_model}){vantage}; boot storms per desktop "
        "booted per minute; read share, I/O size and latency of the phase, each with the number of vendors behind it "
        "in parentheses; the number of vendors behind each IOPS estimate.",
        wc=ctx.label("worker_class", ctx.params["worker_class"]).lower(),
        pi=_pi_label(),
        ref_model=ref("model-prediction"),
        pooled=(
            "; the model pools the worker classes, each tested by one vendor only, so these figures are the same "
            "for every class"
            if pooled
            else ""
        ),
        vantage=(
            f", observations at the {fmt.words(vantages)} pooled as the front end (the model-selection "
            f"criteria chose the {spec} specification over one with a vantage effect)"
            if len(vantages) > 1 and spec != "vantage"
            else ""
        ),
    )
    table(
        planning_table(ctx),
        "Planning figures per concurrent desktop",
        "planning",
        {
            "Phase": "12%",
            "Statistic": "10%",
            "Estimate (interval)": "21%",
            "Unit": "16%",
            "Read share (derived)": "9%",
            "KB per I/O (derived)": "10%",
            "Latency, ms": "9%",
            "Vendors (IOPS)": "9%",
        },
    )
    table(
        carried_table(ctx),
        "What each array demonstrably carried in its own test",
        "carried",
        {
            "Vendor": "10%",
            "Array": "12%",
            "Desktops tested (reported)": "13%",
            "Highest peak IOPS (reported)": "22%",
            "Busiest resource at peak (reported)": "20%",
            "Steady-state average latency (reported)": "23%",
        },
    )
    sizing(ctx)
    table(
        claims_table(ctx),
        "The vendors' sizing claims against their own data",
        "answers-claims",
        {
            "Vendor": "10%",
            "Claim (reported)": "33%",
            "Verdict": "11%",
            "Why (the document's own data)": "36%",
            "Id": "10%",
        },
    )
    say(
        "**The caveats that matter most** (comparability traps from the audit register, {ref_reg}):\n\n{items}",
        ref_reg='<a href="#appendix-register">Appendix</a>',
        items="\n".join(f"- {c}" for c in caveats(ctx)),
    )
