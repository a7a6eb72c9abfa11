"""The PDF route (``publish.pdf``): Chromium's print of a small page, finished for PDF/UA-1, and
the contents' pages cache. Skipped without Chromium (``make check-system`` says how to install it)."""

import pytest

from vdi_report.publish import render, system

SMALL = """<!DOCTYPE html><html lang="en"><head><title>Small</title>
<meta name="dcterms.created" content="2026-11-27"><style>
@page { size: A6; margin: 10mm; @bottom-center { content: "Small · page " counter(page) " of " counter(pages) } }
td { border: 1px solid black; }
</style></head><body><h1 id="top">Small</h1><p>See <a href="#t">the table</a>.</p>
<nav class="vdi-toc"><ol><li><a href="#top">Small</a><span class="vdi-toc-page" data-target="top">0</span></li>
<li><a href="#t">Table</a><span class="vdi-toc-page" data-target="t">0</span></li></ol></nav>
<ul><li>one point</li><li>another</li></ul>
<div class="vdi-svg"><svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><title>Bar chart: two bars</title>
<rect width="10" height="20"/><text x="1" y="10">a</text></svg></div>
<table id="t" style="break-before: page"><thead><tr><th>Vendor</th><th>IOPS</th><th>Note</th></tr></thead>
<tbody><tr><th scope="row">NetApp</th><td>12</td><td></td></tr></tbody></table></body></html>"""


def _struct(node, out):
    node = node.get_object()
    if isinstance(node, dict):
        if "/S" in node:
            out.append(node)
        kids = node.get("/K")
        for k in kids if isinstance(kids, list) else [] if kids is None else [kids]:
            _struct(k, out)
    return out


@pytest.mark.skipif(system.chromium_path() is None, reason=system.CHROMIUM_HINT)
def test_chromium_print_is_finished_for_pdf_ua():
    """Chromium's print of a small page, finished (publish.pdf): the footer text is a pagination
    artifact and every marked-content id is in the structure tree; the link's /Contents is its
    text with the Print flag; the chart is one Figure whose /Alt is the SVG's <title>; the empty
    cell is an empty TD, so both rows have three cells; each list item has an LBody; Strong-like
    types have a role map; the contents carry the targets' real pages (the table starts page 2);
    the XMP names PDF/UA-1 and the title; the bytes do not vary."""
    import io
    import re

    from pypdf import PdfReader

    data = render.pdf_bytes(SMALL)
    assert data == render.pdf_bytes(SMALL)
    pdf = PdfReader(io.BytesIO(data))
    assert len(pdf.pages) == 2
    elements = _struct(pdf.trailer["/Root"]["/StructTreeRoot"], [])
    by_role = {}
    for e in elements:
        by_role.setdefault(str(e["/S"]), []).append(e)
    assert [str(f["/Alt"]) for f in by_role["/Figure"]] == ["Bar chart: two bars"]
    assert [len([k for k in tr["/K"] if str(k.get_object()["/S"]) in ("/TD", "/TH")]) for tr in by_role["/TR"]] == [
        3,
        3,
    ]
    assert len(by_role["/LBody"]) == len(by_role["/LI"]) == 4  # two in the contents, two in the list
    links = {str(a.get_object()["/Contents"]) for p in pdf.pages for a in p.get("/Annots", [])}
    assert {"the table", "Small", "Table"} <= links
    assert all(int(a.get_object()["/F"]) & 4 for p in pdf.pages for a in p.get("/Annots", []))
    first = pdf.pages[0].extract_text()
    assert re.search(r"Small\s*1\b", first) and re.search(r"Table\s*2\b", first), first
    xmp = pdf.trailer["/Root"]["/Metadata"].get_object().get_data().decode("utf-8")
    assert re.search(r'pdfuaid:part(="1"|[^>]*>1</pdfuaid:part>)', xmp)
    assert "Small" in xmp and "2026-11-27" in xmp
    in_tree = {e.indirect_reference.idnum for e in elements if e.indirect_reference}
    nums = pdf.trailer["/Root"]["/StructTreeRoot"]["/ParentTree"]["/Nums"]
    per_page = {int(nums[i]): nums[i + 1].get_object() for i in range(0, len(nums), 2)}
    for i, page in enumerate(pdf.pages):
        stream = page.get_contents().get_data()
        assert re.search(rb"/Artifact\s*<<\s*/Type\s*/Pagination\s*>>\s*BDC", stream)
        entry = per_page[int(page["/StructParents"])]
        for mcid in map(int, re.findall(rb"<<\s*/MCID\s+(\d+)\s*>>\s*BDC", stream)):
            assert entry[mcid] is not None and entry[mcid].idnum in in_tree, mcid
        assert f"Small · page {i + 1} of 2" in page.extract_text()


@pytest.mark.skipif(system.chromium_path() is None, reason=system.CHROMIUM_HINT)
def test_the_contents_pages_cache_saves_a_print_and_changes_no_byte(tmp_path, monkeypatch):
    """Without a cache, with a wrong one, an unreadable one and the right one (written by the
    first print), the PDF is the same; the cache holds each target's page; with the right
    cache Chromium prints once, otherwise twice. Without a guess the first print, which only
    finds the pages, is untagged; every print whose numbers may be final is tagged."""
    import json

    from playwright.sync_api import Page

    from vdi_report.publish import pdf

    prints = []
    real_pdf = Page.pdf
    monkeypatch.setattr(Page, "pdf", lambda self, **kw: prints.append(kw["tagged"]) or real_pdf(self, **kw))
    chromium, cache = system.chromium_path(), tmp_path / "pages.json"

    def run(content: str | None) -> tuple[bytes, list[bool]]:
        if content is not None:
            cache.write_text(content, encoding="utf-8")
        prints.clear()
        return pdf.pdf_bytes(SMALL, chromium, cache), list(prints)

    cold, n_cold = run(None)
    assert json.loads(cache.read_text(encoding="utf-8")) == {"top": 1, "t": 2}
    warm, n_warm = run(None)  # the cache the first print wrote
    wrong, n_wrong = run('{"top": 2, "t": 1}')
    broken, n_broken = run("not json")
    assert cold == warm == wrong == broken
    assert (n_cold, n_warm, n_wrong, n_broken) == ([False, True], [True], [True, True], [False, True])


@pytest.mark.skipif(system.chromium_path() is None, reason=system.CHROMIUM_HINT)
def test_structure_ids_are_numbered_in_tree_order_whatever_chromiums_counter(tmp_path):
    """Chromium names header cells by a counter of the page's nodes, which a frame painted between
    the page's load and its print advances: the finished PDF numbers them in the tree's order
    instead, in the elements, the cells' /Headers and the /IDTree, so one document gives one PDF."""
    import io

    import pikepdf

    from vdi_report.publish import pdf

    doc = pikepdf.open(io.BytesIO(pdf.pdf_bytes(SMALL, system.chromium_path())))
    elements = pdf.walk(doc).elements
    ids = [str(e["/ID"]) for e in elements if "/ID" in e]
    assert ids and ids == [f"node{i:08d}" for i in range(1, len(ids) + 1)]
    tree = pikepdf.NameTree(doc.Root.StructTreeRoot.IDTree)
    assert sorted(tree.keys()) == ids
    headers = {
        str(h)
        for e in elements
        for a in (e.get("/A") if isinstance(e.get("/A"), pikepdf.Array) else [e.get("/A")])
        if isinstance(a, pikepdf.Dictionary) and "/Headers" in a
        for h in a["/Headers"]
    }
    assert headers and headers <= set(ids)


@pytest.mark.skipif(system.chromium_path() is None, reason=system.CHROMIUM_HINT)
def test_the_finished_pages_cache_changes_no_byte_and_keeps_the_last_pdfs_pages(tmp_path, monkeypatch):
    """``finish`` with a content cache gives the bytes it gives without; a second finish of the
    same print rewrites no page (read back); a print of another page keeps only its own pages."""
    from vdi_report.publish import pdf

    chromium, cache = system.chromium_path(), tmp_path / "content"
    with pdf.Printer(chromium) as printer:
        raw, _ = printer.print(SMALL, [], None)
        other, _ = printer.print(SMALL.replace("one point", "one other point"), [], None)
    facts = pdf.print_facts(pdf.prepare(pdf.BeautifulSoup(SMALL, "html.parser")))
    plain = pdf.finish(raw, facts)
    assert pdf.finish(raw, facts, cache) == plain
    assert len(list(cache.iterdir())) == 2  # one per page
    rewrites = []
    real = pdf._instructions
    monkeypatch.setattr(pdf, "_instructions", lambda *a: rewrites.append(1) or real(*a))
    assert pdf.finish(raw, facts, cache) == plain and rewrites == []
    kept = set(cache.iterdir())
    pdf.finish(other, facts, cache)
    assert rewrites == [1]  # the page with the list changed, the table's page did not
    assert len(list(cache.iterdir())) == 2 and len(kept & set(cache.iterdir())) == 1
