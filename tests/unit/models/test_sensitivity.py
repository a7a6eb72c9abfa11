"""The sensitivity grid computes the parts no analysis choice reaches once per grid (issue 27)."""

import pandas as pd
import pytest

from vdi_report.models import era, sensitivity


def test_choice_independent_parts_run_once_per_argument_set_and_are_restored(monkeypatch):
    calls = []

    def windows(results, sources_df=None):
        calls.append(id(results))
        return pd.DataFrame({"source_id": ["a"], "login_window_min": [30.0]})

    monkeypatch.setattr(era, "login_windows", windows)
    a, b = pd.DataFrame({"x": [1]}), pd.DataFrame({"x": [1]})
    with sensitivity.choice_independent_once(("login_windows", "no_such_function")):
        first = era.login_windows(a)
        first.loc[0, "login_window_min"] = 99.0  # a caller changing its copy changes no other call's
        again = era.login_windows(a)
        other = era.login_windows(b)  # another table (equal content): computed for itself
    assert calls == [id(a), id(b)]
    assert again.loc[0, "login_window_min"] == 30.0 and other.equals(again)
    assert era.login_windows is windows  # restored


def test_the_grid_memo_keys_choices_by_the_fields_a_function_reads(monkeypatch):
    """A function given ``EraChoices`` is computed again only when a field it read differs: a
    choice it never reads (boot_pooling) hits the memo, one it reads (probes) does not, and a
    call without choices is its own entry."""
    calls = []

    def runs(results, sources_df, choices=None, variants=False):
        calls.append((choices.probes if choices is not None else None, variants))
        return pd.DataFrame({"probes": [choices.probes if choices is not None else "default"]})

    monkeypatch.setattr(era, "_modern_runs", runs)
    r, s = pd.DataFrame({"x": [1]}), pd.DataFrame({"y": [1]})
    with sensitivity.choice_independent_once(("_modern_runs",)):
        first = era._modern_runs(r, s, era.EraChoices())
        same = era._modern_runs(r, s, choices=era.EraChoices(boot_pooling="highest"))  # not read: from the memo
        other = era._modern_runs(r, s, era.EraChoices(probes="pooled"))  # read: computed
        none = era._modern_runs(r, s)
        flagged = era._modern_runs(r, s, era.EraChoices(), variants=True)  # another argument: computed
    assert calls == [("separate", False), ("pooled", False), (None, False), ("separate", True)]
    assert list(same["probes"]) == ["separate"] and list(other["probes"]) == ["pooled"]
    assert list(none["probes"]) == ["default"] and first.equals(same) and not flagged.empty


def test_the_grid_memo_covers_functions_era_still_has():
    for name in sensitivity.CHOICE_INDEPENDENT:
        assert callable(getattr(era, name, None)), f"models.era has no {name}: update CHOICE_INDEPENDENT"


def test_ranking_reports_a_choice_that_moves_an_interval_but_no_estimate():
    """A choice like tau2_source leaves the estimate and moves the interval: ranking names it with
    its interval move (max_abs_interval_change), not as a choice that moves nothing."""
    from vdi_report.raw import choices as analysis

    def row(cid, opt, default, spec, est, lo, hi):
        return {
            "kind": "one_at_a_time",
            "choice_id": cid,
            "option": opt,
            "is_default": default,
            "specification": spec,
            "era": "modern",
            "phase": "full_run",
            "worker_class": "knowledge",
            "statistic": "average",
            "estimate": est,
            "pi90_low": lo,
            "pi90_high": hi,
            "change": est / 10.0 - 1,
        }

    sens = pd.DataFrame(
        [
            row("tau2_source", "borrowed_seed", True, analysis.DEFAULT_KEY, 10.0, 5.0, 20.0),
            row("tau2_source", "none", False, "tau2_source=none", 10.0, 9.0, 11.0),
            row("probe_handling", "separate", True, analysis.DEFAULT_KEY, 10.0, 5.0, 20.0),
            row("probe_handling", "pooled", False, "probe_handling=pooled", 12.0, 6.0, 24.0),
        ]
    )
    r = sensitivity.ranking(sens).set_index("choice_id")
    assert r.at["tau2_source", "max_abs_change"] == 0.0
    assert r.at["tau2_source", "max_abs_interval_change"] == pytest.approx(0.8)  # 9 / 5 - 1
    assert (
        r.at["tau2_source", "interval_option"] == "none" and r.at["tau2_source", "interval_row"] == "full_run average"
    )
    assert r.at["probe_handling", "max_abs_change"] == pytest.approx(0.2)
    assert r.at["probe_handling", "max_abs_interval_change"] == pytest.approx(0.2)
    assert list(r.index) == ["probe_handling", "tau2_source"]


def test_content_keyed_parts_run_once_per_argument_content_and_are_restored(monkeypatch):
    """era functions of CONTENT_KEYED run once per argument content within the grid: an equal
    table built anew hits, a different one computes; the caller gets its own copy."""
    calls = []

    def figures(runs):
        calls.append(len(runs))
        return runs.assign(value=runs["x"] * 2)

    monkeypatch.setattr(era, "document_figures", figures)
    a, b, c = pd.DataFrame({"x": [1]}), pd.DataFrame({"x": [1]}), pd.DataFrame({"x": [1, 2]})
    with sensitivity.choice_independent_once(()):
        first = era.document_figures(a)
        first.loc[0, "value"] = 99
        again = era.document_figures(b)  # equal content, another table: from the memo
        other = era.document_figures(c)
    assert calls == [1, 2]
    assert again.loc[0, "value"] == 2 and list(other["value"]) == [2, 4]
    assert era.document_figures is figures


def test_the_content_memo_covers_functions_era_still_has():
    import importlib

    for name in sensitivity.CONTENT_KEYED:
        assert callable(getattr(era, name, None)), f"models.era has no {name}: update CONTENT_KEYED"
    for module, name in sensitivity.CONTENT_KEYED_ELSEWHERE:
        mod = importlib.import_module(f"vdi_report.models.{module}")
        assert callable(getattr(mod, name, None)), f"models.{module} has no {name}: update CONTENT_KEYED_ELSEWHERE"


def test_the_content_memo_reaches_functions_of_other_modules_and_restores_them(monkeypatch):
    """``observation_semantics`` (models.semantics) asked twice for equal tables within the block
    runs once, as the model stage's tables ask for it 13 times; restored at the block's end."""
    from vdi_report.models import semantics

    calls = []

    def described(results, sources_df=None):
        calls.append(len(results))
        return results.assign(role="seed")

    monkeypatch.setattr(semantics, "observation_semantics", described)
    with sensitivity.choice_independent_once(()):
        first = semantics.observation_semantics(pd.DataFrame({"x": [1]}))
        again = semantics.observation_semantics(pd.DataFrame({"x": [1]}))  # another table, equal content
    assert calls == [1] and first.equals(again) and first is not again
    assert semantics.observation_semantics is described
