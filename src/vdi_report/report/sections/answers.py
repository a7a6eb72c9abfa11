"""Chapter 1, Answers: what a storage buyer needs, on the first page.

Scope, the planning table (IOPS per desktop by phase with the prediction interval, read share,
I/O size, latency, vendors behind it), the sizing-relevant vendor claims with verdicts, what
each array demonstrably carried, how to size N desktops, and the caveats that matter most.
"""

from pathlib import Path

import pandas as pd

from ... import config
from .. import formatting as fmt
from ..show import block, figure, fill, heading, ref, say, table

ORDER = 10  # position in the report (sections/__init__.py)

# The claims a sizing rests on (claims.csv ``topic``): how many desktops an array supports and
# the load one desktop puts on it. Headroom, boot, cost, capacity and the other topics are in the
# appendix's full claims table.
SIZING_TOPICS = ("density", "per_desktop_load")
N_CAVEATS = 5  # the issue asks for the five caveats that matter most


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
    """Page 1's scope: the seed documents, their years and load tools, one run per figure, and the
    later documents as the modern era's evidence (its own rows, never pooled with the seed rows).
    Guest OS and broker per document: the Models chapter (what each observation was measured with)."""
    s = ctx.seeds
    years = s["published"].astype(str).str[:4]
    ext = ctx.sources[ctx.sources.get("role", pd.Series("seed", index=ctx.sources.index)) == "external"]
    used = _sources_of(ctx, ctx.plan[ctx.plan["era"] == "modern"])  # the documents of the rows a sizing reads
    other = ext[~ext["source_id"].isin(used["source_id"])]
    say(
        "**Scope.** {n_docs} vendor documents ({vendors}), arrays of {years}, each figure from a single test run "
        "(no document reports repeated runs or their spread); load tool: {tools}. {ext_line}",
        n_docs=len(s),
        tools="; ".join(f"{r.vendor} {str(r.load_tool).replace('; ', ' + ')}" for r in s.itertuples()),
        vendors=fmt.words(s["vendor"] + " " + s["array"]),
        years="–".join(dict.fromkeys([min(years), max(years)])),
        ext_line=(
            ""
            if ext.empty
            else fill(
                "{n} later documents of one lab ({docs}) give the modern rows, kept apart from the seed rows (eras are "
                "never pooled){other}.",
                n=fmt.num(len(used)),
                docs=fmt.words(_doc_years(used)),
                other=(
                    fill("; {o} is digitized and enters no default row", o=fmt.words(_doc_years(other)))
                    if len(other)
                    else ""
                ),
            )
        ),
    )


def _sources_of(ctx, rows: pd.DataFrame) -> pd.DataFrame:
    """The sources.csv rows of the documents behind planning ``rows`` (their ``documents``
    column: document labels joined by ``", "``), in sources.csv's order."""
    from ...models import iops

    labels = iops.document_labels(ctx.sources)
    names = set(rows["documents"].str.split(", ").explode().dropna())
    return ctx.sources[ctx.sources["source_id"].map(labels).isin(names)]


def _doc_years(docs: pd.DataFrame) -> pd.Series:
    """``Nutanix RA-2022 (2024)``: vendor, document number and year of publication per document."""
    return docs["vendor"] + " " + docs["document_number"] + " (" + docs["published"].astype(str).str[:4] + ")"


def _pi_label() -> str:
    from ...models import iops

    return fmt.pct(1 - iops.PI_ALPHA)


def _labs(n) -> str:
    return f"{int(n)} lab" + ("" if int(n) == 1 else "s")


def _names_labs(spans: str) -> bool:
    """Whether an ``interval_spans`` text already says how many labs ("one lab's runs", "range of
    2 labs"), so the cell need not repeat the count."""
    import re

    return bool(re.match(r"(one lab's|range of \d+ labs)", str(spans)))


def boot_share_clause(ctx) -> str:
    """Where the modern boot rows' read share comes from, as a clause for the planning table's
    note: the documents behind it (``read_share_vendors``) when it is a boot's own split
    (``read_share_basis`` starting with "boot charts"), else "" (the basis column says assumed)."""
    p = ctx.plan
    b = p[(p["era"] == "modern") & (p["phase"] == "boot")]
    if not len(b) or not str(b["read_share_basis"].iloc[0]).startswith("boot charts"):
        return ""
    # ctx.plan holds the rows a sizing reads (era.sizing_rows): one modern whole-run row, MCS's,
    # or MCS and Provisioning pooled under provisioning_pooling=pooled
    w = p[(p["era"] == "modern") & (p["phase"] == "full_run")]
    whole = (
        fill(", not the whole runs' ({share})", share=fmt.pct(w["read_share"].iloc[0]))
        if len(w) == 1 and pd.notna(w["read_share"].iloc[0])
        else ""
    )
    return fill(
        "; the modern boot's read share ({share}) is the boot charts' of {docs} (a boot runs no Login "
        "Enterprise session, so that edition's probe setting does not reach it){whole}",
        share=fmt.pct(b["read_share"].iloc[0]),
        docs=b["read_share_vendors"].iloc[0],
        whole=whole,
    )


def task_worker_sentence(ctx) -> str:
    """What an architect sizing task workers is told: the documents' task-worker figures (the
    model's observations of worker class ``task``, which no planning row pools) with their
    vantage and records, beside the seed knowledge row of the same phase; "" when there are none.
    Login VSI defines the task worker as a lighter workload than the knowledge worker, so the
    knowledge rows size task workers conservatively: no task-worker estimate is made."""
    o = ctx.obs[ctx.obs["worker_class"] == "task"]
    if not len(o):
        return ""
    p = ctx.plan
    parts = []
    for _, t in o.iterrows():
        k = p[(p["era"] == "seed") & (p["phase"] == t["phase"]) & (p["statistic"] == t["statistic"])]
        knowledge = (
            fill(" (the seed knowledge row of that phase: {k}, front end)", k=fmt.num(k["estimate"].iloc[0]))
            if len(k)
            else ""
        )
        lo, hi = t["low"], t["high"]
        parts.append(
            fill(
                "the sampled task desktops of {vendor}, {phase} {stat}: {v} IOPS per desktop{rng}, {vantage} vantage "
                "({ids}){kn}",
                vendor=t["vendor"],
                phase=ctx.label("phase", t["phase"]).lower(),
                stat=ctx.label("statistic", t["statistic"]).lower(),
                v=fmt.num(t["iops_per_desktop"]),
                rng="" if pd.isna(lo) or lo == hi else fill(" ({lo}–{hi})", lo=fmt.num(lo), hi=fmt.num(hi)),
                vantage=ctx.label("vantage", t["vantage"]),
                ids=t["record_ids"],
                kn=knowledge,
            )
        )
    return fill(
        "**Task workers** have no planning row: the documents hold {n} task-worker {figs}, {what}, from one lab. "
        "Login VSI defines the task worker as a lighter workload than the knowledge worker, so the knowledge rows "
        "size task workers conservatively; no task-worker figure is estimated (each Login VSI class was tested by "
        "one vendor only). Better: measure your task workers and size with `PROFILE_FILE`.",
        n=fmt.num(len(parts)),
        figs="figure" if len(parts) == 1 else "figures",
        what="; ".join(parts),
    )


def planning_table(ctx) -> pd.DataFrame:
    """The model stage's planning table (``iops_per_desktop_model.csv``), one line per cell with
    the two eras side by side (never pooled): Phase, Statistic, Unit, Seed and Modern (estimate
    with its interval and the number of documents behind it and how the interval was formed; the
    clone type where a seed row rests on one), Modern ÷ seed (with the range the two intervals
    allow), and Read share, KB per I/O and Latency as ``seed / modern``.
    """
    from ...models import boot

    p = ctx.plan
    order = {ph: i for i, ph in enumerate(ctx.vocabulary_order("phase"))}
    cells = p.assign(_o=p["phase"].map(order)).sort_values(["_o", "statistic"], kind="stable")
    cells = cells.drop_duplicates("cell")["cell"]

    def fig(r, col, f):
        if r is None:
            return "–"
        v = r[col]
        return "–" if pd.isna(v) else f(v)

    rows = []
    for cell in cells:
        by = {
            e: (g.iloc[0] if len(g) else None)
            for e, g in ((e, p[(p["era"] == e) & (p["cell"] == cell)]) for e in config.ERAS)
        }
        any_r = by["seed"] if by["seed"] is not None else by["modern"]

        def est(r, era):
            if r is None:
                return "–"
            return (
                fmt.interval(r["estimate"], r["pi90_low"], r["pi90_high"], "gt" if r["bound"] == "gt" else "eq")
                + (_clone_note(ctx, r["vendors"]) if era == "seed" else "")
                + f"; {int(r['n_documents'])} doc."
                + ("" if _names_labs(r["interval_spans"]) else ", " + _labs(r["n_labs"]))
                + (
                    f": {r['interval_spans']}"
                    if r["interval_spans"] not in SHORT_SPANS
                    else SHORT_SPANS[r["interval_spans"]]
                )
            )

        m = by["modern"]
        rows.append(
            {
                "Phase": "; ".join(dict.fromkeys(ctx.label("phase", r["phase"]) for r in by.values() if r is not None)),
                "Statistic": boot.STATISTIC_LABELS.get(any_r["statistic"], ctx.label("statistic", any_r["statistic"])),
                "Unit": any_r["unit"],
                "Seed": est(by["seed"], "seed"),
                "Modern": est(m, "modern"),
                "Modern ÷ seed": "–"
                if m is None or pd.isna(m["ratio_to_seed"])
                else f"{m['ratio_to_seed']:.1f}× ({m['ratio_low']:.1f}–{m['ratio_high']:.1f}×)",
                "Read share (derived), seed / modern": " / ".join(
                    fig(by[e], "read_share", fmt.pct) for e in config.ERAS
                ),
                "KB per I/O (derived), seed / modern": " / ".join(
                    fig(by[e], "io_size_kb", fmt.num) for e in config.ERAS
                ),
                "Latency, ms, seed / modern": " / ".join(fig(by[e], "latency_ms", fmt.num) for e in config.ERAS),
            }
        )
    return pd.DataFrame(rows)


PROVISIONING_WORDS = {"mcs": "Citrix MCS", "pvs": "Citrix Provisioning"}


SHORT_SPANS = {  # a planning row's interval_spans in Table 1's cells, where width is short: named in the note
    "prediction interval for a new lab": "",  # the note under the table names them once
    "prediction interval for a new lab, τ² borrowed from the seed labs": "*",
}


def _unique(values) -> list[str]:
    return [v for v in dict.fromkeys(str(x) for x in values) if v]


def harness_sentences(ctx) -> str:
    """Page 1 in words (issue 24): which lab, harness, provisioning and profile location the
    default (modern) rows describe, each from tests.csv's sourced columns (data/raw/test_setup.csv);
    the within-lab Provisioning ÷ MCS ratio and read shares from the planning table; what changes
    for an architect's own deployment, and how sure each row is (its interval_spans)."""
    from ...models import era

    plan = ctx.plan_all
    m = ctx.plan[ctx.plan["era"] == "modern"]
    if m.empty:
        return ""
    t = ctx.tests
    mod = t[t["source_id"].isin(ctx.sources.loc[ctx.sources["role"] == "external", "source_id"])]
    mod = mod[mod["source_id"].isin(_sources_of(ctx, m)["source_id"])]  # the documents of the default rows
    mcs = mod[mod["provisioning"] == era.SIZING_PROVISIONING]
    labels = dict(zip(ctx.sources["source_id"], ctx.sources["vendor"] + " " + ctx.sources["document_number"]))
    tools = _unique(mcs["load_tool"])
    probes = mcs.drop_duplicates("source_id")
    prof = mcs[mcs["profile_storage"] != ""].drop_duplicates(["source_id", "profile_storage"])
    whole = plan[(plan["era"] == "modern") & (plan["cell"] == era.WHOLE_TEST)].set_index("provisioning")
    out = [
        fill(
            "**What the default rows describe.** The modern rows (`ERA=modern`) come from {n_labs}, {lab} ({docs}): "
            "{tools}, with the harness's probe actions changed from the defaults (the documents: the default EUX "
            "measurements 'significantly affect the performance, especially CPU and storage'; {probe_src}); Citrix "
            "MCS desktops (Provisioning runs are rows of their own: {regs}); user profiles {prof}.",
            lab=fmt.words(_unique(m["labs"].str.split(", ").explode())),
            regs=", ".join(era.PROVISIONING_REGISTER),
            n_labs=f"{fmt.num(int(m['n_labs'].max()))} lab{'s' if m['n_labs'].max() > 1 else ''}",
            docs=fmt.words(_unique(mcs["source_id"].map(labels))),
            tools=" / ".join(tools) or "load tool not stated",
            probe_src=", ".join(
                f"{labels[r.source_id]} {r.probes_source}" for r in probes.itertuples() if r.probes_source
            ),
            prof=(
                "where "
                + fmt.words(
                    [
                        f"{labels[r.source_id]} says ({r.profile_storage.replace('_', ' ')}, {r.configuration})"
                        for r in prof.itertuples()
                    ]
                )
                + "; not stated in the others"
                if len(prof)
                else "not stated"
            ),
        )
    ]
    if {"mcs", "pvs"} <= set(whole.index):
        out.append(
            fill(
                "In the same lab, Provisioning's whole runs averaged {r}× MCS's per desktop (read share {pr} against "
                "{mr}: Provisioning serves reads from the provisioning server's memory).",
                r=f"{whole.at['pvs', 'estimate'] / whole.at['mcs', 'estimate']:.2f}",
                pr=fmt.pct(whole.at["pvs", "read_share"]),
                mr=fmt.pct(whole.at["mcs", "read_share"]),
            )
        )
    out.append(
        fill(
            "How sure each row is{new_lab}: {spans}. For your own deployment, the probes switched off, profiles on "
            "a separate file service or "
            "Citrix Provisioning change the demand by amounts these documents do not separate across labs: measure "
            "your own and size with `PROFILE_FILE` (with the login window your peak was measured over).",
            spans="; ".join(
                fmt.words(
                    f"{ctx.label('phase', r.phase).lower()} {boot_label(r.statistic).lower()}" for r in g.itertuples()
                )
                + f": {spans}"
                for spans, g in m.groupby("interval_spans", sort=False)
            ),
            new_lab=(
                ""
                if m["tau2_source"].isin(["seed cell", "seed median"]).any()
                else fill(
                    " (no row has a prediction interval for a new lab: a modern row rests on {n} lab)",
                    n=fmt.num(int(m["n_labs"].max())),
                )
            ),
        )
    )
    return " ".join(out)


def boot_label(statistic: str) -> str:
    from ...models import boot

    return boot.STATISTIC_LABELS.get(statistic, statistic.replace("_", " "))


def _years(docs: pd.DataFrame) -> str:
    """``2016–2018``: the first and last publication years of ``docs`` (sources.csv rows)."""
    y = docs["published"].astype(str).str[:4]
    return "–".join(dict.fromkeys([y.min(), y.max()]))


def era_sentences(ctx) -> tuple[str, str]:
    """Page 1 in words, every number from the planning table: (before the table) what a
    2016–2018 desktop needed, what the modern documents measured and their ratio, which rows to
    plan with; (after it) what the ratio cannot separate and the boot unit explained once with a
    worked line."""
    from ...models import era

    p = ctx.plan.set_index(["era", "cell"])

    def row(e, cell):
        return p.loc[(e, cell)] if (e, cell) in p.index else None

    def iv(r):
        return fill("{lo}–{hi}", lo=fmt.num(r["pi90_low"]), hi=fmt.num(r["pi90_high"]))

    seed_w, mod_w = row("seed", era.WHOLE_TEST), row("modern", era.WHOLE_TEST)
    seed_l, mod_l = row("seed", "login peak"), row("modern", "login peak")
    boot_m = row(ctx.params["era"], era.BOOT_CELLS["peak_per_rate"])
    before = []
    if seed_w is not None and mod_w is not None:
        before.append(
            fill(
                "A {sy} knowledge-worker desktop averaged {sw} front-end IOPS over a whole Login VSI run ({swi}, "
                "{swn} documents, {swl} labs); the {my} documents measured {mw} over a whole Login Enterprise run of "
                "{prov} desktops ({mwi}, {spans}: {mwn} documents of {mwl} lab{mwls}): {ratio}× as much "
                "({rlo}–{rhi}×).",
                sy=_years(ctx.seeds),
                my=_years(_sources_of(ctx, pd.DataFrame([mod_w]))),
                sw=fmt.num(seed_w["estimate"]),
                swi=iv(seed_w),
                swn=fmt.num(seed_w["n_documents"]),
                mw=fmt.num(mod_w["estimate"]),
                mwi=iv(mod_w),
                mwn=fmt.num(mod_w["n_documents"]),
                swl=fmt.num(seed_w["n_labs"]),
                mwl=fmt.num(mod_w["n_labs"]),
                mwls="s" if mod_w["n_labs"] > 1 else "",
                spans=mod_w["interval_spans"],
                prov=" and ".join(PROVISIONING_WORDS.get(x, x) for x in str(mod_w["provisioning"]).split("+")),
                ratio=f"{mod_w['ratio_to_seed']:.1f}",
                rlo=f"{mod_w['ratio_low']:.1f}",
                rhi=f"{mod_w['ratio_high']:.1f}",
            )
        )
    if seed_l is not None and mod_l is not None and mod_l["pi90_low"] > seed_l["pi90_high"]:
        before.append(
            fill(
                "Even the lower bound of the modern login peak, {mlo}, lies above the seed range ({sll}–{slh}).",
                mlo=fmt.num(mod_l["pi90_low"]),
                sll=fmt.num(seed_l["pi90_low"]),
                slh=fmt.num(seed_l["pi90_high"]),
            )
        )
    before.append(
        fill(
            "Plan today's desktops with the modern rows (this report sizes with the {era} rows, `ERA`), better with "
            "your own assessment (`PROFILE_FILE`); the seed rows describe the {sy} arrays' tests.",
            era=ctx.label("era", ctx.params["era"]).lower(),
            sy=_years(ctx.seeds),
        )
    )
    after = [fill("The modern ÷ seed ratio cannot separate {what}.", what=era.NOT_SEPARABLE)]
    if boot_m is not None:
        rate = 100
        after.append(
            fill(
                "Boot is sized per desktop booted per minute: booting {rate} desktops per minute at {per} IOPS per "
                "desktop booted per minute asks for {rate} × {per} = {tot} front-end IOPS.",
                rate=fmt.num(rate),
                per=f"{boot_m['estimate']:,.1f}",
                tot=fmt.num(rate * round(boot_m["estimate"], 1)),
            )
        )
    return " ".join(before), " ".join(after)


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

    Why: the whole evidence against (verdicts other than *supported*) or for, as the claims table
    states it (no clause cut away).
    """
    c = ctx.claims.merge(ctx.sources[["source_id", "vendor"]], on="source_id", how="left")
    c = c[c["topic"].isin(SIZING_TOPICS) & c["source_id"].isin(ctx.seeds["source_id"])]
    why = [
        (f if v == "supported" else a or f).strip()
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
    say(
        "**How to size {desktops} desktops.** {how} The HTML report's calculator ({calc}) recomputes this for any "
        "era, per-phase figures (yours or the era's), desktops, concurrency, headroom, boot and login windows, RAID "
        "level and failover, with the same formulas; "
        "the PDF shows the report parameters' scenario.",
        desktops=fmt.num(ctx.params["desktops"]),
        how=fmt_how(ctx),
        calc='<a href="#sizing-calculator">Models: sizing calculator</a>',
    )
    table(
        sizing_table(ctx),
        "Sizing scenario of the report parameters (* a rate outside the documents' tested rates)",
        "answers-scenario",
        {
            "Phase": "14%",
            "Desktops (rate per minute)": "18%",
            "Front-end IOPS (PI)": "28%",
            "Read share": "12%",
            "Back-end IOPS": "14%",
            "Throughput, MB/s": "14%",
        },
    )


def fmt_how(ctx) -> str:
    """The scenario's formulas in words, with the report parameters and where its figures come
    from (the era's planning rows or the architect's profile), and its rate warnings (prose)."""
    p, inputs = ctx.params, ctx.sizing_inputs
    sz = ctx.sizing
    login = sz[sz["phase"] == "login"].iloc[0]
    figures = (
        f"the figures of your profile `{Path(p['profile_file']).name}` (no interval)"
        if p["profile_file"]
        else f"the {ctx.label('era', p['era'])} planning rows"
    )
    warnings = [w for w in sz["warning"] if w]
    return (
        f"{fmt.num(p['desktops'])} knowledge-worker desktops, sized with {figures}; "
        f"{fmt.pct(p['concurrency'])} active at once, {fmt.pct(p['headroom'])} headroom, every desktop booted "
        f"within {fmt.num(p['boot_window_min'])} minutes, the active users logged in within "
        f"{fmt.num(p['login_window_min'])} minutes, RAID: {p['raid']} (write penalty "
        f"{inputs['write_penalty'][p['raid']]}), failover: {p['failover']}. "
        "Boot: (all desktops ÷ boot window) × peak IOPS per desktop booted per minute (an outage reboots every "
        "provisioned desktop, not the concurrent fraction); login: active desktops × login peak per desktop × "
        f"(the documents' login window, {fmt.num(login['reference_login_window_min'])} minutes, ÷ the login "
        "window), "
        "i.e. login rate × peak per desktop × reference window, so login demand grows with the login rate as boot "
        "demand with the boot rate; steady state: active desktops × average IOPS per desktop; active desktops = "
        "desktops × concurrency; everything ÷ (1 − headroom); back end = front end × (read share + (1 − read share) "
        "× write penalty); throughput = front end × I/O size."
        + (" **Extrapolated:** " + "; ".join(warnings) + "." if warnings else "")
    )


def sizing_table(ctx) -> pd.DataFrame:
    """``scenario.size`` of the report parameters, compact: Phase, Desktops (all provisioned for
    boot, active for login and steady state) with the boot or login rate (``*`` when outside the
    documents' tested rates), Front-end IOPS (PI), Read share, Back-end IOPS, Throughput. Which
    arrays carry it: the per-array answers (``verdict_table``), held to what each demonstrably
    carried in any user phase."""
    s = ctx.sizing
    rate = s["boot_rate_per_min"].fillna(s["login_rate_per_min"])
    return pd.DataFrame(
        {
            "Phase": [ctx.label("phase", p) for p in s["phase"]],
            "Desktops (rate per minute)": [
                fmt.num(d) + ("" if pd.isna(r) else f" ({fmt.num(r)}{' *' if w else ''})")
                for d, r, w in zip(s["desktops_sized"], rate, s["warning"])
            ],
            "Front-end IOPS (PI)": [
                fmt.bounded(e, b) if b == "gt" and pd.notna(e) else fmt.interval(e, lo, hi)
                for e, lo, hi, b in zip(s["fe_iops"], s["fe_iops_pi90_low"], s["fe_iops_pi90_high"], s["bound"])
            ],
            "Read share": s["read_share"].map(lambda x: "–" if pd.isna(x) else fmt.pct(x)),
            "Back-end IOPS": [
                "not known" if pd.isna(x) else fmt.bounded(x, b if b == "gt" else "eq")
                for x, b in zip(s["be_iops"], s["bound"])
            ],
            "Throughput, MB/s": s["throughput_mbps"].map(lambda x: "not known" if pd.isna(x) else fmt.num(x)),
        }
    )


def choices_line(ctx) -> None:
    """Which analysis choices (data/raw/analysis_choices.csv) these figures rest on: the declared
    defaults, or the reviewer's options that differ from them (``make report CHOICES=file``)."""
    ch = ctx.choices
    diff = ch.differing()
    decl = ch.declared
    if not diff:
        say(
            "**Analysis choices:** the declared defaults of all {n} judgement calls "
            "(`data/raw/analysis_choices.csv`); how far each moves these figures: {ref_choices}.",
            n=len(decl.ids),
            ref_choices=ref("sensitivity-choices"),
        )
        return
    say(
        "**Analysis choices differ from the defaults** ({n_diff} of {n}, a reviewer's file): {which}. Every other "
        "choice keeps its default; the effect of each: {ref_choices}.",
        n_diff=len(diff),
        n=len(decl.ids),
        which="; ".join(f"{decl.label[k].lower()}: **{v}** (default {d})" for k, d, v in diff),
        ref_choices=ref("sensitivity-choices"),
    )


def render(ctx) -> None:
    """Title block and chapter 1."""
    from ...models import era

    title(ctx)
    heading(1, "Answers", "answers")
    scope(ctx)
    verdicts_rows = verdict_rows(ctx)
    per_array_summary(ctx, verdicts_rows)
    before, after = era_sentences(ctx)
    say(
        "**Planning figures** (knowledge worker, by era, pooled over documents: {ref_model}). {before}",
        ref_model=ref("model-prediction"),
        before=before,
    )
    choices_line(ctx)
    table(
        planning_table(ctx),
        "Planning figures per concurrent desktop, by era",
        "planning",
        {
            "Phase": "10%",
            "Statistic": "9%",
            "Unit": "11%",
            "Seed": "17%",
            "Modern": "17%",
            "Modern ÷ seed": "10%",
            "Read share (derived), seed / modern": "9%",
            "KB per I/O (derived), seed / modern": "8%",
            "Latency, ms, seed / modern": "9%",
        },
    )
    say(
        "Each row pools labs (one test bed counts once; {below}; `≥`: a lower bound, no interval); read share, I/O "
        "size and latency are the phase's and provisioning's{boot_share}. {after}",
        boot_share=boot_share_clause(ctx),
        below=(
            fill(
                "*: a {pi} prediction interval for a new lab with the seed labs' τ²",
                pi=fmt.pct(1 - era.PI_ALPHA),
            )
            if ctx.choices["tau2_source"] != "none"
            else fill("a range, not an interval, below {n} labs", n=fmt.num(era.MIN_FOR_PI))
        ),
        after=after,
    )
    task = task_worker_sentence(ctx)
    if task:
        say("{task}", task=task)
    per_array(ctx, verdicts_rows)
    say("{harness}", harness=harness_sentences(ctx))
    table(
        capability_table(ctx),
        "What each tested configuration demonstrably carried (reported; latency and busiest resource at that load)",
        "carried",
        {
            "Array": "11%",
            "Desktops tested": "8%",
            "Login storm, peak": "15%",
            "Steady state, average": "13%",
            "One controller down": "14%",
            "Boot storm (apart)": "15%",
            "Provisioning; back end (apart)": "24%",
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


# ---- per-array answers at the scenario (issue 17) ------------------------------------------


def verdict_rows(ctx) -> pd.DataFrame:
    """The per-array answers at the report scenario as the ``scenario`` stage wrote them
    (``array_verdicts``: rows per configuration, phase and condition, columns
    ``verdicts.VERDICT_COLUMNS``); read, never recomputed here."""
    return ctx.verdicts


def _sign(bound: str) -> str:
    return config.bound_sign(bound)


def _usd(x) -> str:
    return "–" if x is None or pd.isna(x) else f"${x:,.0f}" if x >= 100 else f"${x:,.2f}"


def _arrays(n) -> str:
    return f"{int(n)} array" + ("" if int(n) == 1 else "s")


PROXY_COLUMN = "One controller down, untested: proxy (not a test)"


def arrays_words(n, kind: str) -> str:
    """Arrays needed as the test supports them (``verdicts.KINDS``): ``3 arrays`` where the test
    reached a limit of the array; ``at most 30 arrays`` where it reached none (its load is a lower
    bound of capability); ``4 drive sets as tested, at most 4 arrays`` where only the drives were
    at their limit and the controllers had headroom."""
    if kind == "drive sets":
        return f"{int(n)} drive set{'' if int(n) == 1 else 's'} as tested, at most {_arrays(n)}"
    return ("at most " if kind != "exact" else "") + _arrays(n)


def usd_words(x, kind: str) -> str:
    """USD per desktop with the kind of its arrays: ``at most $910`` unless the count is exact."""
    return ("at most " if kind != "exact" else "") + _usd(x)


def _binding_row(g: pd.DataFrame):
    """The phase row (of one configuration's rows indexed by phase) whose constraint binds (from
    ``binding_constraint``, e.g. ``IOPS, login storm``); None for capacity or when undetermined."""
    from ...models.verdicts import PHASE_WORDS

    b = str(g["binding_constraint"].iloc[0])
    for ph, words in PHASE_WORDS.items():
        if b.endswith(words) and ph in g.index:
            return g.loc[ph]
    return None


# Why an arrays-needed count is a bound, in a few words: page 1's answers and the per-array table's
# cells (the capability column gives the load's status with its busiest resource and record).
SHORT_REASON = {
    "at most": "the test reached no limit: a lower bound of capability",
    "drive sets": "drive-bound, the controllers had headroom",
}


def capacity_lines(ctx, rows: pd.DataFrame) -> list[str]:
    """Per tested configuration, its usable capacity as its document states it or as derived from
    its stated layout, with records (``array_verdicts`` ``capacity_text``): the words behind the
    capacity column of the per-array table."""
    cond = "failover" if ctx.params["failover"] == "controller" else "normal"
    out = []
    for (_sid, conf), g in rows[rows["condition"] == cond].groupby(["source_id", "configuration"], sort=False):
        text = str(g["capacity_text"].iloc[0] or "")
        if text:
            out.append(f"{_short(g['vendor'].iloc[0], conf, g['array'].iloc[0])}: {text}")
    return out


def verdict_table(ctx, rows: pd.DataFrame) -> pd.DataFrame:
    """One line per tested configuration at the scenario's condition: what it demonstrably
    carried in the user phases (``_cap_cell``: IOPS, latency, busiest resource), the verdict per
    phase, the arrays N desktops need by the binding constraint (and for the interval's top) with
    the margin, USD per desktop from the buyer's quote (with its arithmetic), and, one controller
    down and untested, the labelled proxy (``PROXY_COLUMN``)."""
    cond = "failover" if ctx.params["failover"] == "controller" else "normal"
    cap = pd.DataFrame(ctx.sizing_inputs.get("capability", []))
    desktops = ctx.params["desktops"]
    out = []
    for (sid, conf), g in rows[rows["condition"] == cond].groupby(["source_id", "configuration"], sort=False):
        g = g.set_index("phase")
        mine = cap[(cap["source_id"] == sid) & (cap["configuration"] == conf)]
        untested = bool((g["verdict"] == "not tested").all())
        if untested and cond == "failover":
            demo = "not tested with a controller down; normal: " + _cap_cell(
                ctx, mine, config.SCENARIO_USER_PHASES, "normal"
            )
            verdict_txt = "not tested"
        else:
            demo = _cap_cell(ctx, mine, config.SCENARIO_USER_PHASES, cond)
            verdict_txt = "; ".join(
                f"{ctx.label('phase', p).lower()}: {g.at[p, 'verdict']}"
                + (" (at a limit)" if g.at[p, "at_limit"] else "")
                for p in config.SCENARIO_PHASES
            )
        n, price = g["arrays_needed_binding"].iloc[0], g["price_usd"].iloc[0]
        kind = g["arrays_needed_kind"].iloc[0]
        if pd.notna(n):
            top = int(max(g["arrays_needed_top"].max(), g["arrays_needed_ports"].fillna(0).max()))
            why = SHORT_REASON.get(kind, "")
            arrays = (
                f"{arrays_words(n, kind)} ({g['binding_constraint'].iloc[0]}); "
                f"{'at most ' if kind != 'exact' else ''}{top} for the interval's top; "
                f"margin {margin_words(g, n, kind)} over the estimate" + (f"; {why}" if why else "")
            )
        elif untested:
            arrays = "not determined: no run with a controller down"
        else:
            arrays = "not determined: " + "; ".join(
                f"{ctx.label('phase', p).lower()} {g.at[p, 'verdict']}"
                for p in g.index
                if pd.isna(g.at[p, "arrays_needed"])
            )
        if pd.isna(price):
            usd = "no quote given"
        elif pd.notna(n):
            usd = f"{usd_words(g['usd_per_desktop'].iloc[0], kind)} ({int(n)} × {_usd(price)} ÷ {fmt.num(desktops)})"
        else:
            usd = "not determined"
        c = g.iloc[0]
        if pd.isna(c["capacity_tb"]):
            capacity = "not determined"
        elif pd.isna(c["usable_tb"]):
            capacity = f"{fmt.num(c['capacity_tb'])} TB needed; usable per array not stated (see below)"
        else:
            capacity = (
                f"{fmt.num(c['capacity_tb'])} TB needed of {_sign(c['usable_bound'])}{fmt.num(c['usable_tb'])} TB "
                f"usable: {arrays_words(c['arrays_needed_capacity'], 'drive sets')} (see below)"
            )
        row = {
            "Array": g["array"].iloc[0],
            "Demonstrated, user phases (reported)": demo,
            "Verdict per phase (one array)": verdict_txt,
            "Capacity for the desktops (usable per array)": capacity,
            "Arrays needed (binding constraint)": arrays,
            "USD per desktop (your quote)": usd,
        }
        if cond == "failover":
            per = {
                p: g.at[p, "proxy_arrays_needed"]
                if pd.notna(g.at[p, "proxy_arrays_needed"])
                else g.at[p, "arrays_needed"]
                for p in g.index
            }
            if pd.notna(n):
                row[PROXY_COLUMN] = "–"
            elif all(pd.notna(x) for x in per.values()):
                pn = int(max(max(per.values()), g["arrays_needed_ports"].fillna(0).max()))
                row[PROXY_COLUMN] = f"{_arrays(pn)} at half the normal load" + (
                    f"; {_usd(pn * price / desktops)} per desktop" if pd.notna(price) else ""
                )
            elif g["proxy_arrays_needed"].notna().any():
                row[PROXY_COLUMN] = "; ".join(
                    f"{ctx.label('phase', p).lower()}: "
                    + (_arrays(x) if pd.notna(x) else "no proxy (" + str(g.at[p, "note"]).split("no proxy: ")[-1] + ")")
                    for p, x in per.items()
                )
            else:
                row[PROXY_COLUMN] = (
                    "no proxy (" + str(g["note"].iloc[0]).split("; ")[-1].replace("no proxy: ", "") + ")"
                )
        out.append(row)
    return pd.DataFrame(out)


def _vendor_conf(ctx, source_id: str, configuration: str) -> tuple[str, str, str]:
    s = ctx.sources.set_index("source_id")
    return s.at[source_id, "vendor"], configuration, f"{s.at[source_id, 'vendor']} {s.at[source_id, 'array']}"


def _short(vendor: str, configuration: str, array: str) -> str:
    return f"{vendor} {config.label('configuration', configuration)}" if configuration else array


def margin_words(g: pd.DataFrame, n: float, kind: str) -> str:
    """The margin of ``n`` arrays over the estimated demand, the smallest over the phases of one
    tested configuration ``g`` (rows of ``array_verdicts``: demonstrated_iops and demand_iops, IOPS),
    as page 1 and Table 'Per-array answers' print it: ``at least 26 %`` where the count is a bound
    (``kind`` not ``exact``: the test reached no limit, so the margin is a lower bound, rounded
    down), else ``27 %``."""
    margin = (g["demonstrated_iops"] * int(n) / g["demand_iops"]).min() - 1
    return f"at least {fmt.pct_floor(margin)}" if kind != "exact" else fmt.pct(margin)


def answer_line(ctx, rows: pd.DataFrame) -> str:
    """One clause per tested configuration at the scenario's condition: arrays needed by the
    binding constraint with the margin and, with a quote, USD per desktop; or why it is not
    determined (the proxy, kept apart, in brackets)."""
    cond = "failover" if ctx.params["failover"] == "controller" else "normal"
    out = []
    for (_sid, conf), g in rows[rows["condition"] == cond].groupby(["source_id", "configuration"], sort=False):
        name = _short(g["vendor"].iloc[0], conf, g["array"].iloc[0])
        n = g["arrays_needed_binding"].iloc[0]
        if pd.notna(n):
            kind = g["arrays_needed_kind"].iloc[0]
            why = f"; {SHORT_REASON[kind]}" if kind in SHORT_REASON else ""
            txt = (
                f"{name}: **{arrays_words(n, kind)}** (binding: {g['binding_constraint'].iloc[0]}; margin "
                f"{margin_words(g, n, kind)}{why})"
            )
            if pd.notna(g["usd_per_desktop"].iloc[0]):
                txt += f", **{usd_words(g['usd_per_desktop'].iloc[0], kind)} per desktop** at your quote"
        elif (g["verdict"] == "not tested").all():
            pn = g["proxy_arrays_needed"].max()
            txt = f"{name}: not tested with a controller down" + (
                f" (proxy, not a test: {_arrays(pn)} or more)" if pd.notna(pn) else ""
            )
        else:
            missing = [ctx.label("phase", p).lower() for p, v in zip(g["phase"], g["arrays_needed"]) if pd.isna(v)]
            txt = (
                f"{name}: not determined ({fmt.words(missing)}: {g.loc[g['arrays_needed'].isna(), 'verdict'].iloc[0]})"
            )
        out.append(txt)
    return "; ".join(out)


def scenario_cost_sentence(ctx) -> str:
    """The scenario's USD per desktop per configuration with a quote, as the per-array answers
    give it (``array_verdicts``: the same figures as page 1, Table 2 and the CSV), for the cost
    section; a sentence saying there is none without a quote."""
    rows = ctx.verdicts
    cond = "failover" if ctx.params["failover"] == "controller" else "normal"
    parts = []
    for (_sid, conf), g in rows[(rows["condition"] == cond) & rows["price_usd"].notna()].groupby(
        ["source_id", "configuration"], sort=False
    ):
        name = _short(g["vendor"].iloc[0], conf, g["array"].iloc[0])
        x = g["usd_per_desktop"].iloc[0]
        parts.append(
            f"{name} {usd_words(x, g['arrays_needed_kind'].iloc[0])} per desktop"
            if pd.notna(x)
            else f"{name} not determined"
        )
    if not parts:
        return "No quote is given, so the scenario has no cost per desktop (see the first page)."
    return fill(
        "At the report scenario ({desktops} desktops), your quotes give {parts}: arrays needed × price ÷ desktops, "
        "the figures of the first page and {ref_t} (reports/array_verdicts.csv). The table below divides each quote "
        "by the desktops the array carried in its test instead: a price per tested desktop, not a cost of the "
        "scenario.",
        desktops=fmt.num(ctx.params["desktops"]),
        parts="; ".join(parts),
        ref_t=ref("answers-verdicts"),
    )


def per_array_summary(ctx, rows: pd.DataFrame) -> None:
    """Page 1's first answer: which array, how many, at what margin, at what cost."""
    prices = ctx.quotes
    say(
        "**Which array, how many, at what margin, at what cost** for {desktops} desktops ({cond}; {ref_t}): "
        "{answers}. These are arrays of {span} ({each}): evidence of what a class of array carried in one test "
        "each, not a quote for today's models. {price_line}",
        desktops=fmt.num(ctx.params["desktops"]),
        cond="one controller down" if ctx.params["failover"] == "controller" else "both controllers",
        ref_t=ref("answers-verdicts"),
        answers=answer_line(ctx, rows),
        span=_years(ctx.seeds),
        each="; ".join(
            f"{v} {a}: {str(y)[:4]}" for v, a, y in zip(ctx.seeds["vendor"], ctx.seeds["array"], ctx.seeds["published"])
        ),
        price_line=(
            "No document states an array price: the costs use your quotes ("
            + fmt.words(sorted(prices))
            + ", the cost file)."
            if prices
            else "No document states an array price: give yours in the cost file or the HTML calculator."
        ),
    )


def per_array(ctx, rows: pd.DataFrame) -> None:
    """The per-array table with how it is built, and, without a quote, cost against price."""
    from ...models import verdicts

    cond = "failover" if ctx.params["failover"] == "controller" else "normal"
    prices = ctx.quotes
    table(
        verdict_table(ctx, rows),
        "Per-array answers at the scenario (reported capability, model demand)",
        "answers-verdicts",
        None,
    )
    say(
        "**Per-array answers.** Each tested configuration is held to what its own document shows it carried (the "
        "highest load of any user phase for login and steady state, its boot storm for the boot storm; latency and "
        "busiest resource at that load) against the scenario's front-end demand: the verdict says whether one array "
        "covers the estimate and the top of the interval; the arrays needed split the desktops so that each array "
        "carries at most what one demonstrably carried, the binding constraint being the phase (IOPS, or ports "
        "against the scenario's MB/s) that needs the most. A count is exact only where the test reached a limit "
        "of the array (controller utilization at {saturated} or more, or VSImax reached): what a test carried with "
        "no resource at its limit is a lower bound of capability, so the arrays it implies, and their cost, are at "
        "most that many; where only the drives were at their limit and the controllers had headroom, the count is "
        "of drive sets as tested. A load counts only where its own latency met the latency target ({target} ms, "
        "`LATENCY_TARGET_MS`). "
        "{failover_line}No document states an array price (the "
        "vendors' dollar-per-desktop claims are readings, not quotes: {ref_readings}); {price_line}",
        failover_line=(
            "With one controller down, only a failover run counts; where none was run, a proxy (half the normal load "
            "of a two-controller array) is shown apart and labelled. "
            if cond == "failover"
            else ""
        ),
        ref_readings=ref("cost-readings"),
        saturated=f"{fmt.num(verdicts.SATURATED_PCT)} %",
        target=f"{float(ctx.params.get('latency_target_ms', verdicts.DEFAULT_LATENCY_TARGET_MS)):g}",
        price_line=(
            "USD per desktop = arrays needed × your price ÷ desktops."
            if prices
            else "give your quote as rows `array_price_usd:<source_id>` or "
            "`array_price_usd:<source_id>:<configuration>` of the cost file (`COST_FILE`, README), or in the HTML "
            "calculator; meanwhile the figure below gives USD per desktop for any price."
        ),
    )
    lines = capacity_lines(ctx, rows)
    if lines:
        say(
            "**Usable capacity per array, as each document states it** (the capacity column above):\n\n{items}",
            items="\n".join(f"- {x}" for x in lines),
        )
    for line in (capacity_sentence(ctx), protection_sentence(ctx, rows)):
        if line:
            say("{x}", x=line)
    if not prices and rows["arrays_needed_binding"].notna().any():
        from ..charts import price_chart

        figure(
            price_chart(rows, ctx.params["desktops"], cond),
            "Cost per desktop against the price of one array, at the arrays each configuration needs for the "
            "scenario (no document states a price: the x axis is your quote)",
            "answers-price",
        )


def capacity_sentence(ctx) -> str:
    """The scenario's capacity per desktop (``sizing_scenario``: the era's and clone type's figure
    of ``capacity_by_clone``, the one the per-array table and the calculator use), how it is made,
    the provisioning modes the era's documents state with their memory (space written per desktop
    not stated where no document measured it), and which capacity lines size arrays; "" without one."""
    from ...raw.test_setup import PROVISIONING_LABELS

    facts = ctx.sizing_inputs.get("capacity_by_clone") or {}
    sz = ctx.sizing.iloc[0]
    era, clone = sz["era"], sz["clone_type"]
    per = ((facts.get("per_desktop") or {}).get(era) or {}).get(clone)
    if not per or pd.isna(sz["capacity_gb_per_desktop_high"]):
        return ""
    usable = "; ".join(  # in short: the lines with their records are the table's capacity column
        f"{_short(*_vendor_conf(ctx, u['source_id'], u['configuration']))} {u.get('kind', 'usable')}"
        + (f" {fmt.num(u['usable_tb'])} TB" if u.get("usable_tb") is not None else "")
        for u in facts.get("usable", [])
    )
    modes = "; ".join(
        f"{PROVISIONING_LABELS.get(m['provisioning'], 'mode not named')}: "
        + _gb_range(m["memory_gb_low"], m["memory_gb_high"])
        + f" of memory ({m['records'].replace(' ', ', ')}), space written per desktop "
        + (f"{fmt.num(m['written_gb'])} GB" if m.get("written_gb") is not None else "not stated")
        for m in (facts.get("modes") or {}).get(era, [])
    )
    return fill(
        "**Capacity** ({clone} clones, `CLONE_TYPE`; {era} era, `ERA`): {high} GB per desktop, {text}; {total} TB for "
        "{desktops} desktops (no data-reduction credit: the reduction of identical synthetic clones is a test "
        "artefact; after the vendor's stated reduction, {low} GB per desktop). Swap is the memory a desktop does "
        "not reserve, from the era's own desktops; how the {era} desktops were provisioned: {modes}. {why}Only a "
        "usable figure sizes capacity (raw and physical are not usable): {usable}.",
        clone=clone,
        era=ctx.label("era", era).lower(),
        high=fmt.num(sz["capacity_gb_per_desktop_high"]),
        text=per["text"],
        total=fmt.num(sz["capacity_tb_high"]),
        desktops=fmt.num(sz["desktops"]),
        low=fmt.num(sz["capacity_gb_per_desktop_low"]),
        modes=modes or "not stated",
        why=_era_swap_note(facts, clone),
        usable=usable,
    )


def _era_swap_note(facts: dict, clone: str) -> str:
    """Why the default era sizes today's desktops: the swap of each era's desktops for ``clone``
    (``capacity_by_clone``), as ERA changes it; "" when an era is missing."""
    from ...models.scenario import DEFAULT_ERA

    per = facts.get("per_desktop") or {}
    eras = [e for e in config.ERAS if clone in (per.get(e) or {})]
    if len(eras) < 2:
        return ""
    swaps = "; ".join(f"{e} {fmt.num(per[e][clone]['swap_gb'])} GB" for e in eras)
    return f"The swap each era gives a desktop (`ERA`): {swaps}; the default, {DEFAULT_ERA}, sizes today's desktops. "


def _gb_range(lo, hi) -> str:
    return f"{fmt.num(lo)} GB" if lo == hi else f"{fmt.num(lo)}–{fmt.num(hi)} GB"


def protection_lines(ctx, rows: pd.DataFrame) -> list[str]:
    """Per tested configuration, its protection as its document states it (``array_verdicts``
    ``protection``, ``protection_source``) and a classic RAID write penalty with the back end of
    the scenario's login demand only where the document states a classic RAID level; otherwise
    that no classic penalty applies."""
    from ...raw.test_setup import PROTECTION_LABELS

    cond = "failover" if ctx.params["failover"] == "controller" else "normal"
    out = []
    for (_sid, conf), g in rows[rows["condition"] == cond].groupby(["source_id", "configuration"], sort=False):
        g = g.set_index("phase")
        c = g.iloc[0]
        what = PROTECTION_LABELS.get(c["protection"], c["protection"])
        src = f" ({c['protection_source']})" if c["protection_source"] else ""
        if pd.notna(c["protection_write_penalty"]):
            be = g["protection_be_iops"].get("login")
            tail = f"classic write penalty ×{fmt.num(c['protection_write_penalty'])}" + (
                f": back end {fmt.num(be)} IOPS at the login demand" if be is not None and pd.notna(be) else ""
            )
        else:
            tail = "no classic RAID write penalty stated, none applied"
        out.append(f"{_short(g['vendor'].iloc[0], conf, g['array'].iloc[0])}: {what}{src}; {tail}")
    return out


def protection_sentence(ctx, rows: pd.DataFrame) -> str:
    """The per-array protection lines as one paragraph (``protection_lines``); "" without rows."""
    lines = protection_lines(ctx, rows)
    if not lines:
        return ""
    return fill(
        "**Protection and write penalty, as each document states it** (`RAID` sizes your own array's back end in "
        "the scenario; an array's own penalty applies only where its document describes a classic RAID level): "
        "{items}.",
        items="; ".join(lines),
    )


VANTAGE = {
    "array_frontend": "array front end",
    "host": "ESXi host",
    "storage_port": "storage port",
    "array_backend": "array back end",
}


def _cap_cell(ctx, g: pd.DataFrame, phases, condition: str) -> str:
    """The highest load of ``g`` (capability rows of one configuration) in ``phases`` under
    ``condition``, compact: IOPS (sign, vantage), latency, busiest resource, limit, records."""
    x = g[g["phase"].isin(phases) & (g["condition"] == condition)]
    if x.empty:
        return "not tested"
    sign = config.BOUND_SIGNS
    w = x[x["floor"].notna()].sort_values("floor", ascending=False)
    r = (w if len(w) else x).iloc[0]
    txt = f"{sign.get(r['bound'], '')}{fmt.num(r['iops'])} IOPS"
    if pd.notna(r["floor"]) and r["floor"] < r["iops"]:  # an "approximately": the verdicts count its low end
        txt += f" (counted: {fmt.num(r['floor'])})"
    if len(phases) > 1:
        txt += f" ({ctx.label('phase', r['phase']).lower()})"
    if r["vantage"] != "array_frontend":
        txt += f", {VANTAGE.get(r['vantage'], r['vantage'])}"
    if r["bound"] == "lt":
        txt += ", an upper bound only"
    if pd.notna(r["latency_ms"]):
        what = " write" if "write latency" in str(r["latency_text"]) else ""
        txt += f"; {sign.get(r['latency_bound'], '')}{r['latency_ms']:g} ms{what}"
    if r["busiest_resource"]:
        txt += f"; {r['busiest_resource']} {sign.get(r['busiest_bound'], '')}{r['busiest_pct']:g} %"
    status = r.get("capability_status", "at_limit" if r["at_limit"] else "unknown")
    if status == "at_limit":
        txt += f": at a limit ({r.get('binding_resource') or 'reported'})"
    elif status == "not_stressed":
        txt += ": no limit reached, a lower bound"
    else:
        txt += "; no utilization reported: a lower bound"
    ids = str(r["record_ids"]).split()
    return txt + f" ({ids[0]})" if ids else txt


def capability_table(ctx) -> pd.DataFrame:
    """What each tested configuration demonstrably carried (``verdicts.capability`` rows in
    ``sizing_inputs.json``), one row per configuration in sources.csv order: Array, Desktops tested,
    Login (peak), Steady state (average), One controller down (user phases), Boot storm, and
    Provisioning / back end (apart: never compared with a user-phase demand)."""
    from ..tables import CLONE_LABELS

    cap = pd.DataFrame(ctx.sizing_inputs.get("capability", []))
    if cap.empty:
        return pd.DataFrame()
    order = {s: i for i, s in enumerate(ctx.seeds["source_id"])}
    cap = cap.assign(_o=cap["source_id"].map(order)).sort_values(["_o", "configuration"], kind="stable")
    seeds = ctx.seeds.set_index("source_id")
    rows = []
    for (sid, _conf), g in cap.groupby(["source_id", "configuration"], sort=False):
        s = seeds.loc[sid]
        rows.append(
            {
                "Array": g["array"].iloc[0],
                "Desktops tested": f"{fmt.num(s['desktops'])} {CLONE_LABELS.get(s['clone_type'], s['clone_type'])}",
                "Login storm, peak": _cap_cell(ctx, g, ("login",), "normal"),
                "Steady state, average": _cap_cell(ctx, g, ("steady_state",), "normal"),
                "One controller down": _cap_cell(ctx, g, config.SCENARIO_USER_PHASES, "failover"),
                "Boot storm (apart)": _cap_cell(ctx, g, ("boot",), "normal"),
                "Provisioning; back end (apart)": "; ".join(
                    c
                    for c in (_cap_cell(ctx, g, ("maintenance",), "normal"), _cap_cell(ctx, g, ("backend",), "normal"))
                    if c != "not tested"
                )
                or "not reported",
            }
        )
    return pd.DataFrame(rows)
