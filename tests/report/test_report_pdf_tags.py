"""The PDF is tagged for screen readers (PDF/UA-1 by WeasyPrint) and WeasyPrint itself numbers
its contents, bookmarks and footers (issue 20): a structure tree with headings, tables and
captions in reading order, the document language, the title shown instead of the file name,
the PDF/UA identification in the XMP metadata, bookmarks for every chapter, printed contents
numbers that are the chapters' real pages, and "page N of M" footers."""

import re

import pytest
from pypdf import PdfReader


@pytest.fixture(scope="module")
def pdf(report_pdf):
    return PdfReader(report_pdf)


def _roles(node, out):
    node = node.get_object()
    if isinstance(node, dict):
        if "/S" in node:
            out.append(str(node["/S"]))
        kids = node.get("/K")
        for k in kids if isinstance(kids, list) else [kids] if kids is not None else []:
            _roles(k, out)
    return out


def test_pdf_is_tagged_pdf_ua(pdf):
    root = pdf.trailer["/Root"]
    assert bool(root["/MarkInfo"]["/Marked"])
    assert str(root["/Lang"]) == "en"
    assert bool(root["/ViewerPreferences"]["/DisplayDocTitle"])
    xmp = root["/Metadata"].get_object().get_data().decode("utf-8")
    assert 'pdfuaid:part="1"' in xmp
    roles = _roles(root["/StructTreeRoot"], [])
    for role in ("/H1", "/H2", "/P", "/Table", "/TH", "/TD", "/Caption", "/L", "/Link"):
        assert role in roles, f"no {role} in the structure tree"
    assert roles.count("/H1") >= 5


def test_bookmarks_contents_numbers_and_footers_are_weasyprints(pdf):
    chapters = [o for o in pdf.outline if not isinstance(o, list)]
    assert len(chapters) >= 5
    pages = {o.title: pdf.get_destination_page_number(o) + 1 for o in chapters}
    n = len(pdf.pages)
    contents = " ".join(pdf.pages[i].extract_text() for i in range(min(3, n)))
    for title, page in pages.items():
        if title == "Answers":  # page 1 holds the contents itself
            continue
        m = re.search(rf"{re.escape(title)}\s*\.*\s*(\d+)", contents)
        assert m and int(m.group(1)) == page, (title, page)
    for i in (1, n - 1):
        assert f"page {i + 1} of {n}" in pdf.pages[i].extract_text()
