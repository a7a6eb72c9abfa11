"""Layout of the PDF, measured on WeasyPrint's own layout of the print HTML: no table, cell,
line or chart past the right margin; no page less than MOSTLY_FULL full except the last page of
a chapter (the next page starts a chapter) and the last page (a page half blank before a figure
was issue 20's first layout defect); no heading or caption as the last line of a page; no chart
text under 8 pt at print size; no table cell of more than MAX_CELL_LINES lines in the tables that
compare arrays or phases (the long-text tables of the audit and the appendix excepted)."""

import nbformat
import pytest

from vdi_report import config
from vdi_report.publish import render

MIN_FILL = 0.6  # a page less full is allowed only before a chapter (or an element on a new page)
MAX_CELL_LINES = 8
DENSITY_CELL_LINES = 5
# tables of quoted text and register entries, whose cells are paragraphs by design
LONG_TEXT_TABLES = {
    "T_audit-findings",
    "T_audit-notes",
    "T_register-aside",
    "T_audit-rules",
    "T_claims-verdicts",
    "T_audit-facts",
    "T_register-full",
    "T_claims-full",
    "T_answers-claims",
    "T_sensitivity-choices",
    "T_cost-assumptions",
    "T_cost-readings",
    "T_model-exclusions",
}
SVG = "{http://www.w3.org/2000/svg}svg"


@pytest.fixture(scope="module")
def whole():
    """WeasyPrint's layout of the whole print document at once (the build lays it out in pieces)."""
    import weasyprint

    nb = nbformat.read(config.REPORTS_DIR / "notebooks" / "10_report.ipynb", as_version=4)
    return weasyprint.HTML(string=render.to_html(nb, for_pdf=True), base_url=str(config.REPORTS_DIR)).render()


@pytest.fixture(scope="module")
def layout(whole):
    from weasyprint.formatting_structure import boxes

    doc = whole
    out = []
    for page in doc.pages:
        pb = page._page_box
        _left, right = pb.margin_left, pb.margin_width() - pb.margin_right
        top, bottom = pb.margin_top, pb.margin_height() - pb.margin_bottom
        lowest, past, starts_chapter = top, [], False
        for b in pb.descendants():
            tag = getattr(b, "element_tag", "")
            new_page = tag == "h1" or "vdi-new-page" in (
                getattr(b, "element", None) is not None and b.element.get("class") or ""
            )
            if new_page and isinstance(b, boxes.BlockBox):
                starts_chapter = starts_chapter or b.position_y - top < 0.2 * (bottom - top)
            if isinstance(b, (boxes.LineBox, boxes.TableBox, boxes.TableCellBox, boxes.ReplacedBox)) or tag == SVG:
                if b.position_y < bottom:
                    lowest = max(lowest, b.position_y + b.margin_height())
                edge = b.position_x + b.margin_width()
                if edge > right + 1 and not isinstance(b, boxes.LineBox):
                    past.append(f"{tag} ends {edge - right:.0f}px past the margin")
        out.append({"fill": (lowest - top) / (bottom - top), "past": past, "chapter": starts_chapter})
    # "chapter": the page starts a chapter or another element that starts a new page (the colophon)
    return out


def test_nothing_runs_past_the_right_margin(layout):
    bad = {i + 1: p["past"][:3] for i, p in enumerate(layout) if p["past"]}
    assert bad == {}


def test_no_page_is_mostly_blank_except_before_a_chapter(layout):
    bad = [
        f"page {i + 1}: {p['fill']:.0%} full"
        for i, p in enumerate(layout[:-1])
        if p["fill"] < MIN_FILL and not layout[i + 1]["chapter"]
    ]
    assert bad == [], f"pages less than {MIN_FILL:.0%} full that do not end a chapter: {bad}"


def test_every_chapter_starts_a_page(layout):
    from vdi_report.report.sections import SECTION_ORDER

    new_page = nbformat.read(config.REPORTS_DIR / "notebooks" / "10_report.ipynb", as_version=4)
    n_new_page = sum(
        str(o.get("data", {}).get("text/markdown", "")).count('class="vdi-new-page"')
        for c in new_page.cells
        for o in c.get("outputs", [])
    )
    # answers on page 1, the other chapters and each vdi-new-page element (the colophon) on new pages
    assert sum(p["chapter"] for p in layout) == len(SECTION_ORDER) + n_new_page


def test_built_pdf_is_the_whole_document_page_for_page(whole, report_pdf):
    """The report's PDF has the pages of WeasyPrint's layout of the whole print document: the
    same text on every page, footer and contents numbers included, and the same link targets."""
    import io

    import pypdf

    ours, theirs = pypdf.PdfReader(report_pdf), pypdf.PdfReader(io.BytesIO(whole.write_pdf()))
    assert len(ours.pages) == len(theirs.pages)
    differ = [
        i + 1
        for i, (a, b) in enumerate(zip(ours.pages, theirs.pages, strict=True))
        if a.extract_text() != b.extract_text()
    ]
    assert differ == [], f"pages whose text differs from the whole document's: {differ}"

    def targets(r):
        named = r.named_destinations
        return [
            r.get_destination_page_number(named[d])
            if isinstance(d := a.get_object()["/Dest"], str)
            else r.get_page_number(d[0].get_object())
            for p in r.pages
            for a in p.get("/Annots") or []
        ]

    assert targets(ours) == targets(theirs) and targets(ours)


def _walk(box, ancestors=()):
    yield box, ancestors
    for child in getattr(box, "children", ()):
        yield from _walk(child, (*ancestors, box))


def _kind(ancestors) -> str | None:
    """ "h1".."h4", "caption" (a table's or a figure's) or None, for a line's ancestors."""
    for a in reversed(ancestors):
        tag = getattr(a, "element_tag", "")
        if tag in ("h1", "h2", "h3", "h4", "caption"):
            return tag
        el = getattr(a, "element", None)
        if el is not None and "vdi-caption" in (el.get("class") or ""):
            return "figure caption"
    return None


@pytest.fixture(scope="module")
def last_lines(whole):
    """Per page: (kind, text) of the lowest text line (``_kind``)."""
    from weasyprint.formatting_structure import boxes

    out = []
    for page in whole.pages:
        lowest, found = -1.0, (None, "")
        for b, anc in _walk(page._page_box):
            if isinstance(b, boxes.LineBox) and b.position_y + b.height >= lowest:
                if any(getattr(a, "element_tag", "") == "body" for a in anc):
                    text = "".join(t.text for t in b.descendants() if isinstance(t, boxes.TextBox)).strip()
                    chart = any(isinstance(d, boxes.ReplacedBox) for d in b.descendants())
                    if text or chart:
                        lowest, found = b.position_y + b.height, (_kind(anc), text or "(chart)")
        out.append(found)
    return out


def test_no_heading_or_caption_is_the_last_line_of_a_page(last_lines):
    bad = [f"page {i + 1}: {kind} {text!r}" for i, (kind, text) in enumerate(last_lines) if kind]
    assert bad == []


def test_no_table_is_left_as_its_caption_and_header_at_a_page_foot(whole):
    """A table that starts on a page has at least one body row there (or starts on the next)."""
    from weasyprint.formatting_structure import boxes

    bad = []
    for i, page in enumerate(whole.pages):
        for b, _anc in _walk(page._page_box):
            if isinstance(b, boxes.TableBox) and b.element is not None and b.element.get("id"):
                rows = [r for g in b.children if getattr(g, "element_tag", "") == "tbody" for r in g.children]
                if not rows:
                    bad.append(f"page {i + 1}: {b.element.get('id')}")
    assert bad == []


def test_chart_text_is_at_least_8_pt_in_print(whole):
    """Every chart's SVG as drawn in the PDF: its smallest font size x (drawn width / SVG width)
    in pt (0.75 pt per CSS px) is at least 8 (issue 20: tick labels were 6 pt in two figures)."""
    import re

    from weasyprint.formatting_structure import boxes

    found, small = 0, []
    for i, page in enumerate(whole.pages):
        for b in page._page_box.descendants():
            if isinstance(b, boxes.ReplacedBox) and getattr(b, "element_tag", "") == SVG:
                el = b.element
                sizes = [float(m) for e in el.iter() for m in re.findall(r"([\d.]+)", e.get("font-size", "") or "")]
                scale = b.width / float(el.get("width"))
                found += 1
                if sizes and min(sizes) * scale * 0.75 < 8:
                    small.append(f"page {i + 1}: {min(sizes) * scale * 0.75:.1f} pt")
    assert found >= 5 and small == []


def _cells(whole):
    """(page number, table id, cell box) of every table cell laid out."""
    from weasyprint.formatting_structure import boxes

    for i, page in enumerate(whole.pages):
        for b, anc in _walk(page._page_box):
            if isinstance(b, boxes.TableCellBox):
                table = next((a for a in reversed(anc) if isinstance(a, boxes.TableBox)), None)
                tid = table.element.get("id") if table is not None and table.element is not None else None
                yield i + 1, tid, b


def test_no_word_in_a_table_is_broken_between_two_letters(whole):
    """A narrow column must not split a word ("knowledg|e", "Latenc|y"): a line of a cell ending
    in a letter and the next starting with one, where the two halves make one word of the cell
    (file names and identifiers, with ``_``, ``.`` or ``/``, may break anywhere)."""
    from weasyprint.formatting_structure import boxes

    broken = []
    for page, tid, cell in _cells(whole):
        if cell.element is None:
            continue
        words = set("".join(cell.element.itertext()).split())
        lines = [
            "".join(t.text for t in line.descendants() if isinstance(t, boxes.TextBox)).strip()
            for line in cell.descendants()
            if isinstance(line, boxes.LineBox)
        ]
        lines = [t for t in lines if t]
        for a, b in zip(lines, lines[1:]):
            left, right = a.split()[-1], b.split()[0]
            word = left + right
            if left[-1].isalpha() and right[0].isalpha() and word in words and not set("_./") & set(word):
                broken.append(f"page {page} {tid}: {left}|{right}")
    assert broken == []


def test_tables_that_compare_arrays_keep_cells_short(whole):
    """No cell of more than MAX_CELL_LINES lines outside LONG_TEXT_TABLES (issue 20: the density
    table put nine columns in portrait with cells of 10-15 lines)."""
    from weasyprint.formatting_structure import boxes

    tall = {}
    for page, tid, cell in _cells(whole):
        if tid in LONG_TEXT_TABLES:
            continue
        n = sum(1 for d in cell.descendants() if isinstance(d, boxes.LineBox))
        if n > MAX_CELL_LINES:
            tall.setdefault(tid, []).append(f"page {page}: {n} lines")
    assert tall == {}


def test_the_density_table_is_short_cells_in_portrait(whole):
    """The density table (issue 20's "Table 18": nine columns, cells of 10-15 lines) has at most
    seven columns and no cell over DENSITY_CELL_LINES lines."""
    from weasyprint.formatting_structure import boxes

    cells = [(page, cell) for page, tid, cell in _cells(whole) if tid == "T_density"]
    assert cells, "no density table in the PDF"
    heads = [c for _, c in cells if getattr(c, "element_tag", "") == "th"]
    assert len({"".join(c.element.itertext()) for c in heads}) <= 7
    lines = [sum(1 for d in c.descendants() if isinstance(d, boxes.LineBox)) for _, c in cells]
    assert max(lines) <= DENSITY_CELL_LINES
