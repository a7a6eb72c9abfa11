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
            f"{fmt.num(p['boot_window_min'])} minutes, {p['raid']} (write penalty {inputs['write_penalty'][p['raid']]}), "
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
        pooled=("It pools the worker classes: each class but knowledge comes from a single vendor, so the class effect "
                "cannot be separated from the vendor effect." if pooled else "It estimates a worker-class effect."))
    table(mtables.prediction_table(pred), f"Planning table: IOPS per desktop (model, {pi} interval), boot-rate model, "
          "read share, I/O size, latency", "model-prediction")
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
        say("### Out of sample: the external documents\n\nLater documents (`role = external` in `sources.csv`) are "
            "never fitted; the seed model predicts their figures, labelled by what differs (broker, load tool, guest "
            "OS, platform). {n_in} of {n} external observations fall inside the seed model's {pi} interval; observed "
            "÷ predicted ranges from {lo} to {hi}.", n_in=int(ext["covered"].sum()), n=len(ext), pi=pi,
            lo=f"{ext['ratio'].min():.2f}×", hi=f"{ext['ratio'].max():.2f}×")
        table(mtables.external_table(ext), "External documents predicted by the seed model", "model-external")
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
        "include the array's own I/O and are not the desktops' demand.")
    table(mtables.io_profile_table(iops.io_profile(ctx.results)), "Read share and implied I/O size per test (derived)",
          "io-profile", {"Vendor": "11%", "Test": "15%", "Phase": "13%", "Statistic, vantage": "17%",
                         "Read share (derived)": "9%", "KB per I/O (derived)": "9%", "Sources": "22%"})
    say("### Records the model leaves out")
    table(mtables.exclusions_table(excl), "Records the model leaves out, and why", "model-exclusions")


def _density(ctx) -> None:
    from ...models import density

    say("## Headroom and density\n\nFor each tested configuration, the vendor's own utilization figures (controller "
        "CPU, MPU, disk busy) show which resource is closest to saturation in each phase. The scaling law is an "
        "assumption: utilization is proportional to desktops, so a resource at *u* % with *d* desktops saturates at "
        "*d* × {limit} ÷ *u* desktops. A *less than* figure gives only a lower bound, a saturated resource at most "
        "the tested count. With one of the controllers down, controller load doubles and disk load does not; where "
        "the vendor measured failover, its figures are used. Latency is not extrapolated: it rises non-linearly near "
        "saturation.", limit=fmt.num(density.LIMIT_PCT))
    claims_df = density.claims(ctx.results)
    summ = density.summary(ctx.density, claims_df)
    table(mtables.density_table(summ), "Maximum desktops under the scaling law and the vendors' claims", "density")
    figure(density.summary_chart(summ, claims_df), "Maximum desktops by configuration (model) against tested and "
           "claimed counts (reported)", "density-chart")
    say("{items}", items="\n".join("- " + t for t in density.summary_sentences(summ)))


def _cost(ctx) -> None:
    from ...models import cost, density

    a = cost.load_assumptions(ctx.params.get("cost_file") or None)
    say("## Cost per desktop\n\nNo document states an array price. The vendors' own $-per-desktop claims imply one: "
        "claimed $ per desktop × the density the claim is made at. The cost model uses only these implied prices and "
        "the assumptions of {ref_a}, each with its rationale and a low–high range.", ref_a=ref("cost-assumptions"))
    table(mtables.assumptions_table(a), "Cost assumptions (all assumed)", "cost-assumptions",
          {"Assumption": "18%", "Value (low–high), assumed": "14%", "Unit": "8%", "Basis": "10%", "Source or rationale": "46%"})
    vclaims = cost.vendor_claims(ctx.results, a)
    summ = density.summary(ctx.density, density.claims(ctx.results))
    table(mtables.claims_table(vclaims), "The vendors' $ per desktop claims and the array price they imply", "cost-claims")
    table(mtables.recompute_table(cost.recompute(vclaims, summ, a)),
          "Implied price per desktop at the claimed, tested and model densities", "cost-recompute")
    drives = cost.hitachi_drives(ctx.results)
    ratio = cost.values(a)["hdd_to_fmd_price_ratio"]
    sav = [cost.hitachi_saving(drives, ratio, r) for r in ("config3", "config1")]
    d = drives.set_index("configuration")
    say("### A drive-count saving counted with the drives it adds\n\nOne document's saving claim compares flash "
        "module (FMD) counts; the tiered configuration adds SAS HDDs, which cost money too. {drives} (reported). "
        "{savings} Shelves, power and the tiering licence are not counted.",
        drives=", ".join(f"{ctx.label('configuration', c)}: {fmt.num(d.at[c, 'fmd'])} FMD + {fmt.num(d.at[c, 'hdd'])} HDD"
                         for c in d.index),
        savings=" ".join(f"Against {ctx.label('configuration', s['reference'])}: {fmt.pct(s['claimed_fmd_only'])} fewer "
                         f"FMDs (the document's arithmetic), a {fmt.pct(s['with_hdds'])} drive-cost saving with an HDD "
                         f"at {ratio:g} × an FMD's price (assumed), and none if an HDD costs "
                         f"{s['break_even_ratio']:.2f} × an FMD or more." for s in sav))
    figure(cost.saving_curve(drives, a), "Drive-cost saving against the HDD/FMD price ratio (assumed)", "saving-curve")
    say("### Sensitivity\n\nEach input moves to its low and its high end while the others stay at their base values.")
    figure(cost.tornado_chart(cost.tornado(a, vclaims, cost.density_ranges(summ), drives)),
           "Sensitivity of the cost per desktop to each assumption", "tornado")


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
