"""Chapter 4, Models: IOPS per desktop (one model for all vendors, validated by leaving one vendor
out), rules of thumb, I/O profile, headroom and density, cost per desktop, the sizing scenario
and (HTML) the sizing calculator."""

import pandas as pd

from ... import config
from .. import calculator, charts, verdict_calculator
from .. import formatting as fmt
from .. import model_tables as mtables
from ..chapter_cache import kept
from ..show import figure, fill, heading, html_only, ref, say, table
from . import answers  # one direction only: answers imports nothing from this chapter

ORDER = 40  # position in the report (sections/__init__.py)


def scenario_rows(ctx) -> tuple[pd.DataFrame, str]:
    """The report scenario as the ``scenario`` stage sized it (``sizing_scenario``, published as
    ``reports/sizing_scenario.csv``): (display table, one sentence saying how)."""
    return mtables.sizing_table(ctx.sizing), answers.fmt_how(ctx)


def _count(n: int, singular: str, plural: str | None = None) -> str:
    """``1 document``, ``4 documents``, ``no document`` (a count from data with its noun)."""
    n = int(n)
    return (
        fill("no {noun}", noun=singular)
        if n == 0
        else fill("{n} {noun}", n=fmt.num(n), noun=singular if n == 1 else (plural or singular + "s"))
    )


BOOT_STATISTICS = {"io_per_boot": "I/O per desktop boot", "peak_per_rate": "peak IOPS per desktop booted per minute"}


def _seed_range(lo: float, hi: float, n_docs) -> str:
    """The seeds' boot-model reference in words: a single value or a range of documents."""
    if lo == hi:
        return fill("the seeds' single value {v}", v=fmt.num(lo))
    return fill("the seeds' range {lo}–{hi} ({docs})", lo=fmt.num(lo), hi=fmt.num(hi), docs=_count(n_docs, "document"))


STATUS_WORDS = {  # status: (one, several, what it is)
    "exact": ("whole-test average", "whole-test averages", "read + write averages of one run: exact"),
    "lower bound": (
        "login-peak lower bound",
        "login-peak lower bounds",
        "one direction's peak alone: the total peak is at least that",
    ),
    "upper bound": (
        "login-peak upper bound",
        "login-peak upper bounds",
        "read peak + write peak: the two need not coincide",
    ),
}


def _status_clauses(ext: pd.DataFrame, plan: pd.DataFrame) -> list[str]:
    """One sentence per status of the external figures (``STATUS_WORDS``): how many, against which
    seed row (``plan`` indexed by era and cell), their verdicts and their observed ÷ seed ratios."""
    clauses = []
    for status, (one, several, what) in STATUS_WORDS.items():
        g = ext[ext["status"] == status]
        if g.empty:
            continue
        seed = plan.loc[("seed", g["cell"].iloc[0])]
        counts = g["verdict"].value_counts()
        clauses.append(
            fill(
                "{n} {noun} ({what}) against the seed row of the cell, {cell} {seed_iv}: {verdicts}; observed ÷ "
                "seed {ratios}.",
                n=fmt.num(len(g)),
                noun=one if len(g) == 1 else several,
                what=what,
                cell=g["cell"].iloc[0],
                seed_iv=fmt.interval(seed["estimate"], seed["pi90_low"], seed["pi90_high"]),
                verdicts=fmt.words(fill("{k} {v}", k=fmt.num(k), v=v) for v, k in counts.items()),
                ratios=fmt.span(g["ratio"]) + "×",
            )
        )
    return clauses


def _external_documents(ext: pd.DataFrame, labels: dict) -> str:
    """The external documents in words, each with its broker, load tool and guest OS where stated."""
    return fmt.words(
        fill(
            "{doc} ({setup})",
            doc=labels.get(sid, sid),
            setup="; ".join(
                fill("{what}: {value}", what=what, value=g[col].iloc[0])
                for col, what in (("broker", "broker"), ("load_tool", "load tool"), ("guest_os", "guest OS"))
                if str(g[col].iloc[0]).strip()
            ),
        )
        for sid, g in ext.groupby("source_id", sort=True)
    )


def _external(ctx, ext: pd.DataFrame, pi: str) -> None:
    """The out-of-sample section: every external figure with its status and the CSV's verdict
    (counted per status in the prose, listed in the table), the external boot storms in words,
    and leave-one-document-out for both eras."""
    from ...models import iops

    ext = ext.assign(**{c: ext[c].astype(float) for c in ("observed", "predicted", "pi90_low", "pi90_high", "ratio")})
    labels = iops.document_labels(ctx.sources)
    plan = ctx.plan.set_index(["era", "cell"])
    say(
        "### Out of sample: every external figure with its true status\n\nLater documents (`role = external` in "
        "`sources.csv`) never enter the seed rows. They print controller read and write IOPS, not totals, so each "
        "figure is read as what it is: the read and write averages of one run add up to its exact average; one "
        "direction's peak alone is a lower bound of the total peak; the sum of the read and write peaks is an upper "
        "bound. {n} from {docs}. {clauses} A verdict is *inside*, *above* or *below* the seed interval; "
        "*uninformative* only for a bound that cannot contradict it (a lower bound inside or below, an upper bound "
        "inside or above). In `iops_model_external.csv` the column `verdict` is this table's, and `covered` means the "
        "seed interval contains the figure, which only an exact value inside it can.",
        n=_count(len(ext), "external figure"),
        docs=_external_documents(ext, labels),
        clauses=" ".join(_status_clauses(ext, plan)),
    )
    table(
        mtables.external_table(ext, labels),
        "External figures against the seed rows, with their status and verdict",
        "model-external",
        mtables.EXTERNAL_WIDTHS,
    )
    _external_boot(ctx, labels, plan)
    _lodo(ctx)


def _external_boot(ctx, labels: dict, plan: pd.DataFrame) -> None:
    """The external documents' boot storms (``boot_external``) in words, each statistic against
    the seeds' boot row of its cell (``plan`` indexed by era and cell)."""
    from ...models import era

    eb = ctx.boot_external
    if not len(eb):
        return
    m = plan.xs("seed", level="era")
    items = {}
    for r in eb.itertuples():
        obs, lo, hi = float(r.observed), float(r.low), float(r.high)
        key = era.BOOT_CELLS.get(r.statistic, r.statistic)
        seeds = _seed_range(lo, hi, m.at[key, "n_documents"] if key in m.index else 0)
        items.setdefault(labels.get(r.source_id, r.source_id), []).append(
            fill(
                "{obs} {what}: {verdict} against {seeds}",
                obs=fmt.bounded(obs, r.bound),
                what=BOOT_STATISTICS.get(r.statistic, r.statistic.replace("_", " ")),
                verdict=r.inside,
                seeds=seeds,
            )
        )
    say(
        "Boot storms of the external documents against the seeds' boot rows (both derived as in "
        "{ref_boot}: I/O per desktop boot = average IOPS × boot duration ÷ desktops; peak per desktop booted per "
        "minute = peak IOPS ÷ boot rate, a lower bound where only the average is given). {items}",
        ref_boot=ref("boot-storms"),
        items=" ".join(fill("{doc}: {what}.", doc=d, what="; ".join(v)) for d, v in items.items()),
    )


def _lodo(ctx) -> None:
    """Leave one document out, per era (``lodo``): held-out documents inside the others' row."""
    lodo = ctx.lodo
    if not len(lodo):
        return
    say(
        "### Leave one document out, per era\n\nEach era's rows pool documents, so each document is held out in "
        "turn and set against the row its era's other documents give (with two documents or fewer left, their "
        "range, not an interval). {items}",
        items=" ".join(
            fill(
                "{era} era, {cell}: {n_in} of {n} held-out documents inside the others' range or interval.",
                era=ctx.label("era", e),
                cell=c,
                n_in=fmt.num(int((g["verdict"] == "inside").sum())),
                n=fmt.num(len(g)),
            )
            for (e, c), g in lodo.groupby(["era", "cell"], sort=False)
        ),
    )
    table(mtables.lodo_table(lodo), "Leave one document out, per era and cell", "model-lodo")


def _heterogeneity(ctx) -> None:
    """τ², I² and the interval for a new lab of every planning row with an interval (the planning
    table's columns tau2, i2, tau2_source, interval_spans), and what the τ² rests on."""
    plan = ctx.plan_all
    rows = plan[plan["pi90_low"].notna()]
    if rows.empty:
        return
    seed = plan[(plan["era"] == "seed") & (plan["tau2_source"] == "seed cell")].drop_duplicates("cell")
    borrowed = rows[rows["tau2_source"].isin(["seed cell", "seed median"])]
    say(
        "### Between labs: τ², I² and the interval for a new lab\n\n"
        "A lab's runs share hardware, images, harness and staff, so the spread that matters for an architect's own "
        "deployment is the spread between labs, τ² (on ln IOPS per desktop), not the spread of one lab's runs. "
        "{seed_words} {borrowed_words} A lab of one run is given the median within-lab variance of its era's labs. "
        "A bound keeps no interval and no τ².",
        seed_words=(
            "The seed labs give it where a cell has two: "
            + "; ".join(
                fill("{cell} τ² {t} (I² {share})", cell=r.cell, t=f"{r.tau2:.3f}", share=fmt.pct(r.i2))
                for r in seed.itertuples()
            )
            + "."
            if len(seed)
            else (
                "No seed cell has two labs: τ² cannot be estimated."
                if ctx.choices["tau2_source"] != "none"
                else "The rows use no τ² (analysis choice `tau2_source` = none)."
            )
        ),
        borrowed_words=(
            fill(
                "{n} rows have fewer than {min_pi} labs and borrow the seed labs' τ² (the same cell's, else the "
                "median over the seed cells, {med}): their interval is labelled as borrowed, and takes τ² as known "
                "(normal quantile), which two seed labs per cell cannot make certain.",
                n=fmt.num(len(borrowed)),
                min_pi=fmt.num(_era().MIN_FOR_PI),
                med=fmt.words(
                    sorted({f"{t:.3f}" for t in borrowed.loc[borrowed["tau2_source"] == "seed median", "tau2"]})
                )
                or "not used",
            )
            if len(borrowed)
            else "No row borrows τ² (analysis choice `tau2_source` = none): a row of fewer labs shows their runs' "
            "range."
        ),
    )
    table(
        mtables.heterogeneity_table(rows),
        "Between-lab heterogeneity per planning row: τ², I², the estimate and its interval for a new lab",
        "model-heterogeneity",
    )


def _era():
    from ...models import era

    return era


def _calibration(ctx) -> None:
    """Leave one lab out (``iops_calibration.csv``): how often the held-out lab's figure fell
    inside the interval for a new lab from the other labs, and inside the range printed before."""
    cal = ctx.calibration
    era = _era()
    n_modern = ctx.plan_all.loc[ctx.plan_all["era"] == "modern", "n_labs"]
    if cal.empty:
        say("### Leave one lab out\n\nNo cell has two labs: the intervals for a new lab cannot be checked.")
        return
    cov = ctx.calibration_coverage.set_index("interval")
    new, old = cov.iloc[0], cov.iloc[1]
    say(
        "### Leave one lab out: are the intervals for a new lab calibrated?\n\n"
        "In every cell with two labs or more, each lab is held out in turn and set against the interval for a new lab "
        "that the other labs give, with τ² and the within-lab floor recomputed without it (the held-out lab must not "
        "inform the τ² that predicts it). The held-out lab's figure fell inside {new_in} of {new_n} {what} "
        "({new_cov}; a {pi} interval should hold about {pi} of them); {not_chk} held-out labs cannot be "
        "checked, because no cell keeps two labs without them. The ranges of the other labs' runs, as the rows "
        "printed them before, held {old_in} of {old_n}. {modern}",
        what=(
            "intervals for a new lab"
            if ctx.choices["tau2_source"] != "none"
            else "intervals the rows print (analysis choice `tau2_source` = none: the ranges)"
        ),
        new_in=fmt.num(int(new["inside"])),
        new_n=fmt.num(int(new["checked"])),
        new_cov="no coverage to give" if pd.isna(new["coverage"]) else fmt.pct(new["coverage"]),
        pi=fmt.pct(1 - era.PI_ALPHA),
        not_chk=fmt.num(int(new["not_checkable"])),
        old_in=fmt.num(int(old["inside"])),
        old_n=fmt.num(int(old["checked"])),
        modern=(
            fill(
                "The modern rows rest on {n} lab: there is no lab to hold out, so their borrowed τ² cannot be "
                "checked on modern evidence.",
                n=fmt.num(int(n_modern.max())),
            )
            if len(n_modern) and int(n_modern.max()) < 2
            else ""
        ),
    )
    table(
        mtables.calibration_table(cal),
        "Leave one lab out: held-out labs against the others' intervals",
        "model-calibration",
    )


def _within_lab(ctx) -> None:
    """The within-lab effects (``within_lab_effects.csv``): one lab's runs that differ by one
    declared factor, with a sentence whose numbers come from the table (ratios derived from the
    reported read and write averages)."""
    w = ctx.within_lab
    if w.empty:
        return
    ratio = {e: g["ratio"] for e, g in w.groupby("effect")}
    old_ed = fmt.words(w.loc[w["effect"] == "harness", "a_document"].drop_duplicates()) or "the older edition"

    def span(e: str) -> str:
        r = ratio.get(e, pd.Series(dtype=float))
        return "" if r.empty else f"{r.min():.2f}×" if len(r) == 1 else f"{r.min():.2f}–{r.max():.2f}×"

    say(
        "### Within-lab effects\n\n"
        "Runs of one lab ({lab}) that differ by one declared factor, on the whole-test average, are within-lab "
        "comparisons, not effects for another lab. MCS ran at {prov} the IOPS per desktop of Citrix Provisioning "
        "({n_prov} documents); FSLogix profiles on Nutanix Files colocated with the desktops at {files} the run with "
        "Files on a dedicated cluster; {old_ed} (its harness's disk actions on) at {harness} {new_ed}'s MCS whole "
        "test, a ratio that also holds other hardware, versions and a window without the boot. "
        "{probe}",
        lab=w["lab"].iloc[0],
        prov=span("provisioning"),
        n_prov=fmt.num(int(w.loc[w["effect"] == "provisioning", "a_source_id"].nunique())),
        files=span("profile_storage"),
        harness=span("harness"),
        old_ed=old_ed,
        new_ed=fmt.words(w.loc[w["effect"] == "harness", "b_document"].drop_duplicates()) or "the newer edition",
        probe=(
            fill(
                "{ed} enters the whole-test rows as one more document of the same lab (analysis choice "
                "`probe_handling` = pooled).",
                ed=old_ed,
            )
            if ctx.choices["probe_handling"] == "pooled"
            else fill(
                "{ed} enters no planning row (analysis choice `probe_handling` = {opt}, register {reg}: runs "
                "of unlike harness stay apart).",
                ed=old_ed,
                opt=ctx.choices["probe_handling"],
                reg=", ".join(dict.fromkeys(_era().UNLIKE_PROBES.values())),
            )
        ),
    )
    shown = pd.DataFrame(
        {
            "Effect": w["comparison"],
            "a": w["a_document"] + " " + w["a_configuration"],
            "a IOPS/desktop": w["a_iops_per_desktop"].map(lambda x: f"{x:.1f}"),
            "b": w["b_document"] + " " + w["b_configuration"],
            "b IOPS/desktop": w["b_iops_per_desktop"].map(lambda x: f"{x:.1f}"),
            "a ÷ b (derived)": w["ratio"].map(lambda x: f"{x:.2f}"),
            "Records (a; b)": w["a_record_ids"] + "; " + w["b_record_ids"],
        }
    )
    table(shown, "Within-lab effects on the whole-test average (one lab; per desktop and ratio derived)", "within-lab")


@kept("choices_file")
def iops_model(ctx) -> None:
    """The chapter's heading and the IOPS-per-desktop sections up to the boot storms, one function
    per subsection in reading order: the planning table, between-lab heterogeneity, the seed model
    and its validation, out of sample, calibration, within-lab effects, the boot storms' table."""
    from ...models import iops

    heading(1, "Models", "models")
    pi = fmt.pct(1 - iops.PI_ALPHA)
    _planning(ctx, pi)
    _heterogeneity(ctx)
    _seed_model(ctx, pi)
    _vendor_validation(ctx, pi)
    ext = ctx.external
    if len(ext):
        _external(ctx, ext, pi)
    else:
        say(
            "### Out of sample: the external documents\n\nNo external document has a usable per-desktop observation "
            "yet, so there is no out-of-sample check."
        )
    _calibration(ctx)
    _within_lab(ctx)
    _boot_storms(ctx)


def boot_demand(ctx) -> None:
    """The boot-demand chart for the scenario's boot rate (every provisioned desktop over the boot
    window): drawn on every run, it depends on DESKTOPS and BOOT_WINDOW."""
    p, storms = ctx.params, ctx.boot_storms
    num_storms = storms.assign(
        **{c: pd.to_numeric(storms[c]) for c in ("boot_rate_per_min", "peak_iops", "average_iops")}
    )
    _boot_demand(ctx, num_storms, p["desktops"] / p["boot_window_min"])  # an outage reboots every provisioned desktop


@kept("choices_file")
def profile_density_cost(ctx) -> None:
    """Rules of thumb, the I/O profile, the records the model leaves out, density and cost."""
    _rules_of_thumb(ctx)
    _io_profile(ctx)
    say("### Records the model leaves out")
    table(mtables.exclusions_table(ctx.exclusions), "Records the model leaves out, and why", "model-exclusions")
    _density(ctx)
    _cost(ctx)


def _planning(ctx, pi: str) -> None:
    """The section's opening (what a per-desktop figure aggregates, how rows pool documents and
    labs, the cross-vendor regression kept as a check) and the planning table by era."""
    from ...models import era

    obs, excl = ctx.obs, ctx.exclusions
    say(
        "## IOPS per desktop: what the documents can tell a planner\n\nEach per-desktop figure says what it "
        "aggregates (an array or host total divided by the test's desktops, or a sample of single desktops), over what "
        "window (a phase, or a whole test), at what vantage and under what load (a standard Login VSI workload or a "
        "boosted one); the login peak, the steady-state average and the average over a whole test are separate cells. "
        "The planning rows pool **documents**, one figure per document and cell (its runs or worker classes combined "
        "by their geometric mean): one test bed counts once, and one lab (its documents) counts once. The interval "
        "is a {pi} prediction interval for a new lab from a random-effects meta-analysis of ln IOPS per desktop "
        "over labs (statsmodels `combine_effects`, DerSimonian-Laird τ²): with {min_pi} labs or more with the labs' "
        "own τ², with fewer with τ² borrowed from the seed labs (analysis choice `tau2_source`, here `{tau2_option}`; "
        "`none` keeps the range of the labs' runs). Two eras are never pooled: the seed documents and the modern "
        "(external) ones, each row with the number of "
        "documents behind it. The rows are knowledge-worker rows: Login VSI {classes} observations enter, task-worker "
        "samples do not (Login VSI defines the task worker as a lighter workload). Boot storms are sized by boot rate. "
        "The cross-vendor regression (statsmodels OLS on the logarithm; the criteria computed in notebook "
        "`04_iops_model` chose the **{spec}** specification) is kept as a check of the seed cells, on {n_obs} "
        "observations from {n_docs} documents; {n_excl} records are left out, each with its reason ({ref_excl}).",
        min_pi=fmt.num(era.MIN_FOR_PI),
        tau2_option=ctx.choices["tau2_source"],
        classes=fmt.words(era.PLANNING_CLASSES),
        spec=ctx.cv["spec"].iloc[0] if len(ctx.cv) else "",
        pi=pi,
        n_obs=len(obs),
        n_docs=obs["vendor"].nunique(),
        n_excl=excl["record_id"].nunique(),
        ref_excl=ref("model-exclusions"),
    )
    table(
        mtables.prediction_table(ctx.plan),
        "Planning table by era: IOPS per desktop pooled over documents, boot rows, read share, I/O size, latency",
        "model-prediction",
        {
            "Era": "8%",
            "Phase": "9%",
            "Statistic": "9%",
            "Worker class": "11%",
            "Estimate": "13%",
            "Interval": "26%",
            "Documents": "11%",
            "Modern ÷ seed": "9%",
            "Read share; KB per I/O (derived); latency, ms (reported, median)": "13%",
        },
    )


def _seed_model(ctx, pi: str) -> None:
    """What each observation was measured with, the seed rows against every seed observation
    (chart), and the cross-vendor regression's coefficients."""
    from ...models import era, iops

    pred = ctx.pred
    table(
        mtables.context_table(ctx.observation_context),
        "What each observation was measured with: Login VSI version, guest OS, clone type, broker",
        "model-context",
    )
    figure(
        charts.prediction_chart(pred[pred["phase"] != "boot"].assign(worker_class=iops.ANY_CLASS), ctx.obs),
        fill(
            "IOPS per desktop, seed era: the row pooled over documents (black dot) with its interval (grey bar, as "
            "the planning table names it: a {pi} prediction interval for a new lab, or with fewer than {min_pi} labs "
            "and no τ² borrowed, analysis choice {choice} = none, the range of the labs' runs) per cell, and every "
            "seed observation (crosses, "
            "colour = vendor; task-worker samples are shown but "
            "not pooled)",
            pi=pi,
            min_pi=fmt.num(era.MIN_FOR_PI),
            choice="tau2_source",
        ),
        "model-prediction-chart",
    )
    table(
        mtables.coefficient_table(ctx.coefs),
        f"Model coefficients (IOPS per desktop per cell, {fmt.pct(1 - iops.CI_ALPHA)} CI)",
        "model-coefficients",
    )


def _vendor_validation(ctx, pi: str) -> None:
    """Leave one vendor out (``cv_by_vendor``): per held-out vendor, its error factor, coverage and
    the interval's sharpness, in words and as a table."""
    bv = ctx.cv_by_vendor
    say(
        "### Validation: leave one vendor out, per vendor\n\nEach vendor's figures are predicted by the model fitted "
        "to the other vendors only. Per held-out vendor: the error factor, how many observations fell inside the {pi} "
        "interval, and the interval's sharpness (median ratio of its ends). There is no all-vendor figure: pooled, it "
        "would hide intervals too wide to guide a purchase.\n\n{items}",
        pi=pi,
        items="\n".join(
            f"- **{r.held_out}**: "
            + (
                f"{r.n_predicted} of {r.n_obs} observations predictable; typical error factor "
                f"{r.median_error_factor:.2f}; {r.n_covered} of {r.n_predicted} inside the {pi} "
                f"interval; interval ends {r.sharpness:.1f}× apart"
                + (" (too wide to inform a purchase)" if r.vacuous else "")
                if r.n_predicted
                else f"none of its {r.n_obs} observations can be predicted from the "
                "other vendors (a cell only it reports, or too few observations left)"
            )
            for r in bv.itertuples()
        ),
    )
    table(mtables.cv_table(bv), "Leave-one-vendor-out validation, per held-out vendor", "model-cv")


def _boot_storms(ctx) -> None:
    """Boot storms by rate: each document's storm (table) and the arrays at a limit during it (the
    demand chart with the scenario's boot rate follows: ``boot_demand``)."""
    storms = ctx.boot_storms
    say(
        "## Boot storms by rate\n\nA boot storm's peak is set by how fast desktops are booted, not by the desktop "
        "alone. Per document: the boot rate (desktops ÷ boot duration), the I/O one desktop boot costs (average IOPS × "
        "duration ÷ desktops; an upper bound where only a peak is given) and the peak IOPS per desktop booted per "
        "minute. The sizing scenario multiplies the last by its boot rate."
    )
    table(
        mtables.boot_table(storms),
        "Boot storms: rate, I/O per desktop boot, peak IOPS per desktop booted per minute",
        "boot-storms",
    )
    _boot_at_limit(ctx, storms[storms["in_rate_model"]])  # the storms the boot-rate model pools (stage iops_model)


def _boot_at_limit(ctx, fitted: pd.DataFrame) -> None:
    """A sentence naming the storms the boot-rate model pools (``fitted``) that ran at a limit
    (density summary ``boot_limit``): their peak may understate an unconstrained storm."""
    limits = ctx.density_summary
    limits = limits[
        limits["vendor"].isin(fitted["vendor"]) & limits["boot_limit"].fillna("").astype(str).str.strip().ne("")
    ]
    if not len(limits):
        return
    at_limit = [
        fill(
            "{who}: {what}",
            who=" ".join(
                x
                for x in (
                    r.vendor,
                    ctx.label("configuration", r.configuration)
                    if isinstance(r.configuration, str) and r.configuration
                    else "",
                )
                if x
            ),
            what=r.boot_limit,
        )
        for r in limits.itertuples()
    ]
    n_at = limits["vendor"].nunique()
    say(
        "The boot-rate model rests on {n_fit}, and {which} at a limit during the boot storm ({ref_d}): {items}. "
        "A peak measured at a limit is what the array delivered, not necessarily what the desktops asked for: "
        "the model's peak per desktop booted per minute may understate an unconstrained boot storm.",
        n_fit=_count(fitted["vendor"].nunique(), "document"),
        ref_d=ref("density"),
        which=(
            "both were"
            if n_at == 2 == fitted["vendor"].nunique()
            else ("all were" if n_at == fitted["vendor"].nunique() else fill("{k} of them was", k=fmt.num(n_at)))
        ),
        items="; ".join(at_limit),
    )


def _boot_demand(ctx, num_storms: pd.DataFrame, rate: float) -> None:
    """The boot-demand chart: each document's peak at its rate, the scenario stage's line and band
    (``boot_demand_line``) and the scenario's boot ``rate`` (desktops per minute)."""
    from ...models import boot as boot_mod

    pred = ctx.pred
    line = ctx.boot_demand_line(rate)  # the scenario stage's line, for this scenario's rate
    end = float(line.loc[line["part"] == boot_mod.FITTED, "boot_rate_per_min"].max())
    ext_end = float(line["boot_rate_per_min"].max())
    peak_row = pred[pred["phase"] == "boot"].set_index("statistic").loc["peak_per_rate"]
    figure(
        charts.demand_chart(line, num_storms, scenario_rate=rate),
        fill(
            "Boot-storm demand against the boot rate. Points: each document's peak boot IOPS at its tested rate; "
            "filled: as reported; open, with a caret towards the true value: a bound (a boot rate from a duration "
            "stated as an upper bound, a peak stated as an upper bound, or an average standing in for a peak that "
            "was not reported, which the peak is at least). "
            "Black line: the model, boot rate × peak IOPS per desktop booted per minute ({est}); grey band: the same "
            "with "
            "{lo}–{hi} per desktop booted per minute, the {kind}; both drawn up to {end} desktops per minute "
            "({factor}× the highest rate the model was fitted on)"
            "{extra}. Dashed vertical line: the scenario's boot rate ({rate} desktops per minute).",
            est=fmt.num(peak_row["estimate"]),
            kind=peak_row.get("interval_spans") or peak_row["interval_kind"],  # the whole wording: the table
            lo=fmt.num(peak_row["pi90_low"]),
            hi=fmt.num(peak_row["pi90_high"]),
            end=fmt.num(end),
            factor=f"{boot_mod.EXTRAPOLATION_FACTOR:g}",
            rate=fmt.num(rate),
            extra=(
                fill(
                    ", then dashed to the scenario's rate ({to}): {what}",
                    to=fmt.num(ext_end),
                    what=boot_mod.EXTRAPOLATED,
                )
                if ext_end > end
                else ""
            ),
        ),
        "boot-demand",
    )


def _rules_of_thumb(ctx) -> None:
    """The IOPS-per-desktop rules the documents quote, beside the seed steady-state row."""
    pred = ctx.pred
    say(
        "### The rules of thumb the documents quote\n\nEach rule is set beside the model's steady-state average "
        "(pooled over classes where the model cannot separate them). Rules are reported values and never enter the "
        "model as data. The steady-state interval is {steady}, so a rule outside it is outside what {docs} measured, "
        "not outside a prediction for a new deployment.",
        steady=_steady_interval(pred),
        docs=_steady_docs(pred),
    )
    table(
        mtables.rules_table(ctx.rules_of_thumb),
        "Quoted IOPS-per-desktop rules against the model",
        "model-rules",
    )


def _io_profile(ctx) -> None:
    """Read share and implied I/O size per seed test (``io_profile``)."""
    say(
        "### Read/write mix and I/O size\n\nDerived from tests that report read and write IOPS, or throughput and "
        "IOPS, at the same vantage. The implied I/O size is throughput ÷ IOPS in binary KB. Array back-end figures "
        "include the array's own I/O and are not the desktops' demand. Seed documents only: the external "
        "documents' mix is not pooled with them."
    )
    profile = ctx.io_profile
    table(
        mtables.io_profile_table(profile[profile["role"] == "seed"]),
        "Read share and implied I/O size per test (derived)",
        "io-profile",
        {
            "Vendor": "11%",
            "Test": "15%",
            "Phase": "13%",
            "Statistic, vantage": "17%",
            "Read share (derived)": "9%",
            "KB per I/O (derived)": "9%",
            "Sources": "22%",
        },
    )


def _density(ctx) -> None:
    from ...models import density

    say(
        "## Density: demonstrated before extrapolated\n\nFor each tested array and configuration: what it "
        "demonstrably carried (desktops, with both controllers and with one down), the busiest resource it reported, "
        "and only then what the figures allow beyond the test. Controller CPU (array CPU, MPU) is extrapolated under a "
        "stated scaling law (a resource at *u* % with *d* desktops saturates at *d* × {limit} ÷ *u*; an assumption: "
        "controller load need not grow linearly). Port bandwidth gives a limit from link speed × ports. Nothing is "
        "extrapolated from a figure at {saturated} or more (the test already reached a limit), from disk or "
        "flash-module busy (not proportional to desktops), or from a statement the claims table rates *not "
        "testable*. A peak maximum is never above the average-based one. Where another reported resource of the same "
        "phases cannot be extrapolated (its headroom is unknown), a maximum from a resource that scales is only an "
        "upper bound (≤), and nothing is determined when that maximum was itself only a lower bound. A boot storm at "
        "a limit limits the boot rate, not the number of desktops.",
        limit=fmt.num(density.LIMIT_PCT),
        saturated=f"{fmt.num(density.SATURATED_PCT)} %",
    )
    summ = ctx.density_summary
    table(
        mtables.density_table(summ),
        "Density per array: demonstrated, busiest resource, extrapolated only where it scales (the notes below "
        "give each maximum's basis and the vendors' claims)",
        "density",
        {
            "Array": "16%",
            "Desktops demonstrated (normal / one controller down)": "14%",
            "Busiest resource (reported)": "28%",
            "Max at peak (model)": "14%",
            "Max on averages (model)": "14%",
            "Max at peak, one controller down (model)": "14%",
        },
    )
    say("{items}", items="\n".join("- " + t for t in mtables.summary_sentences(summ)))


def _cost(ctx) -> None:
    """Cost per desktop: the assumptions, the readings of the vendors' claims, the price per tested
    desktop (only from an assumed array price), then the tiered configurations."""
    from ...models import cost

    a = ctx.cost_assumptions  # as the cost stage read them from COST_FILE
    say(
        "## Cost per desktop\n\nNo document states an array price, and the audit register sets every vendor "
        "$-per-desktop claim aside. Each claim is shown with every reading its document allows and what each reading "
        "implies; cost per desktop is computed only from array prices stated in the assumptions file "
        "(`data/raw/cost_assumptions.csv`, or `COST_FILE`), each with its scope ({ref_a}).",
        ref_a=ref("cost-assumptions"),
    )
    table(mtables.assumptions_table(a), "Cost assumptions (all assumed, with their scope)", "cost-assumptions")
    table(
        mtables.readings_table(ctx.cost_readings),
        "Readings of the vendors' dollar-per-desktop claims (not quotes: no document states an array price)",
        "cost-readings",
    )
    per_desktop = ctx.cost
    if len(per_desktop):
        say("{line}", line=answers.scenario_cost_sentence(ctx))  # the per-array answers' figures
        table(
            mtables.cost_table(per_desktop),
            "Price per tested desktop: each quote over the desktops the array carried in its test (not the scenario's "
            "cost per desktop)",
            "cost-per-desktop",
        )
    else:
        say(
            "No array price is assumed, so no cost per desktop is computed: a price enters only as a row "
            "`{prefix}<source_id>` of the assumptions file, with its scope and rationale.",
            prefix=cost.ARRAY_PRICE_PREFIX,
        )
    _tiering(ctx, a)


def _tiering(ctx, a: pd.DataFrame) -> None:
    """Tiered configurations (``drive_mix``, ``tiering_saving``): the flash modules a tiered
    configuration saves with its HDDs counted at the assumed HDD/FMD price ratio (assumptions
    ``a``), and the saving curve against that ratio."""
    drives, savings = ctx.drive_mix, ctx.tiering_saving
    if not (len(drives) and len(savings)):
        return
    ratio = float(savings["hdd_to_fmd_price_ratio"].iloc[0])
    tiered = str(savings["tiered"].iloc[0])
    sav = savings.to_dict("records")
    d = drives.set_index("configuration")
    say(
        "### Tiered configurations: flash modules saved, HDDs included\n\nA document that compares drive counts "
        "of configurations that replace flash modules (FMD) with HDDs saves flash modules, but the HDDs cost money "
        "too. Counting them at an assumed HDD/FMD price ratio (drives only): {drives} (reported). {savings} "
        "Shelves, power and the tiering licence are not counted.{limits}",
        drives=", ".join(
            f"{ctx.label('configuration', c)}: {fmt.num(d.at[c, 'fmd'])} FMD + {fmt.num(d.at[c, 'hdd'])} HDD"
            for c in d.index
        ),
        savings=" ".join(
            f"{ctx.label('configuration', s['tiered'])} against {ctx.label('configuration', s['reference'])}: "
            f"{fmt.pct(s['claimed_fmd_only'])} fewer FMDs, a {fmt.pct(s['with_hdds'])} drive-cost saving "
            f"with the HDDs at {ratio:g} × an FMD's price (assumed), and none if an HDD costs "
            f"{s['break_even_ratio']:.2f} × an FMD or more."
            for s in sav
        ),
        limits=_limits_note(ctx, [tiered, *(s["reference"] for s in sav)]),
    )
    figure(
        charts.saving_curve(ctx.tiering_saving_curve, savings, a),
        "Drive-cost saving against the HDD/FMD price ratio (assumed)",
        "saving-curve",
    )


def _limits_note(ctx, configurations: list[str]) -> str:
    """A sentence naming the compared configurations that ran at a limit in their test (density
    summary ``peak_bound == limit``): a drive saving there came with no headroom left."""
    summ = ctx.density_summary
    at = summ[summ["configuration"].isin(configurations) & (summ["peak_bound"] == "limit")]
    if at.empty:
        return ""
    names = fmt.words(ctx.label("configuration", c) for c in at["configuration"])
    why = "; ".join(
        f"{ctx.label('configuration', r.configuration)}: {r.peak_basis.replace('limit reached: ', '')}"
        for r in at.itertuples()
    )
    verb = "ran at a limit in their tests" if len(at) > 1 else "ran at a limit in its test"
    return (
        f" {names} {verb} ({why}): the drives compared carried the load with no headroom left, so the saving "
        "is not one at equal headroom."
    )


def calculator_inputs(ctx) -> tuple[str, pd.DataFrame]:
    """The sizing calculator's starting scenario, as the HTML form opens it: (its parameters in
    words, e.g. ``era Modern (2022–2024), 2,000 desktops, ...``; its per-phase figures, columns
    Phase, Figure (with its unit), Read share, KB per I/O), from the report parameters and
    ``sizing_inputs.json`` (or ``PROFILE_FILE``)."""
    from ...models import scenario

    p = ctx.params
    params = fill(
        "era {era}, {desktops} desktops, concurrency {conc} (fraction active), headroom {head} (fraction kept free), "
        "boot window {boot} min (all desktops), login window {login} min (active users), RAID {raid} (write penalty "
        "{penalty}), failover {failover}",
        era=ctx.label("era", p["era"]),
        desktops=fmt.num(p["desktops"]),
        conc=f"{float(p['concurrency']):g}",
        head=f"{float(p['headroom']):g}",
        boot=fmt.num(p["boot_window_min"]),
        login=fmt.num(p["login_window_min"]),
        raid=p["raid"],
        penalty=scenario.WRITE_PENALTY[p["raid"]],
        failover=p["failover"],
    )
    era = ctx.sizing_inputs["eras"][p["era"]]
    prof = ctx.profile

    def figure_of(ph, c):
        if prof:
            return prof[ph][c]
        return era["per_desktop"][ph]["estimate"] if c == "iops_per_desktop" else era[c][ph]

    def shown(v, c):
        if v is None or (isinstance(v, float) and pd.isna(v)):
            return "–"
        return fmt.pct(v) if c == "read_share" else fmt.num(v)

    phases = pd.DataFrame(
        {
            "Phase": [ctx.label("phase", ph) for ph in config.SCENARIO_PHASES],
            "Figure": [
                f"{shown(figure_of(ph, 'iops_per_desktop'), 'iops')} {scenario.PROFILE_UNITS[ph]}"
                for ph in config.SCENARIO_PHASES
            ],
            "Read share": [shown(figure_of(ph, "read_share"), "read_share") for ph in config.SCENARIO_PHASES],
            "KB per I/O": [shown(figure_of(ph, "io_size_kb"), "io") for ph in config.SCENARIO_PHASES],
        }
    )
    return params, phases


def calculator_print(ctx) -> str:
    """What the PDF prints for the HTML report's sizing calculator: what it does, and its starting
    scenario (``calculator_inputs``: the parameters in words, the per-phase figures as a small
    table without a caption, print only, so it takes no Table number that the HTML would lack),
    whose results are the scenario table."""
    from .. import tables

    params, phases = calculator_inputs(ctx)
    return fill(
        "The HTML report has a sizing calculator: change the era, desktops, concurrency, headroom, boot and login "
        "windows, RAID level or failover, or edit the per-phase figures, and it recomputes {ref_t} in the page with "
        "the same formulas as the Python sizing function (a test checks that the two agree); for a price per array "
        "you type, it also gives each tested configuration's verdict, the arrays needed and the cost per desktop, "
        "and it saves the scenario as a link or a CSV file. It opens on this report's scenario ({params}), whose "
        "results are {ref_t}, with these per-phase figures:\n\n{phases}\n",
        ref_t=ref("scenario"),
        params=params,
        phases=tables.styled(phases, key="calc-print-phases").to_html(),
    )


def _scenario(ctx) -> None:
    rows, how = scenario_rows(ctx)
    say(
        "## Sizing scenario\n\n{how} Report parameters `DESKTOPS`, `CONCURRENCY`, `HEADROOM`, `BOOT_WINDOW`, "
        "`LOGIN_WINDOW`, `RAID`, `FAILOVER`, `ERA`, `PROFILE_FILE` (no worker class: the planning rows "
        "are knowledge-worker rows); written to `reports/sizing_scenario.csv` with every input of each row.",
        how=how,
    )
    table(rows, "Sizing scenario per phase (model)", "scenario")
    say("### Sizing calculator")
    html_only(calculator.calculator_html(ctx), calculator_print(ctx))
    html_only(verdict_calculator.verdicts_html(ctx, ctx.quotes), "")  # print: said in calculator_print


def _steady_row(pred):
    r = pred[(pred["phase"] == "steady_state") & (pred["statistic"] == "average")]
    return r.iloc[0] if len(r) else None


def _steady_interval(pred) -> str:
    """The seed steady-state row's interval in words (``iops.interval_words``)."""
    from ...models.iops.planning import interval_words

    r = _steady_row(pred)
    return "not estimable" if r is None else f"the {interval_words(str(r.get('interval_kind', '') or ''))}"


def _steady_docs(pred) -> str:
    r = _steady_row(pred)
    return "the documents" if r is None or not r.get("documents", "") else str(r["documents"])


def scenario(ctx) -> None:
    """The sizing scenario and the calculator: drawn on every run (every report parameter)."""
    _scenario(ctx)


# the chapter's parts in reading order (sections.parts): those marked ``kept`` are replayed between
# runs while the parameters they state and the report's inputs are unchanged (chapter_cache)
PARTS = (iops_model, boot_demand, profile_density_cost, scenario)


def render(ctx) -> None:
    for part in PARTS:
        part(ctx)
