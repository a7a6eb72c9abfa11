"""Chapter 4, Models: IOPS per desktop (one model for all vendors, validated by leaving one vendor
out), rules of thumb, I/O profile, headroom and density, cost per desktop, the sizing scenario
and (HTML) the sizing calculator."""

import pandas as pd

from ... import config
from ...models import tables as mtables
from .. import calculator, fmt
from ..show import figure, heading, html_only, ref, say, table


def scenario_rows(ctx) -> tuple[pd.DataFrame, str]:
    """The report scenario sized by ``scenario.size`` (the contract of issue 12): (display
    table, one sentence saying how). Also writes ``reports/sizing_scenario.csv``."""
    from ... import files

    s = ctx.sizing
    config.REPORTS_DIR.mkdir(parents=True, exist_ok=True)
    files.write_csv(s, config.REPORTS_DIR / "sizing_scenario.csv")
    return mtables.sizing_table(s), fmt_how(ctx)


def fmt_how(ctx) -> str:
    """The scenario's formulas in words, with the report parameters (for the prose)."""
    p, inputs = ctx.params, ctx.sizing_inputs
    return (f"{fmt.num(p['desktops'])} {ctx.label('worker_class', p['worker_class']).lower()} desktops, "
            f"{fmt.pct(p['concurrency'])} active at once, {fmt.pct(p['headroom'])} headroom, all booted within "
            f"{fmt.num(p['boot_window_min'])} minutes, RAID: {p['raid']} (write penalty {inputs['write_penalty'][p['raid']]}), "
            f"failover: {p['failover']}. Active desktops = desktops × concurrency; login and steady state: active × IOPS "
            "per desktop; boot: (active ÷ boot window) × peak IOPS per desktop booted per minute; everything ÷ "
            "(1 − headroom); back end = front end × (read share + (1 − read share) × write penalty); throughput = "
            "front end × I/O size.")


def _iops_model(ctx) -> None:
    from ...models import boot as boot_mod
    from ...models import iops

    pi, ci = fmt.pct(1 - iops.PI_ALPHA), fmt.pct(1 - iops.CI_ALPHA)
    pred, obs, excl = ctx.pred, ctx.obs, ctx.exclusions
    model_rows = pred[pred["phase"] != "boot"]
    pooled = (model_rows["worker_class"] == iops.ANY_CLASS).all()
    say("## IOPS per desktop: what the documents can tell a planner\n\nEach per-desktop figure says what it "
        "aggregates (an array or host total divided by the test's desktops, or a sample of single desktops), over what "
        "window (a phase, or a whole test spanning login and steady state), at what vantage and under what load (a "
        "standard Login VSI workload or a boosted one). The model (statsmodels OLS on the logarithm) uses like with "
        "like: the login peak, the steady-state average and the average over a whole test are separate cells. Boot "
        "storms are modelled by boot rate. The criteria computed in notebook `04_iops_model` (held-out predictions, "
        "leave-one-vendor-out error, AIC) choose the **{spec}** specification. {pooled} It rests on {n_obs} "
        "observations from {n_docs} documents; {n_excl} records are left out, each with its reason ({ref_excl}).",
        spec=model_rows["spec"].iloc[0], n_obs=len(obs), n_docs=obs["vendor"].nunique(),
        n_excl=excl["record_id"].nunique(), ref_excl=ref("model-exclusions"),
        pooled=(f"It pools the worker classes ({iops.class_vendors(obs)}): the class effect cannot be separated from the "
                "vendor effect." if pooled else "It estimates a worker-class effect."))
    table(mtables.prediction_table(pred), f"Planning table: IOPS per desktop (model, {pi} interval), boot-rate model, "
          "read share, I/O size, latency", "model-prediction")
    table(mtables.context_table(iops.observation_context(obs, ctx.boot_storms.assign(
        peak_iops_per_rate=pd.to_numeric(ctx.boot_storms["peak_iops_per_rate"])), ctx.sources)),
        "What each observation was measured with: Login VSI version, guest OS, clone type, broker", "model-context")
    figure(iops.prediction_chart(model_rows, obs), "IOPS per desktop: model and observations", "model-prediction-chart")
    table(mtables.coefficient_table(ctx.coefs), f"Model coefficients (IOPS per desktop per cell, {ci} CI)",
          "model-coefficients")
    bv = ctx.cv_by_vendor
    say("### Validation: leave one vendor out, per vendor\n\nEach vendor's figures are predicted by the model fitted "
        "to the other vendors only. Per held-out vendor: the error factor, how many observations fell inside the {pi} "
        "interval, and the interval's sharpness (median ratio of its ends). There is no all-vendor figure: pooled, it "
        "would hide intervals too wide to guide a purchase.\n\n{items}", pi=pi, items="\n".join(
            f"- **{r.held_out}**: " + (f"{r.n_predicted} of {r.n_obs} observations predictable; typical error factor "
                                     f"{r.median_error_factor:.2f}; {r.n_covered} of {r.n_predicted} inside the {pi} "
                                     f"interval; interval ends {r.sharpness:.1f}× apart"
                                     + (" (too wide to inform a purchase)" if r.vacuous else "")
                                     if r.n_predicted else f"none of its {r.n_obs} observations can be predicted from the "
                                     "other vendors (a cell only it reports, or too few observations left)")
            for r in bv.itertuples()))
    table(mtables.cv_table(bv), "Leave-one-vendor-out validation, per held-out vendor", "model-cv")
    ext = ctx.external
    if len(ext):
        ext = ext.assign(**{c: ext[c].astype(float) for c in ("observed", "predicted", "pi90_low", "pi90_high", "ratio")},
                         covered=ext["covered"].astype(str).eq("True"))
        exact = ext[ext["bound"] != "lt"]
        say("### Out of sample: the external documents\n\nLater documents (`role = external` in `sources.csv`) are "
            "never fitted; the seed model predicts their figures, labelled by what differs. {n} external figures from "
            "{n_docs} documents ({tools}; {oses}). Of the {n_exact} exact ones, {n_in} fall inside the seed model's {pi} "
            "interval; observed ÷ predicted runs from {lo} to {hi}. Upper bounds (a sum of separate read and write "
            "peaks) are marked. Documents with another load tool and guest OS sit far from the seeds: the planning "
            "table describes the seeds' era ({years}), not today's desktops.",
            n=len(ext), n_docs=ext["source_id"].nunique(), tools=", ".join(sorted(set(ext["load_tool"]))),
            oses=", ".join(sorted(set(ext["guest_os"]))), n_exact=len(exact), n_in=int(exact["covered"].sum()), pi=pi,
            lo=f"{exact['ratio'].min():.1f}×" if len(exact) else "–", hi=f"{exact['ratio'].max():.1f}×" if len(exact) else "–",
            years="–".join(dict.fromkeys([ctx.seeds["published"].astype(str).str[:4].min(),
                                          ctx.seeds["published"].astype(str).str[:4].max()])))
        table(mtables.external_table(ext), "External documents predicted by the seed model", "model-external",
              {"Source": "9%", "Broker": "11%", "Load tool": "9%", "Guest OS": "9%", "Platform": "10%", "Test": "7%",
               "Cell": "7%", "Observed (derived)": "7%", "Predicted (model, 90 % PI)": "9%", "Observed / predicted": "6%",
               "Inside PI": "5%", "Records": "11%"})
        eb = ctx.boot_external
        if len(eb):
            say("Boot storms of the external documents against the seeds' boot-rate model: {items}.", items="; ".join(
                f"{r.source_id} {r.statistic.replace('_', ' ')} {r.observed:,.0f} ({r.bound}; seeds {r.low:,.0f}–"
                f"{r.high:,.0f}): {r.inside}" for r in eb.itertuples()))
    else:
        say("### Out of sample: the external documents\n\nNo external document has a usable per-desktop observation "
            "yet, so there is no out-of-sample check.")
    storms = ctx.boot_storms
    say("## Boot storms by rate\n\nA boot storm's peak is set by how fast desktops are booted, not by the desktop "
        "alone. Per document: the boot rate (desktops ÷ boot duration), the I/O one desktop boot costs (average IOPS × "
        "duration ÷ desktops; an upper bound where only a peak is given) and the peak IOPS per desktop booted per "
        "minute. The sizing scenario multiplies the last by its boot rate.")
    table(mtables.boot_table(storms), "Boot storms: rate, I/O per desktop boot, peak IOPS per desktop booted per minute",
          "boot-storms")
    p = ctx.params
    figure(boot_mod.demand_chart(pred[pred["phase"] == "boot"], storms.assign(
        **{c: pd.to_numeric(storms[c]) for c in ("boot_rate_per_min", "peak_iops", "average_iops")}),
        scenario_rate=p["desktops"] * p["concurrency"] / p["boot_window_min"]),
        "Boot-storm demand against the boot rate", "boot-demand")
    say("### The rules of thumb the documents quote\n\nEach rule is set beside the model's steady-state average "
        "(pooled over classes where the model cannot separate them). Rules are reported values and never enter the "
        "model as data.")
    table(mtables.rules_table(iops.rules_of_thumb(ctx.results, pred)),
          "Quoted IOPS-per-desktop rules against the model", "model-rules")
    say("### Read/write mix and I/O size\n\nDerived from tests that report read and write IOPS, or throughput and "
        "IOPS, at the same vantage. The implied I/O size is throughput ÷ IOPS in binary KB. Array back-end figures "
        "include the array's own I/O and are not the desktops' demand. Seed documents only: the external "
        "documents' mix is not pooled with them.")
    profile = iops.io_profile(ctx.results)
    table(mtables.io_profile_table(profile[profile["role"] == "seed"]), "Read share and implied I/O size per test (derived)",
          "io-profile", {"Vendor": "11%", "Test": "15%", "Phase": "13%", "Statistic, vantage": "17%",
                         "Read share (derived)": "9%", "KB per I/O (derived)": "9%", "Sources": "22%"})
    say("### Records the model leaves out")
    table(mtables.exclusions_table(excl), "Records the model leaves out, and why", "model-exclusions")


def _density(ctx) -> None:
    from ...models import density

    say("## Density: demonstrated before extrapolated\n\nFor each tested array and configuration: what it "
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
        limit=fmt.num(density.LIMIT_PCT), saturated=f"{fmt.num(density.SATURATED_PCT)} %")
    summ = ctx.density_summary
    table(mtables.density_table(summ), "Density per array: demonstrated, busiest resource, extrapolated only where "
          "it scales", "density")
    say("{items}", items="\n".join("- " + t for t in density.summary_sentences(summ)))


def _cost(ctx) -> None:
    from ...models import cost

    a = cost.load_assumptions(ctx.params.get("cost_file") or config.RAW_DIR / "cost_assumptions.csv")
    say("## Cost per desktop\n\nNo document states an array price, and the audit register sets every vendor "
        "$-per-desktop claim aside. Each claim is shown with every reading its document allows and what each reading "
        "implies; cost per desktop is computed only from array prices stated in the assumptions file "
        "(`data/raw/cost_assumptions.csv`, or `COST_FILE`), each with its scope ({ref_a}).", ref_a=ref("cost-assumptions"))
    table(mtables.assumptions_table(a), "Cost assumptions (all assumed, with their scope)", "cost-assumptions")
    table(mtables.readings_table(ctx.cost_readings), "The vendors' $ per desktop claims: each reading and its "
          "consequence", "cost-readings")
    per_desktop = ctx.cost
    if len(per_desktop):
        table(mtables.cost_table(per_desktop), "Cost per desktop from assumed array prices", "cost-per-desktop")
    else:
        say("No array price is assumed, so no cost per desktop is computed: a price enters only as a row "
            "`{prefix}<source_id>` of the assumptions file, with its scope and rationale.", prefix=cost.ARRAY_PRICE_PREFIX)
    drives = cost.drive_mix(ctx.results)
    if len(drives):
        ratio = cost.values(a)["hdd_to_fmd_price_ratio"]
        tiered = cost.tiered_configuration(drives)
        sav = [cost.tiering_saving(drives, ratio, r, tiered) for r in drives["configuration"] if r != tiered]
        d = drives.set_index("configuration")
        say("### Tiered configurations: flash modules saved, HDDs included\n\nA document that compares drive counts "
            "of configurations that replace flash modules (FMD) with HDDs saves flash modules, but the HDDs cost money "
            "too. Counting them at an assumed HDD/FMD price ratio (drives only): {drives} (reported). {savings} "
            "Shelves, power and the tiering licence are not counted.{limits}",
            drives=", ".join(f"{ctx.label('configuration', c)}: {fmt.num(d.at[c, 'fmd'])} FMD + {fmt.num(d.at[c, 'hdd'])} HDD"
                             for c in d.index),
            savings=" ".join(f"{ctx.label('configuration', s['tiered'])} against {ctx.label('configuration', s['reference'])}: "
                             f"{fmt.pct(s['claimed_fmd_only'])} fewer FMDs, a {fmt.pct(s['with_hdds'])} drive-cost saving "
                             f"with the HDDs at {ratio:g} × an FMD's price (assumed), and none if an HDD costs "
                             f"{s['break_even_ratio']:.2f} × an FMD or more." for s in sav),
            limits=_limits_note(ctx, [tiered, *(s["reference"] for s in sav)]))
        figure(cost.saving_curve(drives, a), "Drive-cost saving against the HDD/FMD price ratio (assumed)", "saving-curve")


def _limits_note(ctx, configurations: list[str]) -> str:
    """A sentence naming the compared configurations that ran at a limit in their test (density
    summary ``peak_bound == limit``): a drive saving there came with no headroom left."""
    summ = ctx.density_summary
    at = summ[summ["configuration"].isin(configurations) & (summ["peak_bound"] == "limit")]
    if at.empty:
        return ""
    names = fmt.words(ctx.label("configuration", c) for c in at["configuration"])
    why = "; ".join(f"{ctx.label('configuration', r.configuration)}: {r.peak_basis.replace('limit reached: ', '')}"
                    for r in at.itertuples())
    verb = "ran at a limit in their tests" if len(at) > 1 else "ran at a limit in its test"
    return (f" {names} {verb} ({why}): the drives compared carried the load with no headroom left, so the saving "
            "is not one at equal headroom.")


def _scenario(ctx) -> None:
    rows, how = scenario_rows(ctx)
    say("## Sizing scenario\n\n{how} Report parameters `DESKTOPS`, `WORKER`, `CONCURRENCY`, `HEADROOM`, "
        "`BOOT_WINDOW`, `RAID`, `FAILOVER`; written to `reports/sizing_scenario.csv`.", how=how)
    table(rows, "Sizing scenario per phase (model)", "scenario")
    say("### Sizing calculator")
    html_only(calculator.calculator_html(ctx),
              "The HTML report has a sizing calculator: change desktops, worker class, concurrency, headroom, boot "
              "window, RAID level and failover and it recomputes this table in the page, with the same formulas as "
              "the Python sizing function (a test checks that the two agree).")


def render(ctx) -> None:
    heading(1, "Models", "models")
    _iops_model(ctx)
    _density(ctx)
    _cost(ctx)
    _scenario(ctx)
