"""Altair charts: one theme, chart builders, and ``show`` which emits each chart twice.

``show`` displays a chart as interactive HTML (vega-embed, using the bundle the report template
inlines once) *and* as static SVG (vl-convert). The HTML report picks the first, the PDF the
second (``render.py`` sets the priority), so one execution serves both. The SVGs are cached
under ``build/svg/`` by a hash of the spec (``chart_svg``): a report re-run for a changed
parameter converts only the charts whose spec changed.
"""

import contextlib
import hashlib
import html as html_lib
import itertools
import json
import re

import altair as alt
import numpy as np
import pandas as pd
import vl_convert as vlc
from IPython.display import display

from .. import config, files
from ..models.boot import EXTRAPOLATED, FITTED, SCENARIO
from ..models.iops import ANY_CLASS
from . import page_head

FONT = "DejaVu Sans"  # same font in the SVG layout and in the print CSS (see NOTES-rendering)
_ids = itertools.count(1)
OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
# Print size: the PDF draws a chart's SVG at its own size, shrunk to the A4 text width when wider
# (print.css: 210 mm - 2 x 13 mm margins = 184 mm = 695 CSS px at 96 px per inch). Every chart is
# at most PRINT_WIDTH_PX wide and no text in it is smaller than MIN_FONT_PX (8.25 pt at that size);
# a test checks both on every chart of the built report.
PRINT_WIDTH_PX = 695
MIN_FONT_PX = 11


@alt.theme.register("vdi_report", enable=True)
def _theme() -> alt.theme.ThemeConfig:
    return {
        "config": {
            "font": FONT,
            "axis": {"labelFont": FONT, "titleFont": FONT, "labelFontSize": 11, "titleFontSize": 11},
            "legend": {
                "labelFont": FONT,
                "titleFont": FONT,
                "labelFontSize": 11,
                "titleFontSize": 11,
                "labelLimit": 260,
            },
            "header": {"labelFont": FONT, "titleFont": FONT, "labelFontSize": 11},
            "title": {"font": FONT, "fontSize": 13, "anchor": "start"},
            "view": {"stroke": "#ddd"},
            # Okabe-Ito: colour-blind safe categorical palette (Okabe & Ito 2008, "Color Universal
            # Design"); charts without an explicit scale use it, vendor charts use sources.csv.
            "range": {"category": OKABE_ITO},
        }
    }


def vendor_colors() -> dict[str, str]:
    """{vendor: colour} from the ``color`` column of ``data/raw/sources.csv`` (the first source of
    a vendor gives its colour; the palette there is Okabe-Ito, colour-blind safe)."""
    from ..raw import sources

    s = sources.load_sources()
    return dict(s.drop_duplicates("vendor").set_index("vendor")["color"])


# Encoding channels by name (Altair's classes). A shorthand such as "vendor:N" given to
# ``encode`` as text is resolved by Altair's ``from_dict``, which hashes the schemas of all its
# 570 classes on every call (about 5 ms: 0.5 s over the report's charts, measured); ``channels``
# builds the channel objects directly, the spec the same.
CHANNELS = {
    "x": alt.X,
    "y": alt.Y,
    "x2": alt.X2,
    "y2": alt.Y2,
    "color": alt.Color,
    "shape": alt.Shape,
    "size": alt.Size,
    "opacity": alt.Opacity,
    "text": alt.Text,
    "tooltip": alt.Tooltip,
    "detail": alt.Detail,
    "strokeDash": alt.StrokeDash,
}


def channels(**encodings) -> dict:
    """``encodings`` for ``Chart.encode`` with each shorthand ("field:Q"), field dictionary
    (``{"field": ..., "type": ...}``) or list of them (a tooltip) made the channel object
    ``encode`` would make of it (``CHANNELS``); anything else (a channel object, a value
    dictionary, a channel not in ``CHANNELS``) as it is."""

    def one(name, v):
        cls = CHANNELS.get(name)
        if cls is None:
            return v
        if isinstance(v, str):
            return cls(v)
        if isinstance(v, dict) and "value" not in v:
            return cls(**v)
        if isinstance(v, list):
            return [one(name, x) for x in v]
        return v

    return {name: one(name, v) for name, v in encodings.items()}


def vendor_scale(present=None) -> alt.Scale:
    """Fixed vendor colours so every chart agrees (``vendor_colors``). ``present``: the vendors the
    chart shows (an iterable, e.g. its ``vendor`` column); the legend then lists only those."""
    colors = vendor_colors()
    if present is not None:
        shown = set(present)
        colors = {v: c for v, c in colors.items() if v in shown}
    return alt.Scale(domain=list(colors), range=list(colors.values()))


SVG_CACHE_DIR = config.PROJ_ROOT / "build" / "svg"  # ``make clean`` removes build/


class Pending:
    """The charts whose SVG is being converted in the converter process
    (``converting_in_background``): each was displayed as a placeholder (``TOKEN`` and its number
    in every MIME type) that ``resolve`` replaces by the chart's output once its SVG is there."""

    TOKEN = "vdi-chart-pending:"

    def __init__(self):
        self._pool, self._charts = None, []

    def add(self, spec: dict, path, finish) -> dict:
        """Convert ``spec`` in the converter process (``svg_convert.take``: the one the report's
        kernel started as it started, else a new one; the SVG is stored under ``path`` as
        ``chart_svg`` does when ``resolve`` receives it) and return the placeholder to display;
        ``finish(svg)`` gives the chart's output data."""
        from . import svg_convert

        if self._pool is None:
            self._pool = svg_convert.take()
        token = f"{self.TOKEN}{len(self._charts)}"
        self._charts.append((self._pool.apply_async(svg_convert.to_svg, (spec,)), path, finish))
        return {"text/html": token, "image/svg+xml": token, "text/plain": token}

    def resolve(self, outputs: list[dict]) -> list[dict]:
        """``outputs`` (as ``sections.draw`` returns them) with each placeholder replaced by its
        chart's output (waiting for its conversion; its error, e.g. vl-convert's ValueError,
        raised here)."""
        out = []
        for o in outputs:
            token = o["data"].get("text/plain", "")
            if isinstance(token, str) and token.startswith(self.TOKEN):
                future, path, finish = self._charts[int(token[len(self.TOKEN) :])]
                svg = future.get()
                _store(svg, path)
                o = {**o, "data": finish(svg)}
            out.append(o)
        return out

    def close(self) -> None:
        """Stop the converter process (at once: every chart put in has been received); idempotent."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool = None


_BACKGROUND: list[Pending] = []  # the Pending of converting_in_background, while it runs


@contextlib.contextmanager
def converting_in_background():
    """Within the block, ``show`` displays a placeholder for a chart whose SVG is not cached and
    converts it in a process of its own (``svg_convert``, from the first such chart on): vl-convert
    holds the GIL while it converts, so a thread would stop the chapters drawing meanwhile (its
    runtime's start alone, 0.7 s). The caller captures the outputs (``sections.draw``) and puts
    each chart in with ``Pending.resolve`` before showing them (``sections.render_all``). Yields
    the ``Pending``; its process is stopped at the end."""
    pending = Pending()
    _BACKGROUND.append(pending)
    try:
        yield pending
    finally:
        _BACKGROUND.remove(pending)
        pending.close()


def _svg_path(spec: dict):
    key = hashlib.sha256(json.dumps(spec, sort_keys=True).encode("utf-8")).hexdigest()[:40]
    return SVG_CACHE_DIR / f"{key}-{vlc.__version__}.svg"


def _store(svg: str, path) -> None:
    """Keep ``svg`` at ``path`` (the cache of ``chart_svg``); a read-only checkout still renders,
    only without the cache."""
    try:
        files.write_bytes(svg.encode("utf-8"), path)
    except OSError:
        pass


def _convert(spec: dict, path) -> str:
    """vl-convert's SVG of ``spec`` (``svg_convert.to_svg``, here in this process), kept at
    ``path`` (the cache of ``chart_svg``)."""
    from .svg_convert import to_svg

    svg = to_svg(spec)
    _store(svg, path)
    return svg


def chart_svg(spec: dict) -> str:
    """The static SVG of a Vega-Lite ``spec`` (vl-convert), cached under ``build/svg/``.

    The cache key is the SHA-256 of the spec (data included, keys sorted) and the vl-convert
    version, so a changed chart or converter never reuses an old picture, and an unchanged one
    (most charts when only a report parameter changes) skips the conversion. The bytes are those
    vl-convert returns, so cached and fresh builds are identical.
    """
    return _svg_at(spec, _svg_path(spec))


def _svg_at(spec: dict, path) -> str:
    """``chart_svg`` of ``spec`` whose cache file is ``path`` (``_svg_path``)."""
    if path.is_file():
        return path.read_bytes().decode("utf-8")  # as written: no newline translation
    return _convert(spec, path)


# What a chart's tooltip calls each field (with its unit): a reader sees "Boot rate (desktops per
# minute)", not ``boot_rate_per_min``. A field not listed gets its name in words.
TOOLTIP_TITLES = {
    "vendor": "Vendor",
    "phase": "Phase",
    "phase_label": "Phase",
    "statistic": "Statistic",
    "vantage": "Measured at",
    "condition": "Condition",
    "bound": "Bound (eq: as stated; ge/le: at least/at most)",
    "desktops": "Desktops",
    "value_text": "As printed",
    "locator": "Where in the document",
    "verdict": "Verdict",
    "claims": "Claims",
    "worker_class": "Worker class",
    "estimate": "Estimate (IOPS per desktop)",
    "pi90_low": "90 % PI, low (IOPS per desktop)",
    "pi90_high": "90 % PI, high (IOPS per desktop)",
    "iops_per_desktop": "IOPS per desktop",
    "record_ids": "Records",
    "held_out": "Held out",
    "observed": "Observed (IOPS per desktop)",
    "predicted": "Predicted (IOPS per desktop)",
    "boot_rate_per_min": "Boot rate (desktops per minute)",
    "rate_bound": "Rate bound",
    "iops": "IOPS",
    "shown": "Shown as",
    "peak_bound": "Peak bound",
    "peak_record": "Peak record",
    "duration_record": "Duration record",
    "choice": "Analysis choice",
    "row": "Planning row",
    "low_option": "Lowest option",
    "high_option": "Highest option",
    "not_estimable": "Not estimable",
}


def titled_tooltips(spec):
    """``spec`` (a Vega-Lite dict) with a title on every tooltip field that has none
    (``TOOLTIP_TITLES``, else the field's name in words); the spec is copied, not changed."""
    if isinstance(spec, list):
        return [titled_tooltips(x) for x in spec]
    if not isinstance(spec, dict):
        return spec
    out = {}
    for k, v in spec.items():
        if k == "tooltip" and isinstance(v, (list, dict)):
            tips = v if isinstance(v, list) else [v]
            tips = [
                {**t, "title": TOOLTIP_TITLES.get(t["field"], t["field"].replace("_", " ").capitalize())}
                if isinstance(t, dict) and "field" in t and "title" not in t
                else t
                for t in tips
            ]
            out[k] = tips if isinstance(v, list) else tips[0]
        else:
            out[k] = titled_tooltips(v)
    return out


# A chart's vegaEmbed call waits under this type until static/charts_start.js draws it (page_head).
DEFERRED_TYPE = page_head.CHART_TYPE


def show(chart: alt.TopLevelMixin | dict, key: str | None = None) -> None:
    """Display ``chart`` (an Altair chart, or its Vega-Lite spec from ``to_dict``) as interactive
    HTML plus static SVG (one output, two MIME types).

    ``key`` names the chart's element (``vdi-chart-<key>``) so that two builds give the same
    bytes; without it a counter numbers the charts in display order (also deterministic).
    """
    spec = chart if isinstance(chart, dict) else chart.to_dict()
    div = f"vdi-chart-{key or next(_ids)}"

    def output(svg: str) -> dict:
        # The spec's description is the chart's text alternative: the HTML chart's aria-label (Vega
        # sets it too once drawn) and the SVG's <title>, which becomes the PDF Figure's /Alt (publish.pdf).
        desc = html_lib.escape(spec.get("description", ""), quote=True)
        label = f' role="img" aria-label="{desc}"' if desc else ""
        # The box keeps the drawn chart's height (that of the same spec's SVG) until the chart is
        # drawn: a chart drawn later (charts_start.js) then moves nothing below it, nor an address's
        # #anchor out of view.
        size = re.search(r'<svg\b[^>]*\bheight="([\d.]+)"', svg)
        box = f' style="min-height: {float(size.group(1)):g}px"' if size else ""
        html = (
            f'<div id="{div}" class="vdi-chart"{label}{box}></div>\n<script type="{DEFERRED_TYPE}">'
            f'vegaEmbed("#{div}", {json.dumps(titled_tooltips(spec))}, '
            '{"actions": false, "renderer": "svg"});</script>'
        )
        if desc:
            svg = re.sub(r"(<svg\b[^>]*>)", lambda m: f"{m.group(1)}<title>{desc}</title>", svg, count=1)
        return {"text/html": html, "image/svg+xml": svg, "text/plain": f"<chart {div}>"}

    path = _svg_path(spec)
    if _BACKGROUND and not path.is_file():  # converted in a process; the caller puts it in (Pending.resolve)
        display(_BACKGROUND[-1].add(spec, path, output), raw=True)
    else:
        display(output(_svg_at(spec, path)), raw=True)  # the spec hashed once


def log_ticks(lo: float, hi: float, nice: bool = True) -> list[float]:
    """Tick values for a log axis over data from ``lo`` to ``hi`` (both > 0): powers of ten
    (1, 10, 100, 1,000), so labels never touch at the report's chart widths. ``nice``: the
    axis is rounded out to powers of ten (Vega-Lite's default for a log scale without a domain),
    so the powers around the data are all drawn; otherwise (an explicit domain ``lo``–``hi``)
    only those inside, with 2 and 5 times them when fewer than two fit. Raises ValueError
    unless 0 < lo <= hi."""
    import math

    if not (lo > 0 and hi >= lo):
        raise ValueError(f"log_ticks needs 0 < lo <= hi, got {lo!r}, {hi!r}")
    powers = [10.0**k for k in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)]
    ticks = powers if nice else [t for t in powers if lo <= t <= hi]
    if len(ticks) < 2:
        ticks = sorted(t * m for t in powers for m in (1, 2, 5) if lo <= t * m <= hi)
    return [int(t) if t >= 1 else t for t in ticks]


def _phase_label(phase: pd.Series) -> pd.Series:
    return phase.map(config.PHASE_LABELS).fillna(phase)


def per_desktop_iops_chart(results: pd.DataFrame) -> alt.HConcatChart:
    """IOPS per desktop by phase and vendor (log scale), one panel per statistic (peak, average),
    side by side on shared scales.

    Uses records with metric ``iops``, a per-desktop figure and ``used_in_analysis``; the shape is
    the vantage (numbers from different vantages are not comparable), a bound is an open mark
    with a caret (``bound_layers``), the tooltip names the condition, bound and locator so a
    reader can check each point.
    """
    d = results[
        (results["metric"] == "iops")
        & results["per_desktop"].notna()
        & results["used_in_analysis"]
        & results["phase"].isin(config.PHASE_ORDER)
        & results["statistic"].isin(["peak", "average"])
    ].copy()
    d["phase_label"] = _phase_label(d["phase"])
    d["vantage"] = d["vantage"].replace("", "unstated").str.replace("_", " ")
    d["condition"] = d["condition"].replace("", "normal")
    order = [config.PHASE_LABELS[p] for p in config.PHASE_ORDER]
    ticks = log_ticks(float(d["per_desktop"].min()), float(d["per_desktop"].max())) if len(d) else None
    enc = dict(
        x=alt.X(
            "per_desktop:Q",
            title="IOPS per desktop (log scale)",
            scale=alt.Scale(type="log"),
            axis=alt.Axis(values=ticks, format=",.0f"),
        ),
        y=alt.Y("phase_label:N", title=None, sort=order),
        color=alt.Color("vendor:N", title="Vendor", scale=vendor_scale(d["vendor"])),
        shape=alt.Shape("vantage:N", title="Measured at"),
        tooltip=[
            "vendor",
            "phase_label",
            "statistic",
            "vantage",
            "condition",
            "bound",
            alt.Tooltip("value:Q", title="IOPS", format=",.0f"),
            alt.Tooltip("desktops:Q", format=",.0f"),
            alt.Tooltip("per_desktop:Q", title="IOPS per desktop", format=".2f"),
            "locator",
        ],
    )
    # one panel per statistic, side by side, on shared scales (a concatenation: each layer holds
    # its own rows, so a text alternative counts one point per value)
    stats = [st for st in ("peak", "average") if (d["statistic"] == st).any()]
    panels = [
        alt.layer(
            *bound_layers(
                # the phases are named once, left of the first panel
                {**enc, "y": alt.Y("phase_label:N", title=None, sort=order, axis=None)} if i else enc,
                d[d["statistic"] == st],
                {"x": ("bound", "IOPS per desktop")},
                size=60,
            )
        ).properties(width=190, height=160, title=alt.Title(st, fontSize=12, fontWeight="bold", anchor="middle"))
        for i, st in enumerate(stats)
    ]
    # no title: the report's figure caption is the title
    return alt.hconcat(*panels).resolve_scale(x="shared", y="shared")


BOUND_MARKS = {
    "eq": "reported value",
    "approx": "approximate value",
    "lt": f"upper bound ({config.bound_sign('lt').strip()})",
    "gt": f"lower bound ({config.bound_sign('gt').strip()})",
}

# A value reported as a bound ("at least", "up to") is drawn as an open mark at the bound with a
# caret beside it on the side where the true value lies; a value as reported (or approximate) is a
# filled mark. (axis, bound) -> (legend symbol, the caret's glyph, x offset, y offset in px (SVG y
# grows downwards), meaning for the legend).
BOUND_CARETS = {
    ("x", "gt"): ("triangle-right", "▶", 10, 0, "at least (caret ▶)"),
    ("x", "lt"): ("triangle-left", "◀", -10, 0, "at most (caret ◀)"),
    ("y", "gt"): ("triangle-up", "▲", 0, -10, "at least (caret ▲)"),
    ("y", "lt"): ("triangle-down", "▼", 0, 10, "at most (caret ▼)"),
}
BOUND_LEGEND_TITLE = "A bound: open mark, caret towards the true value"
# The legend entry of an axis's carets rides on a channel of its own (a channel per axis, a field
# per channel: Vega-Lite merges legends of one field and drops the symbols), so that the chart's
# shape scale (vantage, statistic) stays one legend. The carets are text glyphs, not points: a
# text alternative (alt_text) counts the points drawn, one per value.
_CARET_CHANNEL = {"x": ("size", MIN_FONT_PX + 1), "y": ("opacity", 0.95)}


def bound_layers(enc: dict, data: pd.DataFrame, bounds: dict[str, tuple[str, str]], size: int = 70) -> list:
    """Layers drawing ``data`` with the encodings ``enc`` (x, y, colour, ...) and bounds told
    apart: a filled point for a value as reported, an open point for a value reported as a
    bound, and a caret beside it pointing where the true value lies (right/up: at least;
    left/down: at most). The legend (``BOUND_LEGEND_TITLE``) has an entry per axis with bounds,
    e.g. "latency: at most (caret ◀)". Each layer holds its own rows (one point per row).

    ``bounds``: {axis: (column, name)}, e.g. ``{"x": ("bound", "latency")}``; the column holds
    ``gt`` (at least), ``lt`` (at most) or anything else (a value as reported). Returns the layers
    for ``alt.layer(*layers)``."""
    enc = channels(**enc)
    flags = {axis: data[col].astype(str) for axis, (col, _) in bounds.items()}
    is_bound = pd.Series(False, index=data.index)
    for f in flags.values():
        is_bound |= f.isin(["gt", "lt"])
    layers = [
        alt.Chart(data[~is_bound]).mark_point(size=size, filled=True, opacity=0.85).encode(**enc),
        alt.Chart(data[is_bound]).mark_point(size=size, filled=False, strokeWidth=2, opacity=0.95).encode(**enc),
    ]
    titled = False
    for axis, (_col, name) in bounds.items():
        present = [b for b in ("gt", "lt") if (flags[axis] == b).any()]
        if not present:
            continue
        channel, value = _CARET_CHANNEL[axis]
        field = f"caret_{axis}"
        words = f"{name}: {' or '.join(BOUND_CARETS[(axis, b)][4] for b in present)}"
        legend = alt.Legend(
            title=" " if titled else BOUND_LEGEND_TITLE,  # a blank title keeps the entries on one row
            titleLimit=0,
            symbolType=BOUND_CARETS[(axis, present[0])][0],
            symbolFillColor="#555",
            symbolStrokeColor="#555",
            symbolSize=60,
            labelLimit=0,
            orient="bottom",
            direction="vertical",
        )
        titled = True
        scale = {"domain": [words], "range": [value, value]}
        caret_enc = {k: v for k, v in enc.items() if k in ("x", "y", "color")}
        caret_enc[channel] = CHANNELS[channel](field=field, type="nominal", scale=scale, legend=legend)
        for b in present:
            _, glyph, dx, dy, _ = BOUND_CARETS[(axis, b)]
            rows = data[flags[axis] == b].assign(**{field: words})
            layers.append(
                alt.Chart(rows)
                .mark_text(text=glyph, dx=dx, dy=dy, fontSize=MIN_FONT_PX + 1, baseline="middle", align="center")
                .encode(**caret_enc)
            )
    return layers


def latency_data(results: pd.DataFrame) -> pd.DataFrame:
    """The latency records ``latency_chart`` draws: metric ``latency``, ``used_in_analysis``, a
    phase of ``config.PHASE_ORDER`` and the normal condition only (an empty ``condition``; a
    failover or degraded run is not the same load). Adds ``phase_label``, ``vantage`` (``unstated``
    when empty), ``mark`` (``BOUND_MARKS`` of the bound) and ``shown`` (the value with its bound
    sign, e.g. ``< 1 ms``, for the tooltip)."""
    cond = results["condition"].fillna("").astype(str).str.strip()
    d = results[
        (results["metric"] == "latency")
        & results["used_in_analysis"]
        & results["phase"].isin(config.PHASE_ORDER)
        & cond.isin(["", "normal"])
    ].copy()
    d["phase_label"] = _phase_label(d["phase"])
    d["vantage"] = d["vantage"].fillna("").replace("", "unstated").str.replace("_", " ")
    d["mark"] = d["bound"].map(BOUND_MARKS).fillna("reported value")
    sign = d["bound"].map(config.BOUND_SIGNS).fillna("")
    d["shown"] = sign + d["value"].map(lambda v: f"{v:g}") + " ms"
    return d


def latency_chart(results: pd.DataFrame) -> alt.Chart:
    """Reported storage latency (ms) by phase, normal-condition records only (``latency_data``):
    colour = vendor, shape = statistic, an open mark with a caret for a bound (``bound_layers``:
    ``<``/``>``, the latency is at most/at least the value drawn), tooltip with the bound, vantage
    and locator."""
    d = latency_data(results)
    order = [config.PHASE_LABELS[p] for p in config.PHASE_ORDER]
    enc = {
        "x": alt.X("value:Q", title="Latency (ms)", axis=alt.Axis(tickCount=6)),
        "y": alt.Y("phase_label:N", title=None, sort=order),
        "color": alt.Color("vendor:N", title="Vendor", scale=vendor_scale(d["vendor"])),
        "shape": alt.Shape("statistic:N", title="Statistic"),
        "tooltip": [
            "vendor",
            "phase_label",
            "statistic",
            alt.Tooltip("shown:N", title="latency"),
            alt.Tooltip("mark:N", title="value"),
            alt.Tooltip("vantage:N", title="measured at"),
            "value_text",
            "locator",
        ],
    }
    layers = bound_layers(enc, d, {"x": ("bound", "latency")})
    # no title: the report's figure caption is the title
    return alt.layer(*layers).properties(width=380, height=180)


def prediction_chart(pred: pd.DataFrame, obs: pd.DataFrame):
    """Altair chart: model estimate and 90 % PI per cell (log scale), with the observations
    (IOPS per desktop, colour = vendor) as crosses."""

    pooled = ANY_CLASS in set(pred["worker_class"])
    p = pred.assign(
        label=(pred["phase"] + " " + pred["statistic"]).str.replace("_", " ") + " · " + pred["worker_class"]
    )
    o = obs.assign(
        label=(obs["phase"] + " " + obs["statistic"]).str.replace("_", " ")
        + " · "
        + (ANY_CLASS if pooled else obs["worker_class"])
    )
    lo = float(min(p["pi90_low"].min(), o["iops_per_desktop"].min()) * 0.8)
    hi = float(max(p["pi90_high"].max(), o["iops_per_desktop"].max()) * 1.2)
    sc = alt.Scale(type="log", domain=[lo, hi])
    y = alt.Y("label:N", title=None, sort=list(p["label"]), axis=alt.Axis(labelLimit=400))
    bars = (
        alt.Chart(p)
        .mark_rule(strokeWidth=2, color="#999")
        .encode(
            **channels(
                x=alt.X(
                    "pi90_low:Q",
                    scale=sc,
                    title="IOPS per desktop (log scale)",
                    axis=alt.Axis(values=log_ticks(lo, hi, nice=False), format=",~g"),
                ),
                x2="pi90_high:Q",
                y=y,
            )
        )
    )
    pts = (
        alt.Chart(p)
        .mark_point(filled=True, size=50, color="black")
        .encode(
            **channels(
                x=alt.X("estimate:Q", scale=sc),
                y=y,
                tooltip=[
                    "phase",
                    "statistic",
                    "worker_class",
                    alt.Tooltip("estimate:Q", format=".1f"),
                    alt.Tooltip("pi90_low:Q", format=".1f"),
                    alt.Tooltip("pi90_high:Q", format=".1f"),
                ],
            )
        )
    )
    ob = (
        alt.Chart(o)
        .mark_point(shape="cross", size=70, filled=True)
        .encode(
            **channels(
                x=alt.X("iops_per_desktop:Q", scale=sc),
                y=y,
                color=alt.Color("vendor:N", scale=vendor_scale(o["vendor"]), title="Observed"),
                tooltip=[
                    "vendor",
                    "phase",
                    "statistic",
                    "worker_class",
                    "vantage",
                    alt.Tooltip("iops_per_desktop:Q", format=".1f"),
                    "record_ids",
                ],
            )
        )
    )
    # no title: the report's caption names the marks (estimate dot, interval bar, observation crosses)
    return alt.layer(bars, pts, ob).properties(width=310, height=160)


def demand_chart(line: pd.DataFrame, storms: pd.DataFrame, scenario_rate: float | None = None):
    """Altair chart for the report: peak boot IOPS against boot rate, each document at its
    tested rate (colour = vendor; a bound, e.g. a rate from a duration "under 6 min" or an average
    standing in for a missing peak, is an open mark with a caret: ``bound_layers``), the model
    line and its interval band
    up to ``demand_line_extent`` (a dashed part labelled as extrapolated when the scenario's rate
    lies beyond), and the scenario's rate (dashed rule); text on the chart names the line, its
    extrapolated part and the rule (the report's caption names the band).

    ``line``: ``boot_demand.csv`` (the scenario stage's line: part, boot_rate_per_min, fe_iops,
    fe_iops_low, fe_iops_high); ``storms``: ``boot_storms`` with numeric boot_rate_per_min,
    peak_iops, average_iops."""

    s = storms[storms["peak_iops"].notna() | storms["average_iops"].notna()].copy()
    s["iops"] = s["peak_iops"].fillna(s["average_iops"])
    s["shown"] = np.where(s["peak_iops"].notna(), "peak", "average (no front-end peak reported)")
    # bounds: the boot rate as reported (``rate_bound``: a duration "under 6 min" makes the rate
    # "at least"), the peak as reported, and an average standing in for a missing peak is a lower
    # bound of the peak
    s["x_bound"] = s["rate_bound"].fillna("").astype(str) if "rate_bound" in s else ""
    peak_bound = s["peak_bound"].fillna("").astype(str) if "peak_bound" in s else pd.Series("", index=s.index)
    s["y_bound"] = np.where(s["peak_iops"].notna(), peak_bound, "gt")
    c = line[["boot_rate_per_min", "fe_iops", "fe_iops_low", "fe_iops_high", "part"]].reset_index(drop=True)
    end = float(c.loc[c["part"] == FITTED, "boot_rate_per_min"].max())
    ext_end = float(c["boot_rate_per_min"].max())
    x_max = float(max(s["boot_rate_per_min"].max(), ext_end) * 1.05)
    x = alt.X(
        "boot_rate_per_min:Q",
        title="boot rate (desktops per minute)",
        scale=alt.Scale(domain=[0, x_max], nice=False),
        axis=alt.Axis(tickCount=5, format=",.0f"),
    )
    y = alt.Y("fe_iops_low:Q", title="peak front-end IOPS", axis=alt.Axis(tickCount=5, format=",.0f"))
    band = alt.Chart(c).mark_area(opacity=0.3, color="#bbb").encode(**channels(x=x, y=y, y2="fe_iops_high:Q"))
    on_line = channels(x="boot_rate_per_min:Q", y="fe_iops:Q")
    line = alt.Chart(c[c["part"] == FITTED]).mark_line(color="black").encode(**on_line)
    # the marks are named on the chart itself (text at the line's end and the rule's top) and in the caption
    ends = c.groupby("part", sort=False).tail(1).assign(text=lambda t: t["part"])
    ends.loc[ends["part"] == FITTED, "text"] = FITTED
    labels = (
        alt.Chart(ends)
        .mark_text(align="left", dx=4, dy=-6, fontSize=MIN_FONT_PX)
        .encode(**on_line, **channels(text="text:N"))
    )
    layers_model = [band, line, labels]
    if ext_end > end:
        layers_model.insert(
            2,
            alt.Chart(c[c["part"] == EXTRAPOLATED]).mark_line(color="#666", strokeDash=[4, 4]).encode(**on_line),
        )
    pts = dict(
        x="boot_rate_per_min:Q",
        y="iops:Q",
        color=alt.Color("vendor:N", scale=vendor_scale(s["vendor"]), title="Tested"),
        tooltip=[
            "vendor",
            alt.Tooltip("boot_rate_per_min:Q", format=",.0f"),
            "rate_bound",
            alt.Tooltip("iops:Q", format=",.0f"),
            "shown",
            "peak_bound",
            "peak_record",
            "duration_record",
        ],
    )
    pts = alt.layer(*bound_layers(pts, s, {"x": ("x_bound", "boot rate"), "y": ("y_bound", "peak")}, size=90))
    layers = [*layers_model, pts]
    if scenario_rate:
        rule = pd.DataFrame({"r": [scenario_rate], "text": [SCENARIO]})
        layers.append(alt.Chart(rule).mark_rule(strokeDash=[4, 4], color="black").encode(**channels(x="r:Q")))
        layers.append(
            alt.Chart(rule)
            .mark_text(align="left", baseline="top", dx=4, y=2, fontSize=MIN_FONT_PX)
            .encode(**channels(x="r:Q", text="text:N"))
        )
    return alt.layer(*layers).properties(width=420, height=260)


def saving_curve(curve: pd.DataFrame, savings: pd.DataFrame, assumptions: pd.DataFrame):
    """Altair line chart: the tiered configuration's drive-cost saving against each other
    configuration as a function of the HDD/FMD price ratio, with the assumed range shaded and
    the flash-only count saving as a dashed rule.

    ``curve``: ``tiering_saving_curve.csv`` (the cost stage's saving per reference and price
    ratio); ``savings``: ``tiering_saving.csv`` (claimed_fmd_only per reference);
    ``assumptions``: ``cost_assumptions.csv``."""
    a = assumptions.set_index("name").loc["hdd_to_fmd_price_ratio"]
    tiered = str(curve["tiered"].iloc[0])
    refs = list(dict.fromkeys(curve["reference"]))
    d = pd.DataFrame(
        {
            "ratio": curve["hdd_to_fmd_price_ratio"].to_numpy(),
            "against": [config.label("configuration", ref) for ref in curve["reference"]],
            "saving": curve["with_hdds"].to_numpy(),
        }
    )
    band_d = pd.DataFrame({"lo": [a["low"]], "hi": [a["high"]], "text": ["assumed price ratio (range)"]})
    band = alt.Chart(band_d).mark_rect(opacity=0.15, color="#e6550d").encode(**channels(x="lo:Q", x2="hi:Q"))
    claim_d = pd.DataFrame(
        {
            "y": [float(savings.set_index("reference").at[refs[-1], "claimed_fmd_only"])],
            "x": [1.0],
            "text": ["flash modules saved, HDDs not counted (the document's comparison)"],
        }
    )
    claim = alt.Chart(claim_d).mark_rule(strokeDash=[4, 4]).encode(**channels(y="y:Q"))
    # the band and the dashed rule are named on the chart (text marks), not only in the caption
    band_text = (
        alt.Chart(band_d)
        .mark_text(align="left", baseline="bottom", dx=2, dy=-2, y=240, fontSize=MIN_FONT_PX, color="#a63603")
        .encode(**channels(x="lo:Q", text="text:N"))
    )
    claim_text = (
        alt.Chart(claim_d)
        .mark_text(align="right", baseline="top", dy=3, fontSize=MIN_FONT_PX)
        .encode(**channels(x="x:Q", y="y:Q", text="text:N"))
    )
    line = (
        alt.Chart(d)
        .mark_line()
        .encode(
            **channels(
                x=alt.X("ratio:Q", title="price of one HDD / price of one FMD (assumed)"),
                y=alt.Y(
                    "saving:Q",
                    title=f"drive-cost saving of {config.label('configuration', tiered)}",
                    axis=alt.Axis(format="%"),
                ),
                color=alt.Color("against:N", title="Against"),
            )
        )
    )
    return (band + claim + line + band_text + claim_text).properties(
        width=420, height=240, title="Flash modules saved, HDDs included"
    )


def price_chart(verdicts: pd.DataFrame, desktops: int, condition: str, max_price: float = 1_000_000):
    """Altair line chart: USD per desktop against the price of one array (the buyer's quote, no
    price invented): ``arrays x price / desktops``, one line per number of arrays needed at the
    scenario, naming the tested configurations that need it (configurations whose arrays are not
    determined are left out), ``at most`` where the count is an upper bound (``arrays_needed_kind``).
    ``verdicts``: rows of ``verdicts.verdicts`` (columns source_id, vendor, configuration, array,
    condition, arrays_needed_binding, arrays_needed_kind); ``condition``: ``normal`` or
    ``failover``."""
    r = verdicts[(verdicts["condition"] == condition) & verdicts["arrays_needed_binding"].notna()]
    r = r.drop_duplicates(["source_id", "configuration"])
    names = [
        f"{v} {config.label('configuration', c)}" if c else a
        for v, c, a in zip(r["vendor"], r["configuration"], r["array"])
    ]
    # "at most" where the test reached no limit (verdicts.KINDS): the line is an upper bound
    kinds = r["arrays_needed_kind"] if "arrays_needed_kind" in r else pd.Series("exact", index=r.index)
    g = pd.DataFrame(
        {
            "n": r["arrays_needed_binding"].astype(int).to_numpy(),
            "pre": ["" if k == "exact" else "at most " for k in kinds],
            "who": names,
        }
    )
    groups = g.groupby(["n", "pre"], sort=True)["who"].agg(", ".join)
    prices = np.linspace(0, max_price, 21)
    d = pd.DataFrame(
        [
            {"price": p, "usd": n * p / desktops, "line": f"{pre}{n} {'array' if n == 1 else 'arrays'}: {who}"}
            for (n, pre), who in groups.items()
            for p in prices
        ],
        columns=["price", "usd", "line"],
    )
    return (
        alt.Chart(d)
        .mark_line()
        .encode(
            **channels(
                x=alt.X("price:Q", title="price of one array, USD (your quote)", axis=alt.Axis(format="$,.0f")),
                y=alt.Y("usd:Q", title="USD per desktop", axis=alt.Axis(format="$,.0f")),
                color=alt.Color(
                    "line:N", title="Arrays needed", legend=alt.Legend(orient="bottom", labelLimit=0, columns=1)
                ),
            )
        )
        .properties(width=420, height=200)
    )


def tornado_chart(tor: pd.DataFrame, labels: dict[str, str]) -> alt.Chart:
    """Tornado chart of the sensitivity analysis: per analysis choice (rows, ordered by the
    largest swing), a bar from the lowest to the highest change of each planning estimate (colour:
    phase and statistic) over the choice's options, one at a time; 0 is the report's default.

    ``tor``: ``models.sensitivity.tornado`` (low_change, high_change as fractions; low_option,
    high_option, not_estimable); ``labels``: {choice_id: label}."""
    d = tor.copy()
    d["choice"] = d["choice_id"].map(labels).fillna(d["choice_id"])
    d["row"] = (_phase_label(d["phase"]) + " · " + d["statistic"].str.replace("_", " ")).str.strip()
    if d["era"].nunique() > 1:
        d["row"] = d["era"] + ": " + d["row"]
    d["swing"] = d["high_change"] - d["low_change"]
    order = list(d.groupby("choice", sort=False)["swing"].max().sort_values(ascending=False).index)
    d["low_pct"], d["high_pct"] = 100 * d["low_change"], 100 * d["high_change"]
    bars = (
        alt.Chart(d)
        .mark_bar(height=3)
        .encode(
            **channels(
                y=alt.Y("choice:N", sort=order, title=None, axis=alt.Axis(labelLimit=260)),
                yOffset=alt.YOffset("row:N"),
                x=alt.X("low_pct:Q", title="change of the planning estimate from the report's default (%)"),
                x2="high_pct:Q",
                color=alt.Color("row:N", title="Planning figure", legend=alt.Legend(orient="bottom", columns=2)),
                tooltip=[
                    "choice",
                    "row",
                    alt.Tooltip("low_pct:Q", format="+.1f", title="lowest %"),
                    "low_option",
                    alt.Tooltip("high_pct:Q", format="+.1f", title="highest %"),
                    "high_option",
                    "not_estimable",
                ],
            )
        )
    )
    zero = alt.Chart(pd.DataFrame({"x": [0.0]})).mark_rule(color="black").encode(**channels(x="x:Q"))
    return alt.layer(bars, zero).properties(width=360, height=24 * len(order))
