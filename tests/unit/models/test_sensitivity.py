"""The sensitivity grid computes the parts no analysis choice reaches once per grid (issue 27)."""

import pandas as pd

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


def test_the_grid_memo_covers_functions_era_still_has():
    for name in sensitivity.CHOICE_INDEPENDENT:
        assert callable(getattr(era, name, None)), f"models.era has no {name}: update CHOICE_INDEPENDENT"
