"""Planning figures by era (issue 16, ``vdi_report.models.era``) on small inputs: the verdict of a
figure with its status, and the interval of two or three documents (the data: tests/data/test_era.py;
the report: tests/report/test_era.py)."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.meta_analysis import combine_effects

from vdi_report.models import era


@pytest.mark.parametrize(
    "observed, status, want",
    [
        (5.0, "exact", "inside"),
        (9.0, "exact", "above"),
        (1.0, "exact", "below"),
        (9.0, "lower bound", "above"),  # at least 9, above an interval ending at 8: contradicts it
        (5.0, "lower bound", "uninformative"),  # at least 5: may be inside, cannot contradict
        (1.0, "lower bound", "uninformative"),
        (1.0, "upper bound", "below"),  # at most 1, below an interval starting at 2
        (5.0, "upper bound", "uninformative"),
        (9.0, "upper bound", "uninformative"),
    ],
)
def test_verdict_is_uninformative_only_when_a_figure_cannot_contradict(observed, status, want):
    assert era.verdict(observed, status, 2.0, 8.0) == want


def test_verdict_rejects_an_unknown_status_and_missing_numbers():
    with pytest.raises(ValueError, match="unknown status 'roughly'"):
        era.verdict(1.0, "roughly", 0.0, 2.0)
    with pytest.raises(ValueError, match="needs observed, low and high"):
        era.verdict(float("nan"), "exact", 0.0, 2.0)


def test_two_labs_give_their_range_and_three_a_prediction_interval_for_a_new_lab():
    two = era.pool(pd.Series([10.0, 40.0]))  # no labs given: every document its own lab; nothing borrowed
    assert two["estimate"] == pytest.approx(20.0) and (two["pi90_low"], two["pi90_high"]) == (10.0, 40.0)
    assert two["interval_kind"].startswith("range of 2 labs") and two["n_documents"] == 2 and two["n_labs"] == 2
    assert two["interval_spans"] == "range of 2 labs" and np.isnan(two["tau2"]) and two["tau2_source"] == ""
    one = era.pool(pd.Series([7.0]), pd.Series([6.0]), pd.Series([8.0]))
    assert (one["pi90_low"], one["pi90_high"]) == (6.0, 8.0) and one["interval_kind"].startswith("one lab's runs")
    # three labs, one document each, runs given: the random-effects mean and tau2 of combine_effects itself
    runs = pd.Series([(9.0, 11.0), (18.0, 22.0, 20.0), (40.0,)])
    three = era.pool(pd.Series([10.0, 20.0, 40.0]), replicates=runs, floor=0.004)
    y = np.log([10.0, 20.0, 40.0])
    v = np.array([np.log([9.0, 11.0]).var(ddof=1) / 2, np.log([18.0, 22.0, 20.0]).var(ddof=1) / 3, 0.004])
    assert v[1] < 0.004  # below the floor: raised to it (two near runs make a lab no surer than the era's typical)
    v = np.maximum(v, 0.004)
    ref = combine_effects(y, v, method_re="dl")
    assert three["tau2"] == pytest.approx(ref.tau2) and three["i2"] == pytest.approx(ref.i2)
    assert three["estimate"] == pytest.approx(math.exp(ref.mean_effect_re))
    half = stats.t.ppf(0.95, 2) * math.sqrt(ref.tau2 + ref.sd_eff_w_re**2)  # Higgins-Thompson-Spiegelhalter
    assert three["pi90_low"] == pytest.approx(math.exp(ref.mean_effect_re - half))
    assert three["pi90_high"] == pytest.approx(math.exp(ref.mean_effect_re + half))
    assert three["interval_kind"].startswith("90 % prediction interval for a new lab over 3 labs")
    assert three["interval_spans"] == "prediction interval for a new lab" and three["tau2_source"] == "own labs"


def test_the_meta_analysis_is_combine_effects_and_its_zero_variance_limit():
    eff = pd.DataFrame({"effect": np.log([8.0, 12.0, 30.0, 15.0]), "variance": [0.01, 0.02, 0.05, 0.01]})
    m = era.meta_analysis(eff)
    ref = combine_effects(eff["effect"].to_numpy(), eff["variance"].to_numpy(), method_re="dl")
    want = (ref.tau2, ref.i2, ref.mean_effect_re, ref.sd_eff_w_re)
    assert (m["tau2"], m["i2"], m["mu"], m["se"]) == pytest.approx(want)
    assert m["tau2"] > 0.1  # these labs differ far beyond their within-lab variances
    none = era.meta_analysis(eff.assign(variance=0.0))  # no within-lab variance known: tau2 = sample variance
    assert none["tau2"] == pytest.approx(eff["effect"].var(ddof=1)) and none["i2"] == 1.0
    with pytest.raises(ValueError, match="two labs or more"):
        era.meta_analysis(eff.iloc[:1])


def test_the_meta_analysis_truncates_a_negative_tau2_at_zero():
    """Labs closer together than their within-lab variances allow: DerSimonian-Laird's τ² is 0
    (statsmodels returns the negative moment estimate, which once made a prediction interval NaN
    under a reviewer's choices), I² 0, the fixed-effect mean and its standard error."""
    eff = pd.DataFrame({"effect": np.log([10.0, 10.1]), "variance": [0.05, 0.05]})
    assert combine_effects(eff["effect"].to_numpy(), eff["variance"].to_numpy(), method_re="dl").tau2 < 0
    m = era.meta_analysis(eff)
    assert m["tau2"] == 0.0 and m["i2"] == 0.0
    assert m["mu"] == pytest.approx(eff["effect"].mean()) and m["se"] == pytest.approx(math.sqrt(0.05 / 2))
    low, high = era.prediction_interval(m["mu"], m["se"], m["tau2"], 1.645)
    assert low < 10.0 < high


def test_within_lab_variance_is_var_over_n_of_the_logs_with_a_floor_for_one_run():
    e = era.lab_effects(pd.Series([10.0, 40.0, 7.0]), pd.Series(["A", "A", "B"]))
    assert e.loc["A", "effect"] == pytest.approx(math.log(20.0))
    assert e.loc["A", "variance"] == pytest.approx(np.log([10.0, 40.0]).var(ddof=1) / 2) and e.loc["A", "n"] == 2
    assert np.isnan(e.loc["B", "variance"])  # one document, one run: no spread of its own
    f = era.with_floor(e, 0.05)
    assert f.loc["B", "variance"] == 0.05 and f.loc["A", "variance"] == e.loc["A", "variance"]
    runs = era.lab_effects(pd.Series([7.0]), pd.Series(["B"]), pd.Series([(6.0, 8.0)]))  # one document's runs
    assert runs.loc["B", "variance"] == pytest.approx(np.log([6.0, 8.0]).var(ddof=1) / 2)


@pytest.mark.parametrize("source", era.TAU2_SOURCES)
def test_a_one_lab_cell_under_each_tau2_source(source):
    """tau2_source = borrowed_seed: a prediction interval for a new lab, exp(mu +- z sqrt(tau2 + se^2)) with the
    seed cell's tau2 (the median over seed cells where the cell has none); none: the range of the lab's runs."""
    tau2s = {"login peak": (0.3, 2), "median": (0.1, 3)}
    vals, runs = pd.Series([30.0, 40.0]), pd.Series([(28.0, 32.0), (40.0,)])
    labs = pd.Series(["Nutanix", "Nutanix"])
    p = era.pool(vals, vals * 0.9, vals * 1.1, labs, runs, 0.01, era.borrowed_tau2(tau2s, "login peak", source))
    assert p["n_labs"] == 1 and p["estimate"] == pytest.approx(math.sqrt(30.0 * 40.0))
    if source == "none":
        assert (p["pi90_low"], p["pi90_high"]) == pytest.approx((27.0, 44.0))
        assert p["interval_spans"] == "one lab's runs"
        assert np.isnan(p["tau2"]) and p["tau2_source"] == ""
        return
    v = np.log([30.0, 40.0]).var(ddof=1) / 2  # two documents of the lab: their spread
    # one lab: se(mu)^2 = v + tau2, so a new lab differs from it by tau2 + se^2 = 2 tau2 + v
    half = stats.norm.ppf(0.95) * math.sqrt(0.3 + (0.3 + v))
    want = (math.sqrt(1200) / math.exp(half), math.sqrt(1200) * math.exp(half))
    assert (p["pi90_low"], p["pi90_high"]) == pytest.approx(want)
    assert p["interval_spans"] == "prediction interval for a new lab, τ² borrowed from the seed labs"
    assert p["tau2"] == 0.3 and p["tau2_source"] == "seed cell" and np.isnan(p["i2"])
    med = era.pool(vals, labs=labs, borrowed=era.borrowed_tau2(tau2s, "steady-state average", source))
    assert med["tau2"] == 0.1 and med["tau2_source"] == "seed median"


def test_borrowed_tau2_rejects_an_unknown_source_and_gives_none_without_seed_labs():
    with pytest.raises(ValueError, match="tau2_source must be one of"):
        era.borrowed_tau2({}, "login peak", "pooled")
    assert era.borrowed_tau2({"median": (float("nan"), 0)}, "login peak") is None
    assert era.borrowed_tau2({"login peak": (0.2, 2)}, "login peak", "none") is None


def test_documents_of_one_lab_are_one_replicate_never_a_prediction_interval():
    """Three documents of one lab (the modern era: n_vendors = 1) give that lab's range, not a 90 % PI;
    a lab's figure is the geometric mean of its documents, so two documents of one lab and one of another
    weigh as two labs."""
    one_lab = era.pool(pd.Series([30.0, 40.0, 50.0]), labs=pd.Series(["Nutanix"] * 3))
    assert one_lab["n_documents"] == 3 and one_lab["n_labs"] == 1 and one_lab["labs"] == ["Nutanix"]
    assert (one_lab["pi90_low"], one_lab["pi90_high"]) == (30.0, 50.0)
    assert one_lab["interval_spans"] == "one lab's runs" and "90 %" not in one_lab["interval_kind"]
    mixed = era.pool(pd.Series([10.0, 40.0, 90.0]), labs=pd.Series(["A", "A", "B"]))
    assert mixed["n_labs"] == 2 and mixed["estimate"] == pytest.approx(math.sqrt(20.0 * 90.0))
    assert mixed["interval_spans"] == "range of 2 labs"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"register": "skip"},
        {"peak_point": "midpoint"},
        {"probes": "merged"},
        {"profile_storage": "elsewhere"},
        {"login_variant": "friday"},
        {"provisioning_pooling": "mixed"},
        {"boot_pooling": "median"},
        {"boot_peak_average": "vendor"},
        {"tau2_source": "guess"},
    ],
)
def test_era_choices_refuse_an_undeclared_option(kwargs):
    """The choices reach the planning rows in one object (EraChoices) by their declared options
    only: another is a ValueError naming the field and its options."""
    ((field, value),) = kwargs.items()
    with pytest.raises(ValueError, match=f"{field} one of .*got '{value}'"):
        era.EraChoices(**kwargs)


def test_era_choices_read_every_choice_they_name_from_the_declared_file():
    """EraChoices.from_choices takes each field's option from its choice id (CHOICE_IDS), and the
    declared defaults give the dataclass's defaults (one default, declared once in the CSV)."""
    from vdi_report.raw import choices as analysis

    d = analysis.declared()
    assert set(era.CHOICE_IDS.values()) <= set(d.options)
    assert era.EraChoices.from_choices(analysis.resolve()) == era.EraChoices()
    for field, cid in era.CHOICE_IDS.items():
        for opt in d.options[cid]:
            assert getattr(era.EraChoices.from_choices(analysis.resolve().with_options(**{cid: opt})), field) == opt


def test_excluded_variants_follow_the_login_variant():
    """Monday (default) leaves out Tuesday's warm-cache login; Tuesday leaves out Monday's; the
    first run (profiles created) is left out under both."""
    assert set(era.excluded_variants("monday")) == {"tuesday", "first_run"}
    assert set(era.excluded_variants("tuesday")) == {"monday", "first_run"}
    with pytest.raises(ValueError, match="login_variant"):
        era.excluded_variants("friday")


def test_declared_options_of_the_modern_choices_match_the_code():
    """analysis_choices.csv and models.era name the same options for the modern choices."""
    from vdi_report.raw import choices as analysis

    d = analysis.declared()
    assert tuple(d.options["peak_bounds_point"]) == era.PEAK_BOUND_POINTS
    assert tuple(d.options["probe_handling"]) == era.PROBE_HANDLINGS
    assert tuple(d.options["profile_storage"]) == era.PROFILE_STORAGES
    assert tuple(d.options["login_variant"]) == era.LOGIN_VARIANTS
    assert d.default["probe_handling"] == "separate" and d.default["peak_bounds_point"] == "geometric_mid"
