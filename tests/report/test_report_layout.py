"""Layout of the PDF, measured on WeasyPrint's own layout of the print HTML: no table, cell,
line or chart past the right margin, and no page less than a third full except the last page
of a chapter (the next page starts a chapter) and the last page."""

import nbformat
import pytest

from vdi_report import config
from vdi_report.publish import render

MIN_FILL = 1 / 3


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
            if isinstance(b, (boxes.LineBox, boxes.TableBox, boxes.TableCellBox, boxes.ReplacedBox)) or tag == "svg":
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


def test_no_page_is_less_than_a_third_full_except_before_a_chapter(layout):
    bad = [i + 1 for i, p in enumerate(layout[:-1]) if p["fill"] < MIN_FILL and not layout[i + 1]["chapter"]]
    assert bad == [], f"pages less than a third full: {bad}"


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
