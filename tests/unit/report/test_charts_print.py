"""Charts as printed (issue 20, layout): bounds look different from values as reported, and no
chart text is smaller than ``charts.MIN_FONT_PX``."""

import altair as alt
import pandas as pd
import pytest

from vdi_report.report import charts


def _layers(spec):
    out = []

    def walk(x):
        if isinstance(x, dict):
            if "mark" in x:
                out.append(x)
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(spec)
    return out


def _bound_chart(bounds):
    d = pd.DataFrame({"v": [1.0, 2.0, 3.0, 4.0], "p": list("abcd"), "bound": bounds})
    base = alt.Chart().encode(x="v:Q", y="p:N")
    return alt.layer(*charts.bound_layers(base, d, {"x": ("bound", "latency")}), data=d).to_dict()


def test_a_bound_is_an_open_mark_with_a_caret_towards_the_true_value():
    layers = _layers(_bound_chart(["eq", "approx", "lt", "gt"]))
    marks = [lay["mark"] for lay in layers]
    filled = [m for m in marks if m.get("filled") and "shape" not in m]
    opened = [m for m in marks if m.get("filled") is False]
    carets = {m["shape"]: m for m in marks if "shape" in m}
    assert len(filled) == 1 and len(opened) == 1
    # at most: the caret left of the mark; at least: right of it
    assert carets["triangle-left"]["xOffset"] < 0 < carets["triangle-right"]["xOffset"]
    # the open marks are the bounds, the filled ones the values as reported (approx included)
    (exact,) = [lay for lay in layers if lay["mark"] is filled[0]]
    (bound,) = [lay for lay in layers if lay["mark"] is opened[0]]
    assert "!(" in exact["transform"][0]["filter"] and "'lt'" in bound["transform"][0]["filter"]


def test_the_legend_says_what_an_open_mark_and_its_caret_mean():
    spec = _bound_chart(["eq", "lt", "lt", "gt"])
    legends = [enc["legend"] for lay in _layers(spec) for enc in lay.get("encoding", {}).values() if "legend" in enc]
    assert legends, "the carets have no legend"
    assert legends[0]["title"] == charts.BOUND_LEGEND_TITLE
    labels = {
        d for lay in _layers(spec) for t in lay.get("transform", []) if "calculate" in t for d in [t["calculate"]]
    }
    text = " ".join(labels)
    assert "at least" in text and "at most" in text and "latency" in text


def test_no_caret_and_no_legend_without_bounds():
    layers = _layers(_bound_chart(["eq", "eq", "approx", "eq"]))
    assert not [lay for lay in layers if "shape" in lay["mark"]]


@pytest.mark.parametrize("part", ["axis", "legend", "header"])
def test_theme_text_is_at_least_the_print_minimum(part):
    cfg = alt.theme.get()()["config"][part]
    sizes = [v for k, v in cfg.items() if k.endswith("FontSize")]
    assert sizes and min(sizes) >= charts.MIN_FONT_PX


def test_print_minimum_is_8_pt_at_the_a4_text_width():
    # CSS px are 0.75 pt; a chart at most PRINT_WIDTH_PX wide is drawn at its own size
    assert charts.MIN_FONT_PX * 0.75 >= 8
    assert charts.PRINT_WIDTH_PX <= (210 - 2 * 13) / 25.4 * 96
