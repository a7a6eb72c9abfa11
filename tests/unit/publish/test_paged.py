"""The PDF laid out in pieces (``vdi_report.publish.paged``) is the PDF of the whole document: same pages,
same text, same page numbers, links and bookmarks; a piece whose HTML did not change is not laid
out again, and the bytes do not depend on what the cache holds."""

import io

import pypdf
import pytest
import weasyprint

from vdi_report.publish import paged, render


def _doc(chapters: dict[str, str], colophon: str = "Built from nothing.") -> str:
    css = "".join((render.TEMPLATE_DIR / f).read_text(encoding="utf-8") for f in ("report.css", "print.css"))
    toc = "".join(f'<li class="vdi-toc-1"><a href="#{k}">{k.title()}</a></li>' for k in chapters)
    body = [
        '<header class="vdi-title"><h1 class="vdi-doc-title">Title</h1></header>',
        f'<nav class="vdi-toc"><ol>{toc}</ol></nav>',
    ]
    for key, text in chapters.items():
        body.append(f'<h1 id="{key}">{key.title()}</h1><h2 id="{key}-s">Section of {key}</h2>')
        body += [f"<p>{text} paragraph {i}.</p>" for i in range(60)]
    body.append('<p>See <a href="#colophon">the colophon</a> and <a href="#first">the first chapter</a>.</p>')
    body.append(f'<h2 id="colophon" class="vdi-new-page">Colophon</h2><p>{colophon}</p>')
    return (
        f"<!DOCTYPE html><html><head><title>T</title><style>{css}</style></head><body>"
        f'<main id="report">{"".join(body)}</main></body></html>'
    )


CHAPTERS = {"first": "Alpha", "second": "Beta", "third": "Gamma"}


def _pages(pdf: bytes) -> list[str]:
    return [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def _links(pdf: bytes) -> list[tuple[int, int]]:
    """(page of the link, page of its target) for every internal link."""
    r = pypdf.PdfReader(io.BytesIO(pdf))
    named, out = r.named_destinations, []
    for i, page in enumerate(r.pages):
        for a in page.get("/Annots") or []:
            dest = a.get_object()["/Dest"]
            target = (
                r.get_destination_page_number(named[dest])
                if isinstance(dest, str)
                else r.get_page_number(dest[0].get_object())
            )
            out.append((i, target))
    return out


def _outline(pdf: bytes) -> list:
    r = pypdf.PdfReader(io.BytesIO(pdf))

    def walk(items):
        return [walk(x) if isinstance(x, list) else (x.title, r.get_destination_page_number(x)) for x in items]

    return walk(r.outline)


def test_split_cuts_at_chapters_after_the_first_and_at_new_page_elements():
    _, _, pieces = paged.split(_doc(CHAPTERS))
    firsts = [next(el for el in p.elements if getattr(el, "name", None)) for p in pieces]
    assert [el.name for el in firsts] == ["header", "h1", "h1", "h2"]
    assert "first" in pieces[0].ids and "colophon" in pieces[3].ids


def test_split_names_html_that_is_not_a_report():
    with pytest.raises(ValueError, match="<main>"):
        paged.split("<html><body><p>no main</p></body></html>")


def test_pieces_give_the_whole_documents_pages_links_and_bookmarks():
    html = _doc(CHAPTERS)
    whole = weasyprint.HTML(string=html).write_pdf()
    pieced = paged.write_pdf(html, ".")
    assert _pages(pieced) == _pages(whole)  # text, running footer and contents numbers included
    assert "page 2 of" in _pages(pieced)[1] and "page 1 of" not in _pages(pieced)[0]
    assert _links(pieced) == _links(whole)
    assert len({t for _, t in _links(pieced)}) == 4  # contents to chapters 1-3, the text to the colophon
    assert _outline(pieced) == _outline(whole)


def test_unchanged_pieces_come_from_the_cache_and_the_bytes_do_not_depend_on_it(tmp_path, monkeypatch):
    cache = tmp_path / "pieces"
    fresh = paged.write_pdf(_doc(CHAPTERS), ".", cache_dir=cache)
    laid_out = []
    real = paged._layout
    monkeypatch.setattr(paged, "_layout", lambda html, base: laid_out.append(html) or real(html, base))
    assert paged.write_pdf(_doc(CHAPTERS), ".", cache_dir=cache) == fresh and laid_out == []
    changed = _doc(CHAPTERS, colophon="Built from something else.")
    again = paged.write_pdf(changed, ".", cache_dir=cache)
    assert len(laid_out) == 1 and "something else" in laid_out[0]  # the colophon's piece alone
    assert again == paged.write_pdf(changed, ".")  # same bytes as without any cache
    assert len(list(cache.glob("*.pdf"))) == 5  # four pieces and the footer; the old colophon pruned


def test_a_damaged_cache_entry_is_laid_out_again(tmp_path):
    cache = tmp_path / "pieces"
    fresh = paged.write_pdf(_doc(CHAPTERS), ".", cache_dir=cache)
    for meta in cache.glob("*.json"):
        meta.write_text("{not json", encoding="utf-8")  # e.g. a disk that filled up mid-write
    assert paged.write_pdf(_doc(CHAPTERS), ".", cache_dir=cache) == fresh
