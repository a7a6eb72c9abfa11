"""Charts as printed (issue 20, layout): bounds look different from values as reported, and no
chart text is smaller than ``charts.MIN_FONT_PX``."""

import altair as alt
import pandas as pd
import pytest

from vdi_report.report import charts


def _layers(spec, vega_nodes):
    """The spec's layers: every object of it with a ``mark``."""
    return [x for x in vega_nodes(spec) if "mark" in x]


def _bound_chart(bounds):
    d = pd.DataFrame({"v": [1.0, 2.0, 3.0, 4.0], "p": list("abcd"), "bound": bounds})
    return alt.layer(*charts.bound_layers({"x": "v:Q", "y": "p:N"}, d, {"x": ("bound", "latency")})).to_dict()


def _rows(spec, layer):
    return spec["datasets"][layer["data"]["name"]]


def test_a_bound_is_an_open_mark_with_a_caret_towards_the_true_value(vega_nodes):
    spec = _bound_chart(["eq", "approx", "lt", "gt"])
    layers = _layers(spec, vega_nodes)
    (filled,) = [lay for lay in layers if lay["mark"].get("type") == "point" and lay["mark"].get("filled")]
    (opened,) = [lay for lay in layers if lay["mark"].get("filled") is False]
    carets = {lay["mark"]["text"]: lay for lay in layers if lay["mark"].get("type") == "text"}
    # values as reported (approximate included) filled, bounds open, one point per value
    assert sorted(r["bound"] for r in _rows(spec, filled)) == ["approx", "eq"]
    assert sorted(r["bound"] for r in _rows(spec, opened)) == ["gt", "lt"]
    # at most: a caret left of the mark; at least: right of it
    assert set(carets) == {"◀", "▶"}
    assert carets["◀"]["mark"]["dx"] < 0 < carets["▶"]["mark"]["dx"]
    assert [r["bound"] for r in _rows(spec, carets["◀"])] == ["lt"]


def test_the_legend_says_what_an_open_mark_and_its_caret_mean(vega_nodes):
    spec = _bound_chart(["eq", "lt", "lt", "gt"])
    legends = [enc for lay in _layers(spec, vega_nodes) for enc in lay.get("encoding", {}).values() if "legend" in enc]
    assert legends, "the carets have no legend"
    assert legends[0]["legend"]["title"] == charts.BOUND_LEGEND_TITLE
    (label,) = {d for enc in legends for d in enc["scale"]["domain"]}
    assert "latency" in label and "at least" in label and "at most" in label


def test_no_caret_and_no_legend_without_bounds(vega_nodes):
    layers = _layers(_bound_chart(["eq", "eq", "approx", "eq"]), vega_nodes)
    assert not [lay for lay in layers if lay["mark"].get("type") == "text"]


def test_a_text_alternative_counts_each_value_once():
    from vdi_report.report import alt_text

    text = alt_text.describe(_bound_chart(["eq", "lt", "lt", "gt"]))
    assert "4 points" in text


@pytest.mark.parametrize("part", ["axis", "legend", "header"])
def test_theme_text_is_at_least_the_print_minimum(part):
    cfg = alt.theme.get()()["config"][part]
    sizes = [v for k, v in cfg.items() if k.endswith("FontSize")]
    assert sizes and min(sizes) >= charts.MIN_FONT_PX


def test_print_minimum_is_8_pt_at_the_a4_text_width():
    # CSS px are 0.75 pt; a chart at most PRINT_WIDTH_PX wide is drawn at its own size
    assert charts.MIN_FONT_PX * 0.75 >= 8
    assert charts.PRINT_WIDTH_PX <= (210 - 2 * 13) / 25.4 * 96


def test_channels_give_the_spec_encode_would_make_of_shorthands():
    """``charts.channels`` builds the channel objects Altair's ``encode`` makes of shorthands,
    field dictionaries and tooltip lists (without its slow ``from_dict``): the same spec; a value
    dictionary and a channel object pass as they are."""
    data = pd.DataFrame({"a": [1.0, 2.0], "b": ["x", "y"]})
    given = dict(
        x="a:Q",
        y=alt.Y("a:Q", title="A"),
        color={"field": "b", "type": "nominal", "legend": {"title": "B"}},
        tooltip=["b", alt.Tooltip("a:Q", format=".1f")],
        opacity={"value": 0.5},
    )
    plain = alt.Chart(data).mark_point().encode(**given).to_dict()
    built = charts.channels(**given)
    assert isinstance(built["x"], alt.X) and isinstance(built["color"], alt.Color)
    assert isinstance(built["tooltip"][0], alt.Tooltip) and built["opacity"] == {"value": 0.5}
    assert built["y"] is given["y"]
    assert alt.Chart(data).mark_point().encode(**built).to_dict() == plain
