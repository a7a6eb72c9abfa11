"""Chapter 4, Models: IOPS per desktop (one model for all vendors, validated by leaving one vendor
out), rules of thumb, I/O profile, headroom and density, cost per desktop, the sizing scenario
and (HTML) the sizing calculator."""

import math

import pandas as pd

from ... import charts
from ...models import tables as mtables
from .. import calculator, fmt
from ..show import figure, heading, html_only, ref, say, table


def scenario_rows(ctx) -> tuple[pd.DataFrame | None, str]:
    """The report scenario, sized: (display table or None, one sentence saying how).

    Uses ``scenario.size`` (the contract of issue 12) when the model stage provides it and its
    inputs (``sizing_inputs.json``); until then the older ``scenario.required_iops``.
    """
    from ...models import scenario

    p = ctx.params
    if hasattr(scenario, "size") and ctx.sizing_inputs is not None:
        params = scenario.validate(p["desktops"], p["worker_class"], p["concurrency"], p["headroom"],
                                   p["boot_window_min"], p["raid"], p["failover"])
        s = scenario.size(params, ctx.sizing_inputs)
        return calculator.result_table(s, ctx), fmt_how(ctx)
    req = scenario.required_iops(ctx.pred, p["desktops"], p["worker_class"], p["headroom"])
    how = ("Required front-end IOPS = desktops × IOPS per desktop (model) ÷ (1 − headroom), "
           f"with {fmt.pct(p['headroom'])} headroom, estimate and prediction interval.")
    return mtables.required_table(req), how


def fmt_how(ctx) -> str:
    p = ctx.params
    return (f"Concurrent desktops = {fmt.num(p['desktops'])} × concurrency {fmt.pct(p['concurrency'])}; front-end IOPS "
            f"= concurrent desktops × IOPS per desktop (model) ÷ (1 − headroom {fmt.pct(p['headroom'])}); back-end "
            f"IOPS add the write penalty of {p['raid']} to the writes; the boot storm is spread over "
            f"{fmt.num(p['boot_window_min'])} minutes; failover: {p['failover']}.")


def _iops_model(ctx) -> None:
    from ...models import iops

    pi, ci = fmt.pct(1 - iops.PI_ALPHA), fmt.pct(1 - iops.CI_ALPHA)
    obs, cv = ctx.obs, ctx.cv
    st = iops.cv_summary(cv)
    say("## IOPS per desktop: one model for all vendors\n\nEach vendor tested one array with one population and "
        "extrapolated from it. Fitting the documents together gives a planning figure with an honest spread. The "
        "model (statsmodels OLS) explains the logarithm of IOPS per desktop by the phase of the VDI day (boot storm, "
        "login storm, steady state), the statistic (peak or average) and the worker class, entered as one number: "
        "Login VSI's own IOPS for that class. It uses {n_obs} observations from {n_docs} documents measured at the "
        "array front end, the ESXi host or the storage port in normal operation; failover runs, warm-cache logins, "
        "back-end IOPS and values printed as bounds are left out, approximate values enter at their midpoint. "
        "Notebook `04_iops_model` justifies each choice and checks its sensitivity.",
        n_obs=len(obs), n_docs=obs["vendor"].nunique())
    table(mtables.prediction_table(ctx.pred), f"IOPS per desktop: model estimate and {pi} prediction interval",
          "model-prediction")
    figure(iops.prediction_chart(ctx.pred, obs), "IOPS per desktop: model and observations", "model-prediction-chart")
    say("The intervals are wide because the vendors disagree. A {pi} prediction interval is the range a *new* "
        "deployment's figure should fall in, not the uncertainty of the average. Boot storms are "
        "workload-independent, so the boot rows are the same for every class. {ref_c} gives the coefficients as "
        "multiplicative factors on IOPS per desktop with {ci} confidence intervals.", pi=pi, ci=ci, ref_c=ref("model-coefficients"))
    table(mtables.coefficient_table(ctx.coefs), f"Model coefficients (factors on IOPS per desktop, {ci} CI)",
          "model-coefficients")
    say("### Validation: leave one vendor out\n\nEach vendor's figures were predicted by the model fitted to the "
        "other vendors only. Out of sample, {n_pred} of {n} observations could be predicted; a typical prediction "
        "is off by a factor of {median} (median; root-mean-square error {rmse} on the natural-log scale), and "
        "{cov} of the held-out observations fell inside their {pi} prediction interval.",
        n_pred=st["n_predicted"], n=st["n"], median=f"{st['median_factor']:.2f}", rmse=f"{st['rmse_log']:.2f}",
        cov=fmt.pct(st["coverage"]), pi=pi)
    table(mtables.cv_table(cv), "Leave-one-vendor-out validation", "model-cv")
    figure(iops.cv_chart(cv), "Held-out observations against their predictions", "model-cv-chart")
    say("### The rules of thumb the documents quote\n\nEach rule is set beside the model's steady-state average for "
        "its worker class; a rule that names no class is compared with a knowledge worker. Rules are reported "
        "values and never enter the model as data.")
    table(mtables.rules_table(iops.rules_of_thumb(ctx.results, ctx.pred)),
          "Quoted IOPS-per-desktop rules against the model", "model-rules")
    say("### Read/write mix and I/O size\n\nDerived from tests that report read and write IOPS, or throughput and "
        "IOPS, at the same vantage. The implied I/O size is throughput ÷ IOPS in binary KB. Array back-end figures "
        "include the array's own I/O and are not the desktops' demand.")
    table(mtables.io_profile_table(iops.io_profile(ctx.results)), "Read share and implied I/O size (derived)", "io-profile",
          {"Vendor": "11%", "Test": "15%", "Phase": "13%", "Statistic, vantage": "17%", "Read share (derived)": "9%",
           "KB per I/O (derived)": "9%", "Sources": "22%"})


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
    say("## Sizing scenario\n\n**{desktops} {wc} desktops** (report parameters `DESKTOPS`, `WORKER`, `CONCURRENCY`, "
        "`HEADROOM`, `BOOT_WINDOW`, `RAID`, `FAILOVER`). {how}",
        desktops=fmt.num(ctx.params["desktops"]), wc=ctx.label("worker_class", ctx.params["worker_class"]).lower(), how=how)
    if rows is not None:
        table(rows, "Sizing of the report scenario (model)", "scenario")
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
