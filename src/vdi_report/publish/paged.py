"""The PDF laid out in pieces, each piece's layout kept between builds (WeasyPrint + pypdf).

WeasyPrint lays out the whole 50-page report in about 5 s, yet a change of one report parameter
changes only a few chapters (the answers, the models' scenario and cost, the colophon). The
print HTML is therefore cut where a new page starts anyway, at every chapter heading (``h1``)
after the first and at every element of class ``vdi-new-page``, and each piece is laid out as a
document of its own. A piece's PDF is kept in ``build/pdf-pieces/<SHA-256 of its HTML>.pdf``;
a build lays out only the pieces whose HTML changed, then joins the pieces with pypdf and adds
what spans pieces:

- page numbers: the running footer (``@page`` in ``print.css``) is laid out once for the whole
  page count on otherwise empty, transparent pages and stamped over the joined pages; the
  pieces themselves are laid out without it;
- the printed contents (``nav.vdi-toc``, in the first piece): its links carry the page number
  of their target as ``data-page`` (``print.css`` prints it); the first piece is laid out again
  when its own page count moves the numbers;
- links between pieces: written as ``https://vdi-report.invalid/#<id>`` URIs by the piece and
  turned back into internal links to the named destination ``<id>`` after joining;
- bookmarks: built from the headings (``h1``–``h3``, the levels ``print.css`` gives), each at
  its anchor;
- metadata and the file identifier: the first piece's metadata (title, subject, keywords, the
  report date), an identifier derived from the HTML, so the same HTML gives the same bytes
  whether or not pieces came from the cache.

The joined PDF equals the whole document laid out at once page for page (the cuts are page
breaks in ``print.css``); fonts are embedded once per piece, so the file is larger.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
from dataclasses import dataclass
from pathlib import Path

from bs4 import BeautifulSoup, Tag

from .. import files

LINK_BASE = "https://vdi-report.invalid/#"  # a link to another piece, until the pieces are joined
NO_FOOTER = "<style>@page { @bottom-center { content: none; } }</style>"
STAMP_STYLE = (
    "<style>html, body { background: transparent !important; } "
    ".vdi-stamp-page { break-after: page; height: 1px; } .vdi-stamp-page:last-child "
    "{ break-after: auto; }</style>"
)
BOOKMARK_LEVELS = {"h1": 1, "h2": 2, "h3": 3}  # as print.css's bookmark-level
PT_PER_PX = 0.75  # CSS px to PDF points (96 px = 72 pt = 1 in)


@dataclass
class Piece:
    """One piece of the print HTML: its top-level elements, the ids they define, its layout."""

    elements: list
    ids: set
    html: str = ""
    pages: int = 0
    anchors: dict | None = None  # id -> [page index in the piece, x (pt), top (pt)]
    pdf: bytes = b""


def _is_cut(el, first_h1_seen: bool) -> bool:
    if not isinstance(el, Tag):
        return False
    if el.name == "h1" and first_h1_seen:
        return True
    return "vdi-new-page" in (el.get("class") or [])


def split(doc: str | BeautifulSoup) -> tuple[str, str, list[Piece]]:
    """Cut the print HTML of the report (a string, or parsed: it is taken apart) into pieces at
    page starts.

    Returns (prefix, suffix, pieces): every piece's document is prefix + its elements + suffix
    (the prefix ends with ``<main ...>``). Raises ValueError when the HTML has no ``<main>``.
    """
    soup = doc if isinstance(doc, BeautifulSoup) else BeautifulSoup(doc, "html.parser")
    main = soup.find("main")
    if main is None:
        raise ValueError("print HTML without a <main> element: not a report of the vdi_report template")
    pieces, current, h1_seen = [], [], False
    for el in list(main.children):
        if _is_cut(el, h1_seen) and current:
            pieces.append(current)
            current = []
        if isinstance(el, Tag) and el.name == "h1":
            h1_seen = True
        current.append(el)
    pieces.append(current)
    out = []
    for elements in pieces:
        ids = set()
        for el in elements:
            if isinstance(el, Tag):
                if el.get("id"):
                    ids.add(el["id"])
                ids.update(t["id"] for t in el.find_all(id=True))
        out.append(Piece(elements, ids))
    marker = "<!--vdi:piece-->"
    for el in list(main.children):
        el.extract()
    main.append(BeautifulSoup(marker, "html.parser"))
    prefix, suffix = str(soup).split(marker, 1)
    return prefix, suffix, out


def _link_outside(piece: Piece) -> None:
    """Links of ``piece`` to ids outside it become ``LINK_BASE`` URIs (WeasyPrint would drop them)."""
    for el in piece.elements:
        if not isinstance(el, Tag):
            continue
        for a in ([el] if el.name == "a" else []) + el.find_all("a", href=True):
            href = a.get("href", "")
            if href.startswith("#") and href[1:] not in piece.ids:
                a["href"] = LINK_BASE + href[1:]


def _piece_html(prefix: str, suffix: str, piece: Piece) -> str:
    """The piece's own document, without the running footer (stamped after joining)."""
    body = "".join(str(el) for el in piece.elements)
    return prefix.replace("</head>", NO_FOOTER + "</head>", 1) + body + suffix


def _layout(html: str, base_url: str) -> tuple[bytes, int, dict]:
    """WeasyPrint's PDF of ``html`` with its page count and anchors (id -> [page, x pt, top pt])."""
    import weasyprint

    doc = weasyprint.HTML(string=html, base_url=base_url).render()
    anchors = {}
    for i, page in enumerate(doc.pages):
        for name, (x, y, _, _) in page.anchors.items():
            anchors.setdefault(name, [i, round(x * PT_PER_PX, 3), round((page.height - y) * PT_PER_PX, 3)])
    return doc.write_pdf(), len(doc.pages), anchors


def _key(html: str, base_url: str) -> str:
    import weasyprint

    return hashlib.sha256(f"{weasyprint.__version__}\n{base_url}\n{html}".encode()).hexdigest()


def _cached_layout(html: str, base_url: str, cache_dir: Path | None, used: set) -> tuple[bytes, int, dict, bool]:
    """``_layout`` through the cache (the key is added to ``used``); the last value says whether
    it was laid out now."""
    key = _key(html, base_url)
    used.add(key)
    if cache_dir is not None:
        pdf_path, meta_path = cache_dir / f"{key}.pdf", cache_dir / f"{key}.json"
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            return pdf_path.read_bytes(), int(meta["pages"]), dict(meta["anchors"]), False
        except (OSError, ValueError, KeyError, TypeError):
            pass  # not cached, or a damaged entry: lay it out again
    pdf, pages, anchors = _layout(html, base_url)
    if cache_dir is not None:
        files.write_bytes(pdf, pdf_path)
        files.write_json({"pages": pages, "anchors": anchors}, meta_path)
    return pdf, pages, anchors, True


def _headings(pieces: list[Piece]) -> list[tuple[int, str, str, int]]:
    """(level, id, text, piece index) of the bookmarked headings, in document order."""
    out = []
    for k, piece in enumerate(pieces):
        for el in piece.elements:
            if not isinstance(el, Tag):
                continue
            for h in ([el] if el.name in BOOKMARK_LEVELS else []) + el.find_all(list(BOOKMARK_LEVELS)):
                if h.get("id") and not h.find_parent(class_="vdi-title") and "vdi-title" not in (el.get("class") or []):
                    out.append((BOOKMARK_LEVELS[h.name], h["id"], h.get_text(" ", strip=True), k))
    return out


def _number_contents(first: Piece, where: dict[str, int]) -> None:
    """Write each contents link's target page (1-based, whole document) into ``data-page``."""
    for el in first.elements:
        if isinstance(el, Tag):
            for a in el.select("nav.vdi-toc a[href]"):
                target = a["href"].removeprefix(LINK_BASE).removeprefix("#")
                if target in where:
                    a["data-page"] = str(where[target])


def _absolute(pieces: list[Piece]) -> dict[str, tuple[int, float, float]]:
    """Every anchor's (page index in the whole document, x pt, top pt)."""
    out, offset = {}, 0
    for piece in pieces:
        for name, (page, x, top) in (piece.anchors or {}).items():
            out.setdefault(name, (offset + page, x, top))
        offset += piece.pages
    return out


def write_pdf(doc: str | BeautifulSoup, base_url: str, cache_dir: Path | None = None, log=None) -> bytes:  # noqa: C901
    """The PDF of the report's print HTML ``doc`` (a string, or parsed: it is taken apart), laid
    out piece by piece (module docstring).

    ``cache_dir``: where piece layouts are kept (None: nothing kept; every piece is laid out);
    layouts this call did not use are removed from it. The PDF file identifier is derived from
    the pieces' HTML. ``log``: called with one line of progress. Raises ValueError for HTML
    without ``<main>``.
    """
    import pypdf
    from pypdf.generic import (
        ArrayObject,
        ByteStringObject,
        DictionaryObject,
        Fit,
        FloatObject,
        NameObject,
        NumberObject,
        TextStringObject,
    )

    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    prefix, suffix, pieces = split(doc)
    used: set = set()
    laid = 0
    for piece in pieces:
        _link_outside(piece)
    for piece in pieces[1:]:
        piece.html = _piece_html(prefix, suffix, piece)
        piece.pdf, piece.pages, piece.anchors, new = _cached_layout(piece.html, base_url, cache_dir, used)
        laid += new
    # The first piece holds the printed contents, whose numbers depend on the first piece's own
    # layout: number, lay out, and again until the numbers it was laid out with are its own.
    first = pieces[0]
    guess = cache_dir / "contents.json" if cache_dir is not None else None
    first.pages, first.anchors = 1, {}
    try:  # the last build's first piece: usually right (a wrong guess costs one more layout)
        last = json.loads(guess.read_text(encoding="utf-8")) if guess is not None else {}
        first.pages, first.anchors = int(last["pages"]), dict(last["anchors"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    for _ in range(5):
        _number_contents(first, {name: page + 1 for name, (page, _, _) in _absolute(pieces).items()})
        first.html = _piece_html(prefix, suffix, first)
        numbered = (first.pages, first.anchors)
        first.pdf, first.pages, first.anchors, new = _cached_layout(first.html, base_url, cache_dir, used)
        laid += new
        if (first.pages, first.anchors) == numbered:
            break
    if guess is not None:
        files.write_json({"pages": first.pages, "anchors": first.anchors}, guess)
    if log:
        log(f"PDF: {len(pieces)} pieces, {laid} layout(s) made, the rest from {cache_dir}")

    writer = pypdf.PdfWriter()
    readers = [pypdf.PdfReader(io.BytesIO(p.pdf)) for p in pieces]
    for reader in readers:  # pages only: the pieces' outlines and name trees are rebuilt below
        for page in reader.pages:
            writer.add_page(page)
    anchors = _absolute(pieces)
    # named destinations, as WeasyPrint writes them (the pieces' own links use them)
    names = ArrayObject()
    for name in sorted(anchors):
        page, x, top = anchors[name]
        names += [
            TextStringObject(name),
            ArrayObject(
                [
                    writer.pages[page].indirect_reference,
                    NameObject("/XYZ"),
                    FloatObject(x),
                    FloatObject(top),
                    NumberObject(0),
                ]
            ),
        ]
    writer.root_object[NameObject("/Names")] = DictionaryObject(
        {NameObject("/Dests"): DictionaryObject({NameObject("/Names"): names})}
    )
    # links between pieces become internal links again
    for page in writer.pages:
        for ref in page.get("/Annots") or []:
            annot = ref.get_object()
            action = annot.get("/A")
            uri = action.get_object().get("/URI") if action is not None else None
            if isinstance(uri, str) and uri.startswith(LINK_BASE):
                target, x, top = anchors[uri.removeprefix(LINK_BASE)]
                del annot[NameObject("/A")]
                annot[NameObject("/Dest")] = ArrayObject(
                    [
                        writer.pages[target].indirect_reference,
                        NameObject("/XYZ"),
                        FloatObject(x),
                        FloatObject(top),
                        NumberObject(0),
                    ]
                )
    # bookmarks, nested by heading level
    parents: dict[int, object] = {}
    for level, hid, text, _ in _headings(pieces):
        if hid in anchors:
            page, x, top = anchors[hid]
            parent = next((parents[lv] for lv in range(level - 1, 0, -1) if lv in parents), None)
            parents = {lv: item for lv, item in parents.items() if lv < level}
            parents[level] = writer.add_outline_item(
                title=text, page_number=page, parent=parent, fit=Fit.xyz(left=x, top=top, zoom=0)
            )
    # the running footer
    stamp = _stamp(prefix, len(writer.pages), base_url, cache_dir, used)
    for page, over in zip(writer.pages, stamp.pages, strict=True):
        page.merge_page(over)
        page.compress_content_streams()
    writer.add_metadata(dict(readers[0].metadata or {}))
    ident = hashlib.sha256("".join(p.html for p in pieces).encode("utf-8")).hexdigest()[:32].encode("ascii")
    writer._ID = ArrayObject([ByteStringObject(ident), ByteStringObject(ident)])  # no public setter in pypdf
    out = io.BytesIO()
    writer.write(out)
    if cache_dir is not None:
        for path in cache_dir.glob("*.*"):
            if len(path.stem) == 64 and path.stem not in used and path.suffix in (".pdf", ".json"):
                path.unlink(missing_ok=True)
    return out.getvalue()


def _stamp(prefix: str, pages: int, base_url: str, cache_dir: Path | None, used: set):
    """``pages`` empty, transparent pages carrying only the running footer of ``print.css``."""
    import pypdf

    head = prefix.split("<body", 1)[0]
    html = (
        head.replace("</head>", STAMP_STYLE + "</head>", 1)
        + "<body>"
        + ('<div class="vdi-stamp-page"></div>' * pages)
        + "</body></html>"
    )
    pdf, n, _, _ = _cached_layout(html, base_url, cache_dir, used)
    if n != pages:
        raise RuntimeError(f"the page-number stamp has {n} pages for a document of {pages}")
    return pypdf.PdfReader(io.BytesIO(pdf))
