"""Render an executed report notebook to self-contained HTML and to PDF (nbconvert + Chromium).

One execution, two exports with the project's lean template (``templates/vdi_report``: no
JupyterLab stylesheet, no CDN script):
- HTML: interactive charts (``text/html`` first), the Vega and DataTables bundles inlined once,
  a table-of-contents sidebar, the evidence explorer and the sizing calculator;
- PDF: static SVG charts (``image/svg+xml`` first), print notes instead of interactive parts
  (``text/markdown`` before ``text/html``), printed by headless Chromium (``publish.pdf``): a
  tagged PDF/UA-1 (structure tree for screen readers, document language, title shown) with
  bookmarks from the headings, page footers from ``print.css``'s margin boxes, printed contents
  numbers from a second print, metadata (title, subject, keywords, dates = the report date).

Both get Table N / Figure N numbers in document order and resolved internal links
(``number_captions``). Two renders of the same notebook give the same bytes.

Usage: ``python -m vdi_report.publish.render [--html | --pdf] EXECUTED.ipynb OUT_BASENAME`` writes
OUT_BASENAME.html and/or OUT_BASENAME.pdf (both without an option). The build renders in the
report notebook's stage instead (``python -m vdi_report.execute --render OUT_BASENAME``, calling
``render`` with a Chromium opened while the kernel ran), without writing and reading the notebook
in between.
"""

import re
import sys
from pathlib import Path

import nbformat
from bs4 import BeautifulSoup, Comment
from nbconvert import HTMLExporter
from traitlets.config import Config

from .. import config, files
from . import bundle

# Chromium, which prints the PDF, is found by publish/system.py (the standard library only: the
# build checks it without importing this module)
from .system import SystemLibraryError, check_pdf_dependencies, check_system

TEMPLATE_DIR = config.TEMPLATES_DIR / "vdi_report"
HTML_PRIORITY = ["text/html", "image/svg+xml", "image/png", "text/markdown", "text/plain"]
PDF_PRIORITY = ["image/svg+xml", "image/png", "text/markdown", "text/html", "text/plain"]
SUBJECT = (
    "An open, reproducible cross-vendor comparison of VDI storage reference architectures: every number "
    "digitized with its provenance, normalized, modelled and audited."
)
KEYWORDS = (
    "VDI, virtual desktop, storage, IOPS, latency, boot storm, login storm, steady state, Login VSI, "
    "reference architecture, sizing"
)


class ReportExporter(HTMLExporter):
    """nbconvert's HTMLExporter without its last pass over the page.

    That pass parses the whole page with html.parser (about 1 s for the 72-page report) only to
    give alt text to ``img`` elements without one and a tabindex to JupyterLab's cell wrappers
    (``.jp-Cell-inputWrapper``, ``.jp-OutputArea-output``). The project's template
    (templates/vdi_report) writes every image with its alt text and has no such wrappers, so the
    page is the same without it (nbconvert 7: ``HTMLExporter.from_notebook_node``)."""

    def from_notebook_node(self, nb, resources=None, **kw):
        from nbconvert.exporters.templateexporter import TemplateExporter
        from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter

        resources = self._init_resources(resources)
        self.register_filter(
            "filter_data_type",
            WidgetsDataTypeFilter(notebook_metadata=self._nb_metadata, parent=self, resources=resources),
        )
        return TemplateExporter.from_notebook_node(self, nb, resources, **kw)


def _exporter(priority: list[str]) -> HTMLExporter:
    # The priority must reach the exporter's filters through config (setting it afterwards is ignored).
    cfg = Config({"NbConvertBase": {"display_data_priority": priority}, "HTMLExporter": {"exclude_anchor_links": True}})
    return ReportExporter(
        config=cfg,
        template_name="vdi_report",
        extra_template_basedirs=[str(config.TEMPLATES_DIR)],
        exclude_input=True,
        exclude_input_prompt=True,
        exclude_output_prompt=True,
    )


def _is_caption(tag) -> bool:
    """``table > caption`` or ``p.vdi-caption``."""
    return (tag.name == "caption" and tag.parent is not None and tag.parent.name == "table") or (
        tag.name == "p" and "vdi-caption" in (tag.get("class") or ())
    )


def _is_heading(tag) -> bool:
    """``h1``, ``h2``, ``h3`` or an element with ``data-nav-label``."""
    return tag.name in ("h1", "h2", "h3") or tag.has_attr("data-nav-label")


def number_captions(soup: BeautifulSoup) -> dict[str, str]:
    """Number table captions and figure captions in document order (``Table 1.``, ``Figure 1.``)
    and resolve ``a.vdi-ref`` links (``show.ref``) to ``Table N``/``Figure N`` with an anchor.

    Returns {key: label}. Raises ValueError naming a reference to a key that no table or figure has.
    """
    labels, anchors, count = {}, {}, {"Table": 0, "Figure": 0}
    # one pass with plain tests, not CSS selectors (soupsieve took a third of the render's parse
    # work): a table's caption, a figure's caption paragraph, in document order
    for el in soup.find_all(_is_caption):
        if el.name == "caption":
            kind, anchor = "Table", el.parent.get("id", "")
            key = anchor.removeprefix("T_")
        else:
            kind, anchor = "Figure", el.get("id", "")
            key = anchor.removeprefix("fig-")
        count[kind] += 1
        label = f"{kind} {count[kind]}"
        num = soup.new_tag("span", attrs={"class": "vdi-num"})
        num.string = f"{label}. "
        el.insert(0, num)
        labels[key], anchors[key] = label, anchor
    by_id = None  # every element with an id, read once (a search per reference costs a walk of the page)
    for a in soup.find_all("a", class_="vdi-ref"):
        key = a.get("data-key", "")
        if key in labels:
            a.string, a["href"] = labels[key], f"#{anchors[key]}"
            continue
        if by_id is None:
            by_id = {}
            for el in soup.find_all(id=True):
                by_id.setdefault(el["id"], el)
        if (target := by_id.get(key)) is not None:  # a heading: its text
            a.string = target.get_text(" ", strip=True)
        else:
            raise ValueError(f"report: reference to {key!r}, which no table, figure or heading has")
    return labels


def _headings(soup: BeautifulSoup) -> list[tuple[int, str, str]]:
    """(level, id, text) of the chapter (h1) and section (h2) headings in the report body, and of
    the elements that ask for a place in the contents (``data-nav-label``, e.g. the calculator)."""
    out, seen = [], {t["id"] for t in soup.find_all(id=True)}
    main = soup.find("main")  # the page has one (templates/vdi_report)
    for h in main.find_all(_is_heading) if main is not None else []:
        if h.get("data-nav-label") and h.get("id"):
            out.append((2, h["id"], h["data-nav-label"]))
            continue
        if h.find_parent(class_="vdi-title"):
            continue
        if not h.get("id"):  # markdown headings: a stable id from the text
            base = re.sub(r"[^a-z0-9]+", "-", h.get_text(" ", strip=True).lower()).strip("-") or "section"
            hid, i = base, 1
            while hid in seen:
                i += 1
                hid = f"{base}-{i}"
            h["id"] = hid
            seen.add(hid)
        if h.name == "h3":
            continue
        out.append((int(h.name[1]), h["id"], h.get_text(" ", strip=True)))
    return out


def _nav(heads, levels: tuple[int, ...], pages: bool = False) -> str:
    """The contents as nested lists of links; ``pages``: each entry also has a page number
    (``span.vdi-toc-page``, which the PDF's second print fills in, ``publish.pdf``)."""
    items, open_sub = [], False

    def page(hid: str) -> str:
        if not pages:
            return ""
        leader = '<span class="vdi-toc-leader" aria-hidden="true"></span>'
        return f'{leader}<span class="vdi-toc-page" data-target="{hid}">0</span>'

    for level, hid, text in heads:
        if level not in levels:
            continue
        if level == 1:
            if open_sub:
                items.append("</ol></li>")
                open_sub = False
            elif items:
                items.append("</li>")
            items.append(f'<li class="vdi-toc-1"><a href="#{hid}">{text}</a>{page(hid)}')
        else:
            if not open_sub:
                items.append("<ol>")
                open_sub = True
            items.append(f'<li class="vdi-toc-2"><a href="#{hid}">{text}</a>{page(hid)}</li>')
    if items:
        items.append("</ol></li>" if open_sub else "</li>")
    return "<ol>" + "".join(items) + "</ol>"


def _head(soup: BeautifulSoup, for_pdf: bool) -> str:
    title_el = soup.select_one(".vdi-doc-title")
    title = title_el.get_text(" ", strip=True) if title_el else "VDI storage comparison"
    date = soup.select_one(".vdi-title")
    date = date.get("data-date", "") if date else ""
    css = (TEMPLATE_DIR / "report.css").read_text(encoding="utf-8")
    css += "\n" + (TEMPLATE_DIR / ("print.css" if for_pdf else "screen.css")).read_text(encoding="utf-8")
    meta = [
        f"<title>{title}</title>",
        f'<meta name="description" content="{SUBJECT}">',
        f'<meta name="keywords" content="{KEYWORDS}">',
        '<meta name="author" content="vdi-report project">',
    ]
    if date:
        meta += [f'<meta name="dcterms.created" content="{date}">', f'<meta name="dcterms.modified" content="{date}">']
    return "\n".join(meta) + f'\n<style type="text/css">\n{css}\n</style>'


def _parsed(nb: nbformat.NotebookNode, for_pdf: bool) -> tuple[BeautifulSoup, list[str], list]:
    """The exported notebook parsed, with heading ids and Table/Figure numbers: (soup, the
    scripts set aside as ``@@vdi-script-N@@``, the headings)."""
    body, _ = _exporter(PDF_PRIORITY if for_pdf else HTML_PRIORITY).from_notebook_node(nb)
    # Scripts (chart specs, the explorer's data) are set aside while the page is parsed: the
    # parser need not read megabytes of JavaScript and JSON, and their bytes stay untouched.
    scripts: list[str] = []

    def _stash(m: re.Match) -> str:
        scripts.append(m.group(2))
        return f"{m.group(1)}@@vdi-script-{len(scripts) - 1}@@</script>"

    body = re.sub(r"(<script[^>]*>)(.*?)</script>", _stash, body, flags=re.DOTALL)
    soup = BeautifulSoup(body, "lxml")
    heads = _headings(soup)
    number_captions(soup)
    return soup, scripts, heads


NO_LINK_INSIDE = {"a", "script", "style", "title", "head", "textarea", "option", "button", "svg"}


def record_id_pattern() -> re.Pattern:
    """A record id as the records files write it, ``<record_prefix>-NNNN`` with a prefix of
    data/raw/sources.csv (so a document number such as RA-2022 is not one), not part of a longer id."""
    import csv

    with open(config.RAW_DIR / "sources.csv", encoding="utf-8", newline="") as fh:
        prefixes = sorted({r["record_prefix"] for r in csv.DictReader(fh) if r.get("record_prefix")}, key=len)
    alt = "|".join(re.escape(p) for p in reversed(prefixes)) or "(?!)"
    return re.compile(rf"(?<![\w-])((?:{alt})-\d{{4}})(?![\w-])")


def link_record_ids(soup: BeautifulSoup) -> int:
    """Every record id in the HTML report's text (tables, prose, captions) becomes a link to the
    evidence explorer filtered to that record (``#record=ID``: the explorer's script filters its
    Record column and scrolls to it). Not inside links, scripts, form controls, charts or the
    explorer itself. Returns how many ids were linked."""
    n = 0
    pattern = record_id_pattern()
    for text in list(soup.find_all(string=pattern)):
        if isinstance(text, Comment) or any(
            p.name in NO_LINK_INSIDE or p.get("id") == "evidence-explorer" for p in text.parents if p.name
        ):
            continue
        parts = pattern.split(str(text))
        new = []
        for i, part in enumerate(parts):
            if i % 2:
                a = soup.new_tag("a", href=f"#record={part}", attrs={"class": "vdi-record"})
                a.string = part
                a["title"] = f"Show {part} in the evidence explorer"
                new.append(a)
                n += 1
            elif part:
                new.append(part)
        text.replace_with(*new)
    return n


def print_document(nb: nbformat.NotebookNode) -> BeautifulSoup:
    """The print version of an executed notebook as a parsed document (static SVG charts, the
    printed contents, ``print.css``): what ``to_html(nb, for_pdf=True)`` serializes and what
    ``pdf_bytes`` lays out. Raises ValueError for a reference to a missing table or figure."""
    soup, scripts, heads = _parsed(nb, for_pdf=True)
    if scripts:  # the print version has no interactive parts; put any script back as it was
        soup = BeautifulSoup(
            re.sub(r"@@vdi-script-(\d+)@@", lambda m: scripts[int(m.group(1))], str(soup)), "html.parser"
        )
    toc = '<nav class="vdi-toc"><div class="vdi-toc-title">Contents</div>' + _nav(heads, (1,), pages=True) + "</nav>"
    for marker, html in (("vdi:toc", toc), ("vdi:nav", ""), ("vdi:head", _head(soup, True))):
        comment = soup.find(string=lambda t, m=marker: isinstance(t, Comment) and t.strip() == m)
        if comment is not None:
            comment.replace_with(BeautifulSoup(html, "html.parser"))
    return soup


def to_html(nb: nbformat.NotebookNode, for_pdf: bool = False) -> str:
    """HTML of an executed notebook: interactive (offline) for the web, static SVG for print."""
    if for_pdf:
        return str(print_document(nb))
    soup, scripts, heads = _parsed(nb, for_pdf=False)
    link_record_ids(soup)
    html = re.sub(r"@@vdi-script-(\d+)@@", lambda m: scripts[int(m.group(1))], str(soup))
    head = _head(soup, for_pdf=False)
    from ..report import page_head  # not charts nor explorer: they import Altair and pandas

    side = (
        '<nav class="vdi-sidebar" aria-label="Contents"><div class="vdi-nav-title">Contents</div>'
        + _nav(heads, (1, 2))
        + "</nav>"
    )
    html = html.replace("<!--vdi:toc-->", "", 1).replace("<!--vdi:nav-->", side, 1)
    head += f'\n<script type="module">\n{bundle.vega_bundle()}\n</script>\n'
    head += page_head.chart_starter_html() + page_head.explorer_bundle_html()
    return html.replace("<!--vdi:head-->", head, 1)


# the contents' pages of the last PDF print (a build cache; ``pdf_bytes``)
PAGES_CACHE = config.PROJ_ROOT / "build" / "contents-pages.json"
# the pages' content as the last PDF's finishing rewrote it (a build cache; ``pdf._artifacts``)
CONTENT_CACHE = config.PROJ_ROOT / "build" / "pdf-content"


def pdf_bytes(doc: str | BeautifulSoup, printer=None) -> bytes:
    """The tagged PDF (PDF/UA-1) of the print version ``doc`` (``print_document`` or its HTML),
    printed by the system Chromium (``publish.pdf``); the same document gives the same bytes.

    WeasyPrint laid the PDF out until 0.2.x: about 31 s for the 72 pages against about 10 s
    now (``publish.pdf``). The contents' pages of the last print are kept in
    ``build/contents-pages.json`` (``PAGES_CACHE``), so a rebuild whose chapters did not move
    prints once, and the pages' finished content in ``build/pdf-content/`` (``CONTENT_CACHE``).
    ``printer``: a ``pdf.Printer`` already opened (``render`` opens it before
    making the print document, so that Chromium starts meanwhile), else the system Chromium.
    Raises SystemLibraryError without Chromium and ``pdf.PrintError`` when the print fails."""
    from . import pdf

    return pdf.pdf_bytes(doc, printer or check_pdf_dependencies(), PAGES_CACHE, CONTENT_CACHE)


def start_pdf(doc: BeautifulSoup, printer):
    """Start the PDF of ``pdf_bytes`` on the open ``pdf.Printer`` ``printer``, its last print (the
    browser closes while the PDF is finished); returns a function that waits for the print and
    returns the PDF's bytes (``pdf.start_pdf``, with ``PAGES_CACHE``)."""
    from . import pdf

    return pdf.start_pdf(doc, printer, PAGES_CACHE, last=True, content_cache=CONTENT_CACHE)


FORMATS = ("html", "pdf")


def render(executed: Path, out_base: Path, formats: tuple[str, ...] = FORMATS, printer=None) -> list[Path]:
    """Write ``out_base``.html and/or ``out_base``.pdf (``formats``) from the executed notebook
    ``executed``; returns the paths written, in the order of ``formats``. ``printer``: a
    ``pdf.Printer`` already opening (the report stage opens it while its kernel runs the notebook,
    ``execute --render``): it prints once, its browser closes as the PDF is finished, and the
    caller still calls its ``close``; else one is opened and closed here.

    Raises FileNotFoundError for a missing notebook, ValueError for an unknown format,
    SystemLibraryError when Chromium is missing and ``pdf.PrintError`` when it fails (PDF only).
    """
    unknown = set(formats) - set(FORMATS)
    if unknown:
        raise ValueError(f"unknown format(s) {', '.join(sorted(unknown))}; formats: {', '.join(FORMATS)}")
    own = printer is None and "pdf" in formats
    if own:  # Chromium starts (about 1 s) while the notebook is read and the print document made
        from . import pdf

        printer = pdf.Printer(check_pdf_dependencies())
    try:
        nb = nbformat.read(executed, as_version=4)
        out_base = Path(out_base)
        out_base.parent.mkdir(parents=True, exist_ok=True)
        paths = {fmt: out_base.with_suffix(f".{fmt}") for fmt in formats}
        # Chromium prints while this process makes the HTML report (the PDF's print is its own
        # process's work): both formats took about as long as the PDF alone plus 0.4 s (measured).
        finish_pdf = start_pdf(print_document(nb), printer) if "pdf" in formats else None
        if "html" in formats:
            files.write_bytes(to_html(nb).encode("utf-8"), paths["html"])
        if finish_pdf is not None:
            files.write_bytes(finish_pdf(), paths["pdf"])
        written = [paths[fmt] for fmt in formats]
    finally:
        if own:
            printer.close()
    return written


def main(argv: list[str]) -> int:
    if argv == ["--check-system"]:
        return check_system()
    formats = FORMATS
    if argv and argv[0] in ("--html", "--pdf"):
        formats, argv = (argv[0].removeprefix("--"),), argv[1:]
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        paths = render(Path(argv[0]), Path(argv[1]), formats)
    except (SystemLibraryError, FileNotFoundError, ValueError, RuntimeError) as exc:
        print(f"render: {exc}", file=sys.stderr)
        return 1
    print("wrote " + " and ".join(f"{p} ({p.stat().st_size / 1e6:.1f} MB)" for p in paths))
    return 0


if __name__ == "__main__":
    files.end_process(main(sys.argv[1:]))
