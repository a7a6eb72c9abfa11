"""Text alternatives of the report's charts, written from each chart's own Vega-Lite spec.

``describe(spec)`` says what a chart shows in words a screen reader can read: the kind of chart,
its panels, what each axis measures and over which range of the data, what colour and shape
stand for (with the categories drawn), the reference lines and labels, and how many marks there
are. ``show.figure`` puts it on every chart: as the spec's ``description`` (Vega makes it the
chart's ``aria-label`` in the HTML report) and as the static SVG's ``<title>`` (``publish.pdf``
makes it the SVG's accessible name, which Chromium writes as the ``/Alt`` of the chart's
``Figure`` element in the tagged PDF). The caption, printed beside
the chart, says what the chart means; this text says what is drawn.

Everything comes from the spec and its inline data (``datasets`` / ``data.values``), so the
words change when the data change; nothing is a constant per chart.
"""

from __future__ import annotations

from collections.abc import Iterator

MARK_WORDS = {
    "point": "points",
    "circle": "points",
    "square": "points",
    "tick": "ticks",
    "bar": "bars",
    "line": "lines",
    "trail": "lines",
    "area": "shaded bands",
    "rect": "shaded ranges",
    "rule": "rules",
}
CHART_KIND = {"bar": "Bar chart", "line": "Line chart", "area": "Area chart", "tick": "Strip plot"}
COUNTED = ("point", "circle", "square", "bar", "tick")  # one mark per data row: counted
MAX_LISTED = 8  # categories named per legend or axis before "and N more"


def _mark(view: dict) -> str:
    mark = view.get("mark", "")
    return mark.get("type", "") if isinstance(mark, dict) else str(mark)


def _rows(view: dict, datasets: dict, inherited: list[dict]) -> list[dict]:
    data = view.get("data")
    if not isinstance(data, dict):
        return inherited
    if "values" in data:
        return list(data["values"])
    return list(datasets.get(data.get("name", ""), inherited))


def _units(spec: dict, datasets: dict, rows: list[dict]) -> Iterator[tuple[dict, list[dict]]]:
    """(unit view, its data rows) for every single-mark view of ``spec`` (layers, facets and
    concatenations flattened), with the encodings a layer inherits from its parent merged in."""
    rows = _rows(spec, datasets, rows)
    if "mark" in spec:
        yield spec, rows
    for key in ("layer", "hconcat", "vconcat", "concat"):
        for sub in spec.get(key, []):
            if key == "layer" and "encoding" in spec:
                sub = {**sub, "encoding": {**spec["encoding"], **sub.get("encoding", {})}}
            yield from _units(sub, datasets, rows)
    if isinstance(spec.get("spec"), dict):
        yield from _units(spec["spec"], datasets, rows)


def _number(v: float) -> str:
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    return f"{v:.3g}"


def _numbers(rows: list[dict], field: str) -> list[float]:
    """The numbers of ``field`` (no missing values, no NaN)."""
    return [float(v) for r in rows if isinstance(v := r.get(field), int | float) and v == v]


def _distinct(rows: list[dict], field: str, sort=None) -> list[str]:
    seen = list(dict.fromkeys(str(r[field]) for r in rows if r.get(field) not in (None, "")))
    if isinstance(sort, list):
        order = [str(s) for s in sort]
        seen.sort(key=lambda v: order.index(v) if v in order else len(order))
    return seen


def _listing(values: list[str]) -> str:
    shown = ", ".join(values[:MAX_LISTED])
    more = len(values) - MAX_LISTED
    return shown + (f" and {more} more" if more > 0 else "")


def _title(enc: dict) -> str:
    """An encoding's title: its own, else its field; "" when the spec hides it (``title: null``)."""
    if "title" in enc:
        return str(enc["title"] or "").strip()
    return str(enc.get("field", "")).strip()


def _channel(units, channel: str) -> tuple[str, str, list[float], list[str]]:
    """(title, type, numbers drawn, categories drawn) of position ``channel`` across the units.
    The title is the first one a layer states; without any, the field of the first layer."""
    stated, fallback, kind, numbers, categories = "", "", "", [], []
    for view, rows in units:
        enc = view.get("encoding", {})
        for ch in (channel, channel + "2"):
            e = enc.get(ch)
            if not isinstance(e, dict) or "field" not in e:
                continue
            if ch == channel:
                stated = stated or (str(e.get("title") or "").strip())
                fallback = fallback or ("" if "title" in e else e["field"])
                kind = kind or e.get("type", "")
            if e.get("type") in ("nominal", "ordinal"):
                categories += [c for c in _distinct(rows, e["field"], e.get("sort")) if c not in categories]
            else:
                numbers += _numbers(rows, e["field"])
    return stated or fallback, kind, numbers, categories


def _axis(units, channel: str) -> str:
    title, kind, numbers, categories = _channel(units, channel)
    if kind in ("nominal", "ordinal") and categories:
        return f"{title} ({_listing(categories)})" if title else _listing(categories)
    if numbers:
        return f"{title}, data from {_number(min(numbers))} to {_number(max(numbers))}".lstrip(", ")
    return title


def _legends(units) -> list[str]:
    out = []
    for channel, word in (("color", "colour"), ("shape", "shape"), ("strokeDash", "line style")):
        seen = {}
        for view, rows in units:
            e = view.get("encoding", {}).get(channel)
            if isinstance(e, dict) and "field" in e and e.get("type") in ("nominal", "ordinal"):
                key = _title(e)
                seen.setdefault(key, [])
                seen[key] += [v for v in _distinct(rows, e["field"], e.get("sort")) if v not in seen[key]]
        out += [f"{word}: " + (f"{t} ({_listing(v)})" if t else _listing(v)) for t, v in seen.items() if v]
    return out


def _references(units) -> list[str]:
    """Reference rules and shaded ranges drawn across the plot (a rule or rect with one position
    channel only), and the text labels."""
    out = []
    for view, rows in units:
        enc, mark = view.get("encoding", {}), _mark(view)
        if mark == "text" and isinstance(enc.get("text"), dict) and "field" in enc["text"]:
            labels = _distinct(rows, enc["text"]["field"])
            if labels:
                out.append("labelled " + "; ".join(f"“{t}”" for t in labels[:MAX_LISTED]))
            continue
        if mark not in ("rule", "rect"):
            continue
        for axis, other in (("x", "y"), ("y", "x")):
            e = enc.get(axis)
            if other in enc or not isinstance(e, dict) or "field" not in e:
                continue
            values = _numbers(rows, e["field"])
            e2 = enc.get(axis + "2")
            if mark == "rect" and isinstance(e2, dict) and "field" in e2:
                highs = _numbers(rows, e2["field"])
                out += [f"a shaded range of {axis} from {_number(a)} to {_number(b)}" for a, b in zip(values, highs)]
            else:
                where = "vertical" if axis == "x" else "horizontal"
                out += [f"a {where} reference line at {axis} = {_number(v)}" for v in values]
    return out


def _kind(units) -> tuple[str, list[str]]:
    """(the chart's kind, its data marks) from the marks drawn (rules and shaded ranges count as
    data marks only when nothing else is drawn or when they span a category: intervals)."""
    drawn = list(dict.fromkeys(_mark(v) for v, _ in units if _mark(v) in MARK_WORDS))
    data_marks = [m for m in drawn if m not in ("rule", "rect")] or drawn
    categorical = {"nominal", "ordinal"} & {_channel(units, "x")[1], _channel(units, "y")[1]}
    if len(data_marks) == 1 and data_marks[0] in CHART_KIND:
        kind = CHART_KIND[data_marks[0]]
    elif len(data_marks) == 1 and data_marks[0] in ("point", "circle", "square"):
        kind = "Dot plot" if categorical else "Scatter plot"
    elif data_marks:
        kind = "Chart of " + " and ".join(dict.fromkeys(MARK_WORDS[m] for m in data_marks))
    else:
        kind = "Chart"
    return kind, data_marks


def _counts(units) -> list[str]:
    """How many marks carry data: one per row for points, bars and ticks (those drawn open, e.g.
    bounds, said apart: "53 points (12 open)"), and for rules that span an interval along a
    category (``x``/``x2`` with ``y``, or the transpose)."""
    counts: dict[str, int] = {}
    opened: dict[str, int] = {}
    for view, rows in units:
        mark, enc = _mark(view), view.get("encoding", {})
        if mark in COUNTED:
            word = MARK_WORDS[mark]
            if isinstance(view.get("mark"), dict) and view["mark"].get("filled") is False:
                opened[word] = opened.get(word, 0) + len(rows)
        elif mark == "rule" and (("x2" in enc and "y" in enc) or ("y2" in enc and "x" in enc)):
            word = "horizontal ranges" if "x2" in enc else "vertical ranges"
        else:
            continue
        counts[word] = counts.get(word, 0) + len(rows)
    return [
        f"{n} {word.removesuffix('s') if n == 1 else word}" + (f" ({opened[word]} open)" if opened.get(word) else "")
        for word, n in counts.items()
    ]


def describe(spec: dict) -> str:
    """The text alternative of the chart whose Vega-Lite ``spec`` (``chart.to_dict()``) is given.

    Returns one paragraph, e.g. "Dot plot in 2 panels by statistic (peak, average): x: IOPS per
    desktop (log scale), data from 4.8 to 400; y: Boot storm, Login storm, Steady state; colour:
    Vendor (NetApp, Hitachi); 53 points." Ranges are the minimum and maximum of the data the
    chart draws on that axis (three significant figures, thousands separated); categories are
    listed in the chart's order, at most ``MAX_LISTED`` of them. A spec it cannot read more of
    gives a shorter text (at least the kind of chart), never an error.
    """
    datasets = spec.get("datasets", {})
    units = list(_units(spec, datasets, []))
    head, _ = _kind(units)
    title = spec.get("title")
    title = title.get("text") if isinstance(title, dict) else title
    if title:
        head += f" titled “{title}”"
    facet = spec.get("facet") if isinstance(spec.get("facet"), dict) else {}
    for f in [facet] if "field" in facet else [facet.get("row"), facet.get("column")]:
        if isinstance(f, dict) and "field" in f:
            panels = _distinct(_rows(spec, datasets, []), f["field"], f.get("sort"))
            head += f" in {len(panels)} panels by {f.get('title') or f['field']} ({_listing(panels)})"
    panels = [p.get("title") for key in ("hconcat", "vconcat", "concat") for p in spec.get(key, [])]
    panels = [p.get("text") if isinstance(p, dict) else p for p in panels]
    if len(panels) > 1:
        head += f" in {len(panels)} panels" + (f" ({_listing([str(p) for p in panels])})" if all(panels) else "")
    parts = [f"{axis}: {text}" for axis in ("x", "y") if (text := _axis(units, axis))]
    parts += _legends(units) + _counts(units) + _references(units)
    return head + (": " + "; ".join(parts) if parts else "") + "."
