"""Render an executed report notebook to self-contained HTML and to PDF (nbconvert + WeasyPrint).

One execution, two exports with the project's lean template (``templates/vdi_report``: no
JupyterLab stylesheet, no CDN script):
- HTML: interactive charts (``text/html`` first), the Vega and DataTables bundles inlined once,
  a table-of-contents sidebar, the evidence explorer and the sizing calculator;
- PDF: static SVG charts (``image/svg+xml`` first), print notes instead of interactive parts
  (``text/markdown`` before ``text/html``), then WeasyPrint in one pass: a tagged PDF/UA-1
  (structure tree for screen readers, document language, title shown), whose printed contents
  numbers (``target-counter``), bookmarks (``bookmark-level``) and page footers
  (``counter(page)``/``counter(pages)``) WeasyPrint makes from ``print.css``; metadata (title,
  subject, keywords, dates = the report date).

Both get Table N / Figure N numbers in document order and resolved internal links
(``number_captions``). Two renders of the same notebook give the same bytes.

Usage: ``python -m vdi_report.publish.render [--html | --pdf] EXECUTED.ipynb OUT_BASENAME`` writes
OUT_BASENAME.html and/or OUT_BASENAME.pdf (both without an option). The build runs the two as
separate steps, side by side under ``make -j2``: the PDF's WeasyPrint layout takes most of the
time, and the HTML export need not wait for it.
"""

import os
import re
import sys
from pathlib import Path

import nbformat
from bs4 import BeautifulSoup, Comment
from nbconvert import HTMLExporter
from traitlets.config import Config

from .. import config, files

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


class SystemLibraryError(RuntimeError):
    """WeasyPrint cannot load pango: the message says what to install."""


PANGO_HINT = (
    "WeasyPrint needs the system's pango and a font. On Debian/Ubuntu run:\n"
    "  sudo apt-get install -y libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core"
)
CHROMIUM_HINT = (
    "The browser tests need Chromium (they skip without it). On Debian/Ubuntu run:\n  sudo apt-get install -y chromium"
)


def check_pdf_dependencies() -> None:
    """Raise SystemLibraryError with the install command when WeasyPrint cannot load pango."""
    try:
        import weasyprint  # noqa: F401
    except OSError as exc:
        raise SystemLibraryError(f"{PANGO_HINT}\n(import error: {exc})") from None


def chromium_path() -> str | None:
    """The system Chromium for the browser tests (``VDI_CHROMIUM`` or the usual Debian paths)."""
    for p in (os.environ.get("VDI_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if p and Path(p).exists():
            return p
    return None


def check_system() -> int:
    """Print what the PDF and the browser tests need and whether it is there; 1 if the PDF cannot
    be built (the browser is optional: its tests skip)."""
    try:
        check_pdf_dependencies()
        print("PDF: pango found")
        rc = 0
    except SystemLibraryError as exc:
        print(exc)
        rc = 1
    print(f"browser tests: Chromium at {chromium_path()}" if chromium_path() else CHROMIUM_HINT)
    return rc


def _exporter(priority: list[str]) -> HTMLExporter:
    # The priority must reach the exporter's filters through config (setting it afterwards is ignored).
    cfg = Config({"NbConvertBase": {"display_data_priority": priority}, "HTMLExporter": {"exclude_anchor_links": True}})
    return HTMLExporter(
        config=cfg,
        template_name="vdi_report",
        extra_template_basedirs=[str(config.TEMPLATES_DIR)],
        exclude_input=True,
        exclude_input_prompt=True,
        exclude_output_prompt=True,
    )


def number_captions(soup: BeautifulSoup) -> dict[str, str]:
    """Number table captions and figure captions in document order (``Table 1.``, ``Figure 1.``)
    and resolve ``a.vdi-ref`` links (``show.ref``) to ``Table N``/``Figure N`` with an anchor.

    Returns {key: label}. Raises ValueError naming a reference to a key that no table or figure has.
    """
    labels, anchors, count = {}, {}, {"Table": 0, "Figure": 0}
    for el in soup.select("table > caption, p.vdi-caption"):
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
    for a in soup.select("a.vdi-ref"):
        key = a.get("data-key", "")
        if key in labels:
            a.string, a["href"] = labels[key], f"#{anchors[key]}"
        elif (target := soup.find(id=key)) is not None:  # a heading: its text
            a.string = target.get_text(" ", strip=True)
        else:
            raise ValueError(f"report: reference to {key!r}, which no table, figure or heading has")
    return labels


def _headings(soup: BeautifulSoup) -> list[tuple[int, str, str]]:
    """(level, id, text) of the chapter (h1) and section (h2) headings in the report body, and of
    the elements that ask for a place in the contents (``data-nav-label``, e.g. the calculator)."""
    out, seen = [], {t["id"] for t in soup.find_all(id=True)}
    for h in soup.select("main h1, main h2, main h3, main [data-nav-label]"):
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


def _nav(heads, levels: tuple[int, ...]) -> str:
    items, open_sub = [], False
    for level, hid, text in heads:
        if level not in levels:
            continue
        if level == 1:
            if open_sub:
                items.append("</ol></li>")
                open_sub = False
            elif items:
                items.append("</li>")
            items.append(f'<li class="vdi-toc-1"><a href="#{hid}">{text}</a>')
        else:
            if not open_sub:
                items.append("<ol>")
                open_sub = True
            items.append(f'<li class="vdi-toc-2"><a href="#{hid}">{text}</a></li>')
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


def vega_bundle() -> str:
    """vl-convert's offline bundle of vega, vega-lite and vega-embed (the same bytes each time).

    Building it takes seconds, so it is kept in ``build/vega-bundle-<vl-convert version>.js``
    (``make clean`` removes it).
    """
    import vl_convert as vlc

    cache = config.PROJ_ROOT / "build" / f"vega-bundle-{vlc.__version__}.js"
    if cache.exists():
        return cache.read_text(encoding="utf-8")
    js = vlc.javascript_bundle()
    cache.parent.mkdir(parents=True, exist_ok=True)
    files.write_bytes(js.encode("utf-8"), cache)
    return js


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
    soup = BeautifulSoup(body, "html.parser")
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
    toc = '<nav class="vdi-toc"><div class="vdi-toc-title">Contents</div>' + _nav(heads, (1,)) + "</nav>"
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
    from ..report import charts, explorer

    side = (
        '<nav class="vdi-sidebar" aria-label="Contents"><div class="vdi-nav-title">Contents</div>'
        + _nav(heads, (1, 2))
        + "</nav>"
    )
    html = html.replace("<!--vdi:toc-->", "", 1).replace("<!--vdi:nav-->", side, 1)
    head += f'\n<script type="module">\n{vega_bundle()}\n</script>\n' + charts.starter_html() + explorer.bundle_html()
    return html.replace("<!--vdi:head-->", head, 1)


def pdf_bytes(doc: str | BeautifulSoup, base_url: str) -> bytes:
    """The tagged PDF (PDF/UA-1) of the print version ``doc`` (``print_document`` or its HTML),
    laid out by WeasyPrint in one pass. The file identifier is derived from the HTML and the
    dates come from the page's ``dcterms`` metadata, so the same document gives the same bytes.

    One pass replaced a layout in cached pieces joined with pypdf (``paged.py``, until 0.2.0):
    joining loses the structure tree, and WeasyPrint numbers the contents, bookmarks and
    footers itself; the price is the whole layout on each parameter change (``make bench``).

    Printing the same print HTML with headless Chromium was measured (Chromium 156, 72 pages):
    1.7 s of CPU (5.6 s wall with its start) against about 25 s here, with margin-box footers and
    a structure tree, but no ``target-counter`` (the printed contents lose their page numbers)
    and tags the PDF/UA checker refuses (outloud: 84 errors, among them untagged content on
    every page, table headers, metadata and link descriptions). WeasyPrint stays the PDF route
    until a Chromium print passes ``tests/report/test_pdf_ua.py``.
    """
    import hashlib
    import logging

    import weasyprint

    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    html = str(doc)
    identifier = hashlib.sha256(html.encode("utf-8")).hexdigest()[:32].encode("ascii")
    return weasyprint.HTML(string=html, base_url=base_url).write_pdf(
        pdf_variant="pdf/ua-1", pdf_identifier=identifier, finisher=finish_tags
    )


def _ref(ref) -> int:
    """The object number of a pydyf reference (``b"12 0 R"``)."""
    return int(ref.split()[0])


def _reachable(objects: list, root: int) -> set[int]:
    """Numbers of the structure elements reachable from structure element ``root`` through /K."""
    seen, todo = set(), [root]
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        kids = objects[n].get("K", [])
        todo += [_ref(k) for k in (kids if isinstance(kids, list) else [kids]) if isinstance(k, bytes)]
    return seen


def finish_tags(document, pdf) -> None:
    """Complete WeasyPrint's PDF/UA-1 tagging (a ``write_pdf`` finisher: it edits the PDF
    objects before they are written, so the bytes stay deterministic and nothing is re-parsed).

    What WeasyPrint 70 leaves out, and this adds (checked by ``tests/report/test_pdf_ua.py``):
    - **page furniture as artifacts**: WeasyPrint tags the text of the page margin boxes (the
      running footer "… page N of M") as content but links it to no element of the structure
      tree (``pdf/tags.py``: "could be included in tree as Artifact, but that's only allowed in
      PDF 2.0"). Its marked content becomes ``/Artifact <</Type /Pagination>>`` (allowed in
      PDF 1.7 content streams), its parent-tree entries ``null`` and its orphan elements empty;
    - **links readers can name**: each link annotation's ``/Contents`` is the link's own text
      (WeasyPrint writes the target, e.g. ``tab-foo``), and its Print flag is set (``/F 4``), so
      print and screen agree (PDF/UA 7.18.1, 7.18.5);
    - **table header scope**: each ``TH`` gets ``/Scope`` ``/Row`` when a data cell of its own row
      names it in ``/Headers`` (WeasyPrint's association for ``scope="row"``), else ``/Column``.

    Page ``/Tabs /S``, ``DisplayDocTitle``, ``/Lang``, the XMP ``dc:title`` and ``pdfuaid:part``
    and the ``Figure`` ``/Alt`` (from an SVG's ``<title>``, see ``report.show.figure``) are
    WeasyPrint's own.
    """
    objects = pdf.objects
    root = objects[_ref(pdf.catalog["StructTreeRoot"])]
    reachable = _reachable(objects, _ref(root["K"][0]))
    _margins_as_artifacts(pdf, root, reachable)
    _name_links(document)
    _scope_headers(objects, reachable)


def _margins_as_artifacts(pdf, root, reachable: set[int]) -> None:
    """Marked content whose element the structure tree does not reach (the margin boxes)
    becomes a pagination artifact; its parent-tree entries become null, its elements empty."""
    import pydyf

    objects = pdf.objects
    nums = objects[_ref(root["ParentTree"])]["Nums"]
    pages = [objects[n] for n in pdf.pages["Kids"][::3]]  # pydyf keeps "N 0 R" as three items
    for index in range(0, len(nums), 2):
        page_number, entry = nums[index], nums[index + 1]
        if not isinstance(entry, list) or page_number >= len(pages):
            continue
        orphans = {mcid for mcid, ref in enumerate(entry) if isinstance(ref, bytes) and _ref(ref) not in reachable}
        for mcid in orphans:
            entry[mcid] = "null"
        ops = objects[_ref(pages[page_number]["Contents"])].stream
        for i, op in enumerate(ops):
            if isinstance(op, pydyf.Dictionary) and op.get("MCID") in orphans and ops[i + 1] == b"BDC":
                ops[i - 1], ops[i] = "/Artifact", pydyf.Dictionary({"Type": "/Pagination"})
    for n, obj in enumerate(objects):
        if n not in reachable and isinstance(obj, pydyf.Dictionary) and obj.get("Type") == "/StructElem":
            obj.clear()


def _name_links(document) -> None:
    """Each link annotation's /Contents is the link's text (else its target); Print flag set."""
    import pydyf

    for page in document.pages:
        for _, target, _, box in page.links:
            annotation = getattr(box, "link_annotation", None)
            if annotation is None:
                continue
            text = " ".join("".join(box.element.itertext()).split()) if box.element is not None else ""
            annotation["Contents"] = pydyf.String(text or str(target))
            annotation["F"] = 4


def _scope_headers(objects: list, reachable: set[int]) -> None:
    """Each TH's /Scope: /Row when a data cell of its own row names it in /Headers, else /Column."""
    for n in sorted(reachable):
        row = objects[n]
        if row.get("S") != "/TR":
            continue
        cells = [objects[_ref(k)] for k in row.get("K", []) if isinstance(k, bytes)]
        named = {id(h) for c in cells if c.get("S") == "/TD" for h in c.get("A", {}).get("Headers", [])}
        for cell in cells:
            if cell.get("S") == "/TH" and "A" in cell:
                cell["A"]["Scope"] = "/Row" if id(cell.get("ID")) in named else "/Column"


FORMATS = ("html", "pdf")


def render(executed: Path, out_base: Path, formats: tuple[str, ...] = FORMATS) -> list[Path]:
    """Write ``out_base``.html and/or ``out_base``.pdf (``formats``) from the executed notebook
    ``executed``; returns the paths written, in the order of ``formats``.

    Raises FileNotFoundError for a missing notebook, ValueError for an unknown format and
    SystemLibraryError when pango is missing (PDF only).
    """
    unknown = set(formats) - set(FORMATS)
    if unknown:
        raise ValueError(f"unknown format(s) {', '.join(sorted(unknown))}; formats: {', '.join(FORMATS)}")
    if "pdf" in formats:
        check_pdf_dependencies()
    nb = nbformat.read(executed, as_version=4)
    out_base = Path(out_base)
    out_base.parent.mkdir(parents=True, exist_ok=True)
    written = []
    for fmt in formats:
        path = out_base.with_suffix(f".{fmt}")
        if fmt == "html":
            files.write_bytes(to_html(nb).encode("utf-8"), path)
        else:
            files.write_bytes(pdf_bytes(print_document(nb), str(out_base.parent)), path)
        written.append(path)
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
    except (SystemLibraryError, FileNotFoundError, ValueError) as exc:
        print(f"render: {exc}", file=sys.stderr)
        return 1
    print("wrote " + " and ".join(f"{p} ({p.stat().st_size / 1e6:.1f} MB)" for p in paths))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
