"""The PDF is tagged for screen readers (PDF/UA-1: Chromium's tags completed by ``publish.pdf``) and
numbers its contents, bookmarks and footers (issue 20): a structure tree with headings, tables and
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
    assert re.search(r'pdfuaid:part(="1"|[^>]*>1</pdfuaid:part>)', xmp)  # attribute or element
    title = re.search(r"<dc:title[^>]*>.*?<rdf:li[^>]*>([^<]+)</rdf:li>", xmp, re.DOTALL)
    assert title and title.group(1) == pdf.metadata.title and title.group(1).startswith("VDI storage")
    roles = _roles(root["/StructTreeRoot"], [])
    for role in ("/H1", "/H2", "/P", "/Table", "/TH", "/TD", "/Caption", "/L", "/Link"):
        assert role in roles, f"no {role} in the structure tree"
    assert roles.count("/H1") >= 5


def test_bookmarks_contents_numbers_and_footers_match_the_pages(pdf):
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


def _elements(pdf):
    """Every structure element reachable from the structure tree root, in reading order:
    (element, its role, its parent's role)."""
    out, todo = [], [(pdf.trailer["/Root"]["/StructTreeRoot"], None)]
    while todo:
        node, parent = todo.pop()
        node = node.get_object()
        if not isinstance(node, dict):
            continue
        role = str(node.get("/S", ""))
        if role:
            out.append((node, role, parent))
        kids = node.get("/K")
        kids = kids if isinstance(kids, list) else [] if kids is None else [kids]
        todo += [(k, role) for k in reversed(kids) if not isinstance(k, int)]
    return out


@pytest.fixture(scope="module")
def elements(pdf):
    return _elements(pdf)


def test_every_chart_is_a_figure_with_the_htmls_alt_text(pdf, elements, report_html):
    """Each chart is a Figure element holding the chart's marked content, with a non-empty /Alt
    that is the same text the HTML report gives screen readers (the chart's aria-label), and the
    texts differ from chart to chart (written from each chart's data, not a constant)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(report_html.read_text(encoding="utf-8"), "html.parser")
    labels = [d.get("aria-label", "") for d in soup.select("div.vdi-chart")]
    assert labels and all(labels), "a chart in the HTML has no aria-label"
    figures = [e for e, role, _ in elements if role == "/Figure"]
    assert len(figures) == len(labels), (len(figures), len(labels))
    alts = [str(f.get("/Alt", "")) for f in figures]
    assert alts == labels
    assert len(set(alts)) == len(alts)
    for f in figures:
        kids = f["/K"] if isinstance(f["/K"], list) else [f["/K"]]
        assert any(isinstance(k, int) for k in kids), "a Figure holds no marked content"


def test_running_footer_is_an_artifact(pdf, elements, pages):
    """Every marked-content id a page uses belongs to an element of the structure tree, and each
    page with a footer ("page N of M"; the cover has none) has a pagination artifact (Chromium
    leaves the margin boxes' text untagged)."""
    reachable = {id(e) for e, _, _ in elements}
    reached = {(e.indirect_reference.idnum if e.indirect_reference else None) for e, _, _ in elements}
    assert len(reached) == len(reachable)
    parent_tree = pdf.trailer["/Root"]["/StructTreeRoot"]["/ParentTree"]
    nums = parent_tree["/Nums"]
    per_page = {int(nums[i]): nums[i + 1] for i in range(0, len(nums), 2)}
    for i, page in enumerate(pdf.pages):
        data = page.get_contents().get_data()
        if f"page {i + 1} of {len(pdf.pages)}" in pages[i]:
            assert re.search(rb"/Artifact\s*<<\s*/Type\s*/Pagination\s*>>\s*BDC", data), (
                f"page {i + 1}: no pagination artifact"
            )
        entry = per_page[int(page["/StructParents"])].get_object()
        for mcid in map(int, re.findall(rb"<<\s*/MCID\s+(\d+)\s*>>\s*BDC", data)):
            ref = entry[mcid]
            assert ref is not None and ref.idnum in reached, f"page {i + 1}: MCID {mcid} is outside the tree"


def test_links_say_where_they_go_and_print(pdf):
    """Each link annotation's /Contents is the link's text, not an anchor id; its Print flag is
    set; the contents page's links name the chapters (the bookmarks' titles)."""
    contents = []
    for page in pdf.pages:
        for annot in page.get("/Annots", []):
            annot = annot.get_object()
            if annot["/Subtype"] != "/Link":
                continue
            text = str(annot.get("/Contents", ""))
            assert text and not re.fullmatch(r"(tab|fig|T)[-_][\w-]+", text), text
            assert int(annot.get("/F", 0)) & 4, text
            contents.append(text)
    chapters = {o.title for o in pdf.outline if not isinstance(o, list)}
    assert chapters <= set(contents), chapters - set(contents)


def test_table_headers_have_scope(elements):
    """Each TH has one /Scope, /Column or /Row (its attributes a dictionary or, as Chromium
    writes them, an array of attribute dictionaries)."""
    headers = [e for e, role, _ in elements if role == "/TH"]
    assert headers
    for h in headers:
        attrs = h.get("/A")
        attrs = [a.get_object() for a in (attrs if isinstance(attrs, list) else [attrs]) if a is not None]
        scopes = [str(a["/Scope"]) for a in attrs if "/Scope" in a]
        assert len(scopes) == 1 and scopes[0] in ("/Column", "/Row"), scopes
