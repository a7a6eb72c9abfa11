"""Chapter Sensitivity (after Models): every analysis choice of ``data/raw/analysis_choices.csv``,
how far each moves the planning figures (one at a time: tornado chart), the joint range of the
defensible combinations (specification curve), which way the report went and why, and how a
reviewer re-runs the analysis with their own options (``make report CHOICES=file``)."""

import pandas as pd

from .. import charts
from .. import formatting as fmt
from ..show import figure, heading, ref, say, table

ORDER = 45  # position in the report (sections/__init__.py): after Models, before Audit
# the report parameters this chapter uses (the era page one reads, the analysis choices in force): its
# outputs are kept between runs while they and the other inputs stay the same (report/chapter_cache.py)
PARAMETERS = ("era", "choices_file")


def _signed(x: float) -> str:
    if pd.isna(x):
        return "not estimable"
    if 0 < abs(x) < 0.005:
        return f"{100 * x:+.2f} %"  # a small move is not printed as +0 %
    return f"{100 * x:+.0f} %"


def choices_table(ctx) -> pd.DataFrame:
    """One row per declared choice: Choice, Report's option (and the reviewer's when it
    differs), Alternatives, Largest move (one flip, the planning row it moves), Why (the reason)."""
    decl, ch = ctx.choices.declared, ctx.choices
    rank = ctx.sensitivity_ranking.set_index("choice_id")
    rows = []
    for cid in decl.ids:
        opt = decl.default[cid] + ("" if ch[cid] == decl.default[cid] else f" (this report: {ch[cid]})")
        r = rank.loc[cid] if cid in rank.index else None
        move = (
            "none"
            if r is None or not r["max_abs_change"]
            else f"{_signed(r['max_abs_change'] * (1 if _direction(ctx, cid, r) >= 0 else -1))} "
            f"({r['row'].replace('_', ' ')}, {r['option']})"
        )
        if r is not None and r["not_estimable"]:
            move += "; an option leaves a figure not estimable"
        rows.append(
            {
                "Choice": decl.label[cid],
                "Default": opt,
                "Alternatives": ", ".join(o for o in decl.options[cid] if o != decl.default[cid]),
                "Largest move (one flip)": move,
                "Why the default": decl.reason[cid],
            }
        )
    return pd.DataFrame(rows)


def _direction(ctx, cid, r) -> float:
    """Sign of the largest move of choice ``cid`` (its ``sensitivity_ranking`` row ``r``)."""
    s = ctx.sensitivity
    g = s[(s["kind"] == "one_at_a_time") & (s["choice_id"] == cid) & (s["option"] == r["option"])]
    g = g[(g["phase"] + " " + g["statistic"]) == r["row"]]
    return float(g["change"].dropna().iloc[0]) if g["change"].notna().any() else 0.0


def this_report_rows(ctx) -> pd.DataFrame:
    """The planning rows of this report's own choices, one per era, phase and statistic (the
    pooled class ``any`` or the knowledge-worker row): the rows of ``sensitivity.csv`` whose
    specification is this report's (``Choices.key``), else the planning table the report read
    (a reviewer's combination the specification curve does not span). Columns era, phase,
    statistic, estimate."""
    s = ctx.sensitivity
    keep = ["era", "phase", "statistic", "estimate"]
    mine = s[(s["specification"] == ctx.choices.key()) & s["worker_class"].isin(["any", "knowledge"])]
    if mine.empty:
        p = ctx.plan
        mine = p[p["worker_class"].isin(["any", "knowledge"])]
    return mine[keep].drop_duplicates(["era", "phase", "statistic"]).reset_index(drop=True)


def curve_table(ctx) -> pd.DataFrame:
    """The specification curve per planning row (pooled or reference class): this report's
    estimate (``this_report_rows``: a number in every row), the lowest and highest over the joint
    combinations, and how many there are."""
    s = ctx.sensitivity
    j = s[(s["kind"] == "joint") & s["worker_class"].isin(["any", "knowledge"])]
    here = this_report_rows(ctx).set_index(["era", "phase", "statistic"])["estimate"]
    rows = []
    for (era, phase, stat), g in j.groupby(["era", "phase", "statistic"], sort=False):
        x = here.get((era, phase, stat), float("nan"))
        est = g["estimate"].dropna()
        rows.append(
            {
                "Era": era,
                "Planning figure": f"{ctx.label('phase', phase)} · {stat.replace('_', ' ')}",
                "This report": fmt.num(x) if pd.notna(x) else "not estimable",
                "Lowest": fmt.num(est.min()) if len(est) else "not estimable",
                "Highest": fmt.num(est.max()) if len(est) else "not estimable",
                "Specifications": f"{g['specification'].nunique()} ({int(g['estimate'].isna().sum())} not estimable)",
            }
        )
    return pd.DataFrame(rows)


def _movers(ctx, era: str) -> pd.DataFrame:
    """The rows of ``sensitivity_movers.csv`` of ``era`` (the sensitivity stage's
    ``sensitivity.row_movers``), in the table's order."""
    m = ctx.sensitivity_movers
    return m[m["era"] == era].reset_index(drop=True)


def answer_movers(ctx) -> pd.DataFrame:
    """The choices that move the planning rows page 1 reads (the report's era, ``era`` parameter),
    from ``sensitivity_movers.csv`` (``sensitivity.row_movers``): Planning figure, Default (the
    row under the declared defaults), Choice (label; "no declared choice" when none moves the row), Option, Estimate
    under it, Change (signed percent)."""
    decl = ctx.choices.declared
    m = _movers(ctx, ctx.params["era"])
    return pd.DataFrame(
        {
            "Planning figure": [
                f"{ctx.label('phase', p)} · {st.replace('_', ' ')}" for p, st in zip(m["phase"], m["statistic"])
            ],
            "Default": [fmt.num(x) if pd.notna(x) else "not estimable" for x in m["default_estimate"]],
            "Choice": [decl.label.get(c, c) if c else "no declared choice" for c in m["choice_id"]],
            "Option": m["option"].values,
            "Estimate": [fmt.num(x) if pd.notna(x) else "not estimable" for x in m["estimate"]],
            "Change": [_signed(x) if c else "0 %" for x, c in zip(m["change"], m["choice_id"])],
        }
    )


def _answer_sentence(ctx) -> str:
    """Which declared choices move the rows page 1 reads, and the largest move of each row."""
    decl, era = ctx.choices.declared, ctx.params["era"]
    m = _movers(ctx, era)
    if m.empty:
        return ""

    def name(p, st):
        return f"{ctx.label('phase', p).lower()} {st.replace('_', ' ')}"

    moved = m[m["choice_id"] != ""]
    rows = m.drop_duplicates(["phase", "statistic"])
    parts = []
    for (p, st), g in moved.groupby(["phase", "statistic"], sort=False):
        top = g.iloc[0]
        label = decl.label.get(top["choice_id"], top["choice_id"]).lower()
        parts.append(
            f"{name(p, st)} {fmt.num(top['default_estimate'])} ({len(g)} choice{'s' if len(g) > 1 else ''}; "
            f"most: {label}, {top['option']}: {_signed(top['change'])})"
        )
    moved_keys = set(zip(moved["phase"], moved["statistic"]))
    still = [name(p, st) for p, st in zip(rows["phase"], rows["statistic"]) if (p, st) not in moved_keys]
    text = f"**What moves the answer.** Page one reads the {era} rows. "
    if parts:
        text += f"Declared choices move {len(parts)} of its {len(rows)} rows: " + "; ".join(parts) + ". "
    text += f"No declared choice moves {fmt.words(still)}." if still else "Every row is moved by a declared choice."
    return text


def _unmoved(rank: pd.DataFrame, decl) -> str:
    """The sentences naming the choices that move a planning interval but no estimate
    (``ranking``'s max_abs_change 0, max_abs_interval_change above 0: e.g. ``tau2_source``), and
    those whose every option leaves every planning figure and interval as it is, with why that
    can be; "" when every choice moves an estimate."""
    still = rank["max_abs_change"].fillna(0).abs() < 1e-12
    moves_interval = rank["max_abs_interval_change"].fillna(0).abs() >= 1e-12
    only = [
        f"{decl.label[r.choice_id].lower()} ({r.interval_option}: interval ends up to "
        f"{_signed(r.max_abs_interval_change).lstrip('+')}, {r.interval_row.replace('_', ' ')})"
        for r in rank[still & moves_interval].itertuples()
    ]
    none = [decl.label[c] for c in rank.loc[still & ~moves_interval, "choice_id"]]
    text = f"Moving an interval but no estimate: {'; '.join(only)}. " if only else ""
    if none:
        text += (
            f"{len(none)} choice{'s move' if len(none) > 1 else ' moves'} no planning figure ({fmt.words(none)}): "
            "the planning rows pool the documents' figures, so a choice that acts only on the regression model of "
            "the Models chapter, or on observations no planning row takes, leaves them as they are."
        )
    return text


def render(ctx) -> None:
    heading(1, "Sensitivity", "sensitivity")
    decl, sens = ctx.choices.declared, ctx.sensitivity
    rank = ctx.sensitivity_ranking
    top = rank.head(3)
    joint = [decl.label[c] for c in decl.ids if decl.joint[c]]
    say(
        "Every judgement call the models make is an **analysis choice** declared once in "
        "`data/raw/analysis_choices.csv`, with its options, the default this report takes and the reason, citing the "
        "records and register entries behind it; the code reads the choice and decides nothing the list does not "
        "name. Below, the planning figures are recomputed under every option of every choice, one at a time "
        "({ref_tornado}), and under every combination of the {n_joint} choices whose alternatives are all defensible "
        "({joint}): the specification curve of {n_specs} specifications ({ref_curve}). All rows are in "
        "`data/processed/sensitivity.csv`.\n\nThe three choices that move a planning figure most: {top}. "
        "{none_sentence}",
        ref_tornado=ref("sensitivity-tornado"),
        n_joint=len(joint),
        joint=fmt.words(joint),
        n_specs=sens.loc[sens["kind"] == "joint", "specification"].nunique(),
        ref_curve=ref("sensitivity-curve"),
        top="; ".join(
            f"{decl.label[r.choice_id].lower()} ({r.option}: {_signed(r.max_abs_change)} at most, "
            f"{r.row.replace('_', ' ')})"
            for r in top.itertuples()
        ),
        none_sentence=_unmoved(rank, decl),
    )
    figure(
        charts.tornado_chart(ctx.sensitivity_tornado, decl.label),
        "Tornado chart: how far each analysis choice moves each planning estimate when flipped alone (bar: from the "
        "lowest to the highest change over the choice's options; no change is this report's default; pooled "
        "worker class, or the knowledge worker where an option separates the classes)",
        "sensitivity-tornado",
    )
    table(
        choices_table(ctx),
        "The analysis choices: the report's option, the alternatives, the largest move of one flip and the reason",
        "sensitivity-choices",
        {
            "Choice": "15%",
            "Default": "12%",
            "Alternatives": "14%",
            "Largest move (one flip)": "17%",
            "Why the default": "42%",
        },
    )
    table(curve_table(ctx), "Specification curve: the planning estimates over the joint choices", "sensitivity-curve")
    say(
        _answer_sentence(ctx) + " Every move, one choice flipped at a time: {ref_moves}.",
        ref_moves=ref("sensitivity-answer"),
    )
    table(
        answer_movers(ctx),
        f"The choices that move the rows page one reads ({ctx.params['era']} era), one at a time, largest first",
        "sensitivity-answer",
    )
    say(
        "**Re-run with your own choices.** Write a CSV with the columns `choice_id, option` (choices not listed keep "
        "their default) and run `make report CHOICES=my_choices.csv`: the file is checked against the declared list "
        "(an unknown choice or option is named with its file, line and the allowed values), only the model stage "
        "and the report re-run, and page one and the colophon list the choices that differ from the defaults. The "
        "planning figures of such a run are the rows of `sensitivity.csv` whose `specification` names the same "
        "options."
    )
