"""Putting prose, tables and figures on the page (the only output path of the report sections).

- ``say(template, **values)``: Markdown prose. Numbers enter only through ``{name}``
  placeholders, formatted by the caller from data; a test fails when a template carries a digit.
- ``table(df, caption, key)``: a table with a caption; ``figure(chart, caption, key)``: a chart.
  Numbers (Table N, Figure N) are assigned in document order when the report is rendered
  (``vdi_report.publish.render.number_captions``); ``ref(key)`` links to one by its key.
- ``html_only(html, print_note)``: interactive content for the HTML report, with the note the PDF
  prints instead (the HTML exporter prefers ``text/html``, the PDF ``text/markdown``).
"""

import string

import pandas as pd
from IPython.display import Markdown, display

from . import alt_text, charts, tables

_FORMATTER = string.Formatter()


def fill(template: str, **values) -> str:
    """``template`` with its ``{name}`` placeholders replaced by ``values``.

    Raises KeyError naming a placeholder without a value, and ValueError naming a value that
    no placeholder uses (a number computed but not shown is a sign of a stale template).
    """
    names = {f for _, f, _, _ in _FORMATTER.parse(template) if f}
    missing = sorted(names - set(values))
    if missing:
        raise KeyError(f"placeholder(s) without a value: {', '.join(missing)}")
    unused = sorted(set(values) - {n.split(".")[0].split("[")[0] for n in names})
    if unused:
        raise ValueError(f"value(s) that no placeholder uses: {', '.join(unused)}")
    return template.format(**values)


def say(template: str, **values) -> None:
    """Display ``template`` (Markdown) with its placeholders filled (``fill``). A dollar sign is
    written as its HTML entity: the notebook's Markdown renderer reads ``$...$`` as math, which left
    the ``**`` of a sentence with two prices as literal asterisks."""
    display(Markdown(fill(template, **values).replace("$", "&#36;")))


def block(template: str, **values) -> None:
    """Display an HTML block (same in the HTML report and the PDF) with its placeholders filled."""
    html = fill(template, **values)
    display({"text/html": html, "text/markdown": html}, raw=True)


def heading(level: int, text: str, key: str, new_page: bool = False) -> None:
    """A heading with a stable id (``key``), for the contents, the sidebar and PDF bookmarks;
    ``new_page``: the PDF starts a new page with it."""
    cls = ' class="vdi-new-page"' if new_page else ""
    html = f'<h{level} id="{key}"{cls}>{text}</h{level}>'
    display({"text/html": html, "text/markdown": html}, raw=True)


def ref(key: str) -> str:
    """An internal link to table or figure ``key``; render fills in its number (``Table 3``)."""
    return f'<a class="vdi-ref" data-key="{key}" href="#{key}">{key}</a>'


def table(df: pd.DataFrame, caption: str, key: str, widths: dict[str, str] | None = None) -> None:
    """Display ``df`` as a report table with ``caption`` (no number: render assigns it).

    ``key`` becomes the table's id (``tab-<key>``, stable across builds); ``widths`` as in
    ``tables.styled``.
    """
    display(tables.styled(df, caption, widths, key=key))


def figure(chart, caption: str, key: str) -> None:
    """Display an Altair ``chart`` with ``caption``; ``key`` gives stable ids (``fig-<key>``).

    The chart gets its text alternative (``alt_text.describe``, from its spec and data) as its
    ``description``, unless the chart states one: ``charts.show`` makes it the HTML chart's
    ``aria-label`` and the static SVG's ``<title>``, which the tagged PDF carries as the
    ``Figure``'s ``/Alt``.
    """
    cap = f'<p class="vdi-caption" data-kind="figure" id="fig-{key}">{caption}</p>'
    display({"text/html": cap, "text/markdown": cap}, raw=True)
    spec = chart.to_dict()  # once: Altair's conversion (and schema check) is most of a chart's cost
    if not spec.get("description"):
        spec["description"] = alt_text.describe(spec)
    charts.show(spec, key=key)


def html_only(html: str, print_note: str) -> None:
    """Interactive ``html`` in the HTML report; ``print_note`` (Markdown) in the PDF."""
    display({"text/html": html, "text/markdown": print_note}, raw=True)
