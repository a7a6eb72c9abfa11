"""The tagged PDF (PDF/UA-1) of the report's print version, printed by headless Chromium.

Route (issue 27): the print HTML (``render.print_document``) is printed by the system Chromium
through Playwright (the same browser the browser tests drive; nothing downloads one) with a
structure tree (``tagged``) and bookmarks from the headings (``outline``). Chromium has no
``target-counter``, so the printed contents get their page numbers in a second print: the first
print's named destinations (Chromium names each link target by its HTML ``id``) give each
chapter's page, the numbers are written into the contents, and the document is printed again
(and again, at most ``MAX_PRINTS`` times, until the pages of the contents' targets stop moving).
Footers ("… page N of M") are ``print.css``'s ``@page`` margin boxes, which Chromium draws.

Chromium's tagging is then completed with pikepdf (``finish``), measured against the PDF/UA-1
checkers of ``tests/report/test_pdf_ua.py``:
- content the structure tree does not reach becomes an artifact: Chromium tags everything the
  page's accessibility tree holds, so what it leaves untagged is page furniture: text in the
  page margin boxes (the running footer: a pagination artifact) and the paint of backgrounds,
  borders and rules (a layout artifact);
- structure types that are not standard PDF 1.7 types (``Strong``, ``Em``) get a role map;
- a list item's body is an ``LBody`` (Chromium puts it directly in the ``LI``);
- each link annotation's ``/Contents`` names the link (its text in the HTML);
- the XMP metadata (``dc:title``, ``pdfuaid:part``, the dates) and the document information,
  with the dates from the page's ``dcterms`` metadata and a file identifier derived from the
  content, so the same HTML gives the same bytes.

Measured (72 pages, 2 cores; ``python -m vdi_report.publish.render --pdf``): about 10 s in all
(the print document 2.2 s, Chromium's start and page 1.7 s, each print 1.4 s, the finishing
1.7 s), against about 31 s for WeasyPrint's layout of the same HTML (the route until 0.2.x). A
rebuild whose chapters stay on their pages prints once (``pdf_bytes``' ``pages_cache``).
"""

from __future__ import annotations

import io
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pikepdf
from bs4 import BeautifulSoup

from .. import config, files

PRINT_OPTIONS = {"tagged": True, "outline": True, "prefer_css_page_size": True, "print_background": True}
MAX_PRINTS = 4
# The standard structure types of PDF 1.7 (ISO 32000-1, 14.8.4); others need a /RoleMap entry.
STANDARD_TYPES = frozenset(
    "Document Part Art Sect Div BlockQuote Caption TOC TOCI Index NonStruct Private P H H1 H2 H3 H4 H5 H6 "
    "L LI Lbl LBody Table TR TH TD THead TBody TFoot Span Quote Note Reference BibEntry Code Link Annot "
    "Ruby RB RT RP Warichu WT WP Figure Formula Form".split()
)
ROLE_MAP = {"Strong": "Span", "Em": "Span", "Mark": "Span", "Abbr": "Span"}
# Content-stream operators (ISO 32000-1, tables 51, 59, 107, 109): a path is built, then painted
# (or ended with "n", e.g. a clip); text is shown; an XObject, shading or inline image is painted.
PATH_BUILD = frozenset({"m", "l", "c", "v", "y", "h", "re"})
PATH_CLIP = frozenset({"W", "W*"})
PATH_PAINT = frozenset({"S", "s", "f", "F", "f*", "B", "B*", "b", "b*"})
TEXT_SHOW = frozenset({"Tj", "TJ", "'", '"'})
OTHER_PAINT = frozenset({"Do", "sh", "INLINE IMAGE"})
# SVG shapes whose group opacity equals their fill and stroke opacity (``prepare``)
SHAPES = ["path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text"]
PAGINATION = pikepdf.Dictionary(Type=pikepdf.Name.Pagination)
LAYOUT = pikepdf.Dictionary(Type=pikepdf.Name.Layout)


class PrintError(RuntimeError):
    """Chromium could not print the report, or its page numbers did not settle."""


def contents_targets(soup: BeautifulSoup) -> list[str]:
    """The ids the printed contents give page numbers for (``span.vdi-toc-page[data-target]``)."""
    return [s["data-target"] for s in soup.select("nav.vdi-toc span.vdi-toc-page[data-target]")]


def destination_pages(pdf: bytes, names: list[str]) -> dict[str, int]:
    """{name: 1-based page number} of the named destinations ``names`` in a Chromium PDF.

    Raises PrintError naming any destination the PDF lacks (a contents entry whose target was
    not printed)."""
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        dests = doc.Root.get("/Dests", pikepdf.Dictionary())
        index = {page.objgen: i + 1 for i, page in enumerate(doc.pages)}
        out, missing = {}, []
        for name in names:
            dest = dests.get("/" + name)
            if dest is None:
                missing.append(name)
                continue
            dest = dest.get("/D", dest) if isinstance(dest, pikepdf.Dictionary) else dest
            out[name] = index[dest[0].objgen]
    if missing:
        raise PrintError(f"the printed contents point to {', '.join(missing)}, which the PDF does not hold")
    return out


# writes the pages into the contents in the print page; returns how many numbers changed
FILL_NUMBERS = (config.STATIC_DIR / "contents_pages.js").read_text(encoding="utf-8")


class Printer:
    """A headless Chromium opened in a thread of its own, so that it starts while the caller
    makes the print document: ``with Printer(chromium) as printer: printer.print(html, ...)``.

    Opening Playwright's driver, the browser and a page takes about 1.1 s, the print document
    about 1 s (``render.render`` overlaps them). Every Playwright call runs in that one thread
    (its sync API stays in the thread that started it); an error raised there reaches the caller
    of ``print`` or of the ``with`` block's end as PrintError, naming ``chromium``."""

    def __init__(self, chromium: str):
        from concurrent.futures import ThreadPoolExecutor

        self.chromium = chromium
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="chromium")
        self._playwright = self._browser = self._page = None
        self._opened = self._thread.submit(self._call, self._open)

    def __enter__(self) -> Printer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _call(self, fn, *args):
        """``fn(*args)`` with Playwright's errors as PrintError (its first line: the rest is its call log)."""
        from playwright.sync_api import Error

        try:
            return fn(*args)
        except Error as err:
            reason = (str(err).strip().splitlines() or ["no reason given"])[0]
            raise PrintError(
                f"Chromium ({self.chromium}) could not print the report: {reason} "
                f"(does `{self.chromium} --version` run? VDI_CHROMIUM names another Chromium)"
            ) from None

    def _open(self) -> None:
        from playwright.sync_api import sync_playwright

        self._playwright = sync_playwright().start()
        self._browser = self._playwright.chromium.launch(executable_path=self.chromium)
        self._page = self._browser.new_page()

    def _print(self, html: str, targets: list[str], guess: dict[str, int] | None) -> tuple[bytes, dict[str, int]]:
        """(the PDF, {target: page}) of ``print_pdf``. Without a guess for every target the first
        print only finds the pages, so it is printed without tags (the same layout, the same
        destinations: 0.7 s against 1.35 s for the 71 pages, measured); the print returned is
        always a tagged one."""
        page = self._page
        page.set_content(html, wait_until="load")
        guessed = bool(targets and guess and set(targets) <= set(guess))
        if guessed:
            page.evaluate(FILL_NUMBERS, {t: guess[t] for t in targets})
        tagged = guessed or not targets
        for _ in range(MAX_PRINTS):
            pdf = page.pdf(**{**PRINT_OPTIONS, "tagged": tagged})
            pages = destination_pages(pdf, targets) if targets else {}
            moved = bool(targets) and page.evaluate(FILL_NUMBERS, pages)
            if tagged and not moved:
                return pdf, pages
            tagged = True
        raise PrintError(f"the contents' page numbers still moved after {MAX_PRINTS} prints")

    def submit(self, html: str, targets: list[str], guess: dict[str, int] | None = None, last: bool = False):
        """Start ``print`` in the browser's thread and return at once: a ``Future`` of (the PDF,
        {target: page}) whose ``result()`` raises PrintError (``render`` makes the HTML report
        meanwhile). ``last``: no other print follows, so the browser closes in its thread as
        soon as this one is done, while the caller finishes the PDF (0.2 s, measured); ``close``
        then only waits for that."""
        from concurrent.futures import Future

        done: Future = Future()

        def run() -> None:
            try:
                self._opened.result()
                done.set_result(self._call(self._print, html, targets, guess))
            except BaseException as exc:  # noqa: BLE001 - handed to the caller of result()
                done.set_exception(exc)
            if last:
                self._close_browser()

        self._thread.submit(run)
        return done

    def print(self, html: str, targets: list[str], guess: dict[str, int] | None = None) -> tuple[bytes, dict[str, int]]:
        """Chromium's tagged PDF of ``html`` with the printed contents numbered (``print_pdf``).
        Raises PrintError."""
        return self.submit(html, targets, guess).result()

    def _close_browser(self) -> None:
        """Close the browser and Playwright's driver (in the browser's thread); idempotent."""
        try:
            if self._browser is not None:
                self._browser.close()
        finally:
            if self._playwright is not None:
                self._playwright.stop()
            self._playwright = self._browser = self._page = None

    def close(self) -> None:
        """Close the browser and Playwright's driver (also when opening failed); idempotent."""
        try:
            self._thread.submit(self._close_browser).result()
        finally:
            self._thread.shutdown()


def print_pdf(
    html: str, targets: list[str], chromium: str | Printer, guess: dict[str, int] | None = None
) -> tuple[bytes, dict[str, int]]:
    """Chromium's tagged PDF of ``html`` with the printed contents numbered: print, write each
    target's page into its ``span.vdi-toc-page``, print again until no number changes. Returns
    (the PDF, {target: 1-based page}). ``chromium``: the browser's path, or an open ``Printer``.

    ``guess`` ({target: page}, e.g. the previous build's) is written in before the first print:
    when it is right, one print suffices. The PDF does not depend on it: the print returned is
    always of the page with each number equal to its target's page in that very print.

    Raises PrintError when the numbers do not settle within MAX_PRINTS prints, or when Chromium
    fails (its message included)."""
    if isinstance(chromium, Printer):
        return chromium.print(html, targets, guess)
    with Printer(chromium) as printer:
        return printer.print(html, targets, guess)


def _instructions(ops, tagged_forms: set[str] = frozenset()) -> list:
    """``ops`` (pikepdf content-stream instructions) with everything painted outside marked
    content wrapped as an artifact: text as a pagination artifact (the margin boxes' text, the
    only text Chromium does not tag), paths, XObjects, shadings and images as layout artifacts.
    A path is wrapped from its first construction operator to its painting operator (marked
    content may not interrupt a path object); a path ended by ``n`` (a clip) is not content. A
    form in ``tagged_forms`` (names of form XObjects holding tagged content) is left as it is."""
    out, depth, path = [], 0, []

    def wrap(kind, items):
        out.append(pikepdf.ContentStreamInstruction([pikepdf.Name.Artifact, kind], pikepdf.Operator("BDC")))
        out.extend(items)
        out.append(pikepdf.ContentStreamInstruction([], pikepdf.Operator("EMC")))

    for ins in ops:
        op = "INLINE IMAGE" if isinstance(ins, pikepdf.ContentStreamInlineImage) else str(ins.operator)
        if op in ("BDC", "BMC"):
            depth += 1
        elif op == "EMC":
            depth -= 1
        elif depth == 0:
            if op in PATH_BUILD or (path and op in PATH_CLIP):
                path.append(ins)
                continue
            if path:
                if op in PATH_PAINT:
                    wrap(LAYOUT, [*path, ins])
                else:
                    out.extend([*path, ins])
                path = []
                continue
            if op in TEXT_SHOW:
                wrap(PAGINATION, [ins])
                continue
            if op in OTHER_PAINT and not (op == "Do" and str(ins.operands[0]) in tagged_forms):
                wrap(LAYOUT, [ins])
                continue
        if path:
            out.extend(path)
            path = []
        out.append(ins)
    return out + path


def _code_digest() -> bytes:
    """SHA-256 of this module's code: part of every ``_artifacts`` cache key (changed code, new keys)."""
    import hashlib

    return hashlib.sha256(Path(__file__).read_bytes()).digest()


def _artifacts(doc: pikepdf.Pdf, cache_dir: Path | None = None) -> None:
    """Wrap each page's untagged content as artifacts (``_instructions``). A form XObject that
    holds tagged content is painted as it is, its own untagged content wrapped likewise (Chromium
    draws groups with opacity as forms); any other form or image painted untagged is an artifact.

    ``cache_dir``: each page's new content is kept there under a key of its content streams, the
    names of its tagged forms and this module's code, and read back for a page that prints the
    same (a one-parameter rebuild changes about 10 pages of 71; parsing and rewriting every page
    took 0.5 s, measured). The cache holds the pages of the last PDF only; the bytes are the same
    with or without it."""
    import hashlib

    done: set = set()
    code = _code_digest() if cache_dir is not None else b""
    used: set[str] = set()

    def tagged_forms(resources) -> set[str]:
        names = set()
        for name, xobject in (resources or {}).get("/XObject", {}).items():
            if xobject.get("/Subtype") != "/Form" or b"BDC" not in xobject.read_bytes():
                continue
            names.add(name)
            if xobject.objgen not in done:
                done.add(xobject.objgen)
                ops = pikepdf.parse_content_stream(xobject)
                inner = tagged_forms(xobject.get("/Resources"))
                xobject.write(pikepdf.unparse_content_stream(_instructions(ops, inner)))
        return names

    for page in doc.pages:
        keep = tagged_forms(page.obj.get("/Resources"))
        kept = None
        if cache_dir is not None:
            contents = page.obj.get("/Contents")
            streams = list(contents) if isinstance(contents, pikepdf.Array) else [contents]
            streams_digest = b"".join(hashlib.sha256(s.read_bytes()).digest() for s in streams)
            key = hashlib.sha256(code + streams_digest + "\0".join(sorted(keep)).encode()).hexdigest()
            used.add(key)
            try:
                kept = (cache_dir / key).read_bytes()
            except OSError:
                kept = None
        if kept is None:
            kept = pikepdf.unparse_content_stream(_instructions(pikepdf.parse_content_stream(page), keep))
            if cache_dir is not None:
                try:
                    files.write_bytes(kept, cache_dir / key)
                except OSError:  # a read-only checkout still renders, only without the cache
                    pass
        page.Contents = doc.make_stream(kept)
    if cache_dir is not None and cache_dir.is_dir():
        for stale in cache_dir.iterdir():
            if stale.name not in used and len(stale.name) == 64:
                stale.unlink(missing_ok=True)


@dataclass
class StructTree:
    """The structure tree walked once (``walk``): ``elements``, every structure element under the
    root in document order (a pre-order walk); ``types``, each one's /S as text (e.g. ``/Table``);
    ``sizes``, how many elements lie under each (its descendants are ``elements[i + 1 : i + 1 +
    sizes[i]]``). Read by ``finish``'s steps instead of walking the tree again: reading /K and /S
    of the 10,000 elements once took 0.06 s, where each step's own walk took 0.1-0.2 s (measured)."""

    elements: list
    types: list[str]
    sizes: list[int]

    def of_type(self, *types: str) -> list[int]:
        """The indices of the elements whose /S is one of ``types`` (e.g. ``"/LI"``)."""
        return [i for i, t in enumerate(self.types) if t in types]

    def children(self, i: int, *types: str) -> list[int]:
        """The indices of element ``i``'s own kids (elements) whose /S is one of ``types``."""
        out, j, end = [], i + 1, i + 1 + self.sizes[i]
        while j < end:
            if self.types[j] in types:
                out.append(j)
            j += 1 + self.sizes[j]
        return out

    def descendants(self, i: int, *types: str) -> list[int]:
        """The indices of the elements under element ``i`` whose /S is one of ``types``."""
        return [j for j in range(i + 1, i + 1 + self.sizes[i]) if self.types[j] in types]


def walk(doc: pikepdf.Pdf) -> StructTree:
    """The ``StructTree`` of ``doc``'s structure tree (its /StructTreeRoot)."""
    tree = StructTree([], [], [])

    def visit(node) -> int:
        start = len(tree.elements)
        for k in _kids(node):
            s = k.get("/S")
            if s is None:  # a marked-content or object reference, not an element
                continue
            i = len(tree.elements)
            tree.elements.append(k)
            tree.types.append(str(s))
            tree.sizes.append(0)
            tree.sizes[i] = visit(k)
        return len(tree.elements) - start

    visit(doc.Root.StructTreeRoot)
    return tree


def _kids(node) -> list:
    """The structure elements and marked-content references under ``node``'s /K (dictionaries).
    (Types compared by their code: ``isinstance(k, pikepdf.Dictionary)`` goes through pikepdf's
    metaclass, a third of this walk over the 10,000 elements, measured.)"""
    kids = node.get("/K")
    if kids is None:
        return []
    kids = list(kids) if type(kids) is pikepdf.Object and kids._type_code == _ARRAY else [kids]
    return [k for k in kids if type(k) is pikepdf.Object and k._type_code == _DICTIONARY]


_ARRAY, _DICTIONARY = pikepdf.ObjectType.array, pikepdf.ObjectType.dictionary


def _role_map(doc: pikepdf.Pdf, tree: StructTree) -> None:
    """A /RoleMap entry for each non-standard structure type the tree uses (ROLE_MAP, else Span)."""
    used = {t[1:] for t in tree.types} - STANDARD_TYPES
    if used:
        doc.Root.StructTreeRoot.RoleMap = pikepdf.Dictionary(
            {"/" + t: pikepdf.Name("/" + ROLE_MAP.get(t, "Span")) for t in sorted(used)}
        )


def _list_bodies(doc: pikepdf.Pdf, tree: StructTree) -> None:
    """Each ``LI``'s kids other than its ``Lbl`` move into a new ``LBody`` (PDF/UA: a list item
    is a label and a body). Marked content moved into the body gets the body as its parent in
    the parent tree."""
    parent_tree = _parent_tree(doc)
    for li in (tree.elements[i] for i in tree.of_type("/LI")):
        kids = li.K if isinstance(li.K, pikepdf.Array) else pikepdf.Array([li.K])
        label = [k for k in kids if isinstance(k, pikepdf.Dictionary) and k.get("/S") == "/Lbl"]
        rest = [k for k in kids if not (isinstance(k, pikepdf.Dictionary) and k.get("/S") == "/Lbl")]
        if not rest:
            continue
        body = doc.make_indirect(
            pikepdf.Dictionary(Type=pikepdf.Name.StructElem, S=pikepdf.Name.LBody, P=li, K=pikepdf.Array(rest))
        )
        if "/Pg" in li:
            body.Pg = li.Pg
        for k in rest:
            if isinstance(k, pikepdf.Dictionary) and "/S" in k:
                k.P = body
            else:  # a marked-content id (an integer or an /MCR) directly under the LI
                mcid, page = (
                    (int(k), li.get("/Pg")) if isinstance(k, int) else (int(k.MCID), k.get("/Pg", li.get("/Pg")))
                )
                entry = parent_tree.get(page.objgen if page is not None else None)
                if entry is not None and mcid < len(entry):
                    entry[mcid] = body
        li.K = pikepdf.Array([*label, body])


def table_cells(soup: BeautifulSoup) -> list[list[list[tuple[str, bool]]]]:
    """The print HTML's tables as ``_empty_cells`` reads them: per table, per row, per cell
    (``td`` or ``th``, the row's own cells) its tag name and whether it holds text."""
    return [
        [
            [(c.name, bool(c.get_text(strip=True))) for c in row.find_all(["td", "th"], recursive=False)]
            for row in table.find_all("tr")
        ]
        for table in soup.find_all("table")
    ]


def _empty_cells(doc: pikepdf.Pdf, tree: StructTree, html_tables: list) -> None:
    """Chromium leaves an empty table cell out of the structure tree (it holds no content), so a
    row with an empty cell has fewer cells than its table has columns (PDF/UA 7.5: the grid must
    close). Each row gets an empty ``TD`` (``TH``) where the print HTML's row has an empty cell
    (``html_tables``: ``table_cells`` of the print HTML). Tables and rows are matched in document
    order; a table whose rows or non-empty cells do not match the HTML's one for one is left as
    it is (the PDF/UA test then names it)."""
    tables = tree.of_type("/Table")
    if len(tables) != len(html_tables):
        return
    el = tree.elements
    for table, html_rows in zip(tables, html_tables, strict=True):
        rows = tree.descendants(table, "/TR")
        if len(rows) != len(html_rows):
            continue
        for r, cells in zip(rows, html_rows, strict=True):
            row = el[r]
            kids = [el[j] for j in tree.children(r, "/TD", "/TH")]
            full = [c for c in cells if c[1]]
            if len(kids) == len(cells) or len(kids) != len(full):
                continue
            kid = iter(kids)
            new = []
            for name, has_text in cells:
                if has_text:
                    new.append(next(kid))
                    continue
                empty = pikepdf.Dictionary(Type=pikepdf.Name.StructElem, S=pikepdf.Name("/" + name.upper()), P=row)
                if name == "th":
                    empty.A = pikepdf.Dictionary(O=pikepdf.Name.Table, Scope=pikepdf.Name.Column)
                new.append(doc.make_indirect(empty))
            row.K = pikepdf.Array(new)


def _parent_tree(doc: pikepdf.Pdf) -> dict:
    """{page objgen: the parent-tree array of that page's marked-content ids}."""
    nums = pikepdf.NumberTree(doc.Root.StructTreeRoot.ParentTree)
    out = {}
    for page in doc.pages:
        key = page.obj.get("/StructParents")
        if key is not None and int(key) in nums:
            out[page.obj.objgen] = nums[int(key)]
    return out


def link_texts(soup: BeautifulSoup) -> dict[str, str]:
    """{href: text} of the print HTML's links whose href all links give the same text."""
    texts = defaultdict(set)
    for a in soup.find_all("a", href=True):
        texts[a["href"]].add(" ".join(a.get_text(" ").split()))
    return {href: next(iter(seen)) for href, seen in texts.items() if len(seen) == 1}


def link_anchors(soup: BeautifulSoup) -> list[str]:
    """The texts of the print HTML's links Chromium tags (not inside ``.vdi-screen-only``), in
    document order, as ``_link_contents`` gives them to the annotations."""
    return [
        " ".join(a.get_text(" ").split())
        for a in soup.find_all("a", href=True)
        if not a.find_parent(class_="vdi-screen-only")
    ]


def _link_contents(doc: pikepdf.Pdf, tree: StructTree, anchors: list[str], shared: dict[str, str]) -> None:
    """Each link annotation's /Contents is its link's text; the Print flag set (PDF/UA 7.18.1,
    7.18.5). Chromium tags each printed ``<a>`` as a ``Link`` element (in document order) that
    holds the link's annotations (one per line the link spans), so when the counts agree the
    k-th element's annotations get the k-th link's text (``anchors``: ``link_anchors``);
    otherwise a text all links to the same target share (``shared``: ``link_texts``), else the
    target's name."""
    links = [tree.elements[i] for i in tree.of_type("/Link")]
    by_annotation = {}
    if len(links) == len(anchors):
        for link, text in zip(links, anchors, strict=True):
            for kid in _kids(link):
                if kid.get("/Type") == "/OBJR" and text:
                    by_annotation[kid.Obj.objgen] = text
    for page in doc.pages:
        for annot in page.obj.get("/Annots", []):
            if annot.get("/Subtype") != "/Link":
                continue
            href = "#" + str(annot.Dest)[1:] if "/Dest" in annot else str(annot.get("/A", {}).get("/URI", ""))
            text = by_annotation.get(annot.objgen) or shared.get(href) or href.lstrip("#")
            annot.Contents = pikepdf.String(text)
            annot.F = 4


def _metadata(doc: pikepdf.Pdf, meta: dict[str, str]) -> None:
    """Document information and XMP: title, subject, keywords, author, the dates, PDF/UA-1."""
    title = meta.get("title", "")
    date = meta.get("date", "")
    pdf_date = "D:" + date.replace("-", "") + "000000Z" if date else None
    info = doc.docinfo
    info.Title = title
    for key, value in (("Subject", meta.get("description")), ("Keywords", meta.get("keywords"))):
        if value:
            info[f"/{key}"] = value
    for key in ("/CreationDate", "/ModDate"):
        if pdf_date:
            info[key] = pdf_date
        elif key in info:
            del info[key]
    with doc.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as xmp:
        xmp.register_xml_namespace("http://www.aiim.org/pdfua/ns/id/", "pdfuaid")
        xmp["dc:title"] = title
        if meta.get("description"):
            xmp["dc:description"] = meta["description"]
        xmp["pdf:Producer"] = str(info.get("/Producer", ""))
        if date:
            xmp["xmp:CreateDate"] = xmp["xmp:ModifyDate"] = xmp["xmp:MetadataDate"] = date
        xmp["pdfuaid:part"] = "1"
    doc.Root.ViewerPreferences = pikepdf.Dictionary(DisplayDocTitle=True)
    doc.Root.MarkInfo = pikepdf.Dictionary(Marked=True)


def page_meta(soup: BeautifulSoup) -> dict[str, str]:
    """The print HTML's title, description, keywords and date (``dcterms.created``)."""
    title = soup.find("title")
    get = {m.get("name"): m.get("content", "") for m in soup.find_all("meta") if m.get("name")}
    return {
        "title": title.get_text(strip=True) if title else "",
        "description": get.get("description", ""),
        "keywords": get.get("keywords", ""),
        "date": get.get("dcterms.created", ""),
    }


def _canonical_ids(doc: pikepdf.Pdf, tree: StructTree) -> None:
    """Structure element ids numbered in the order of the tree (``node00000001``, ...), in the
    elements' /ID, the table cells' /Headers and the root's /IDTree. Chromium names them by an
    internal counter of the page's nodes, which a frame the page happened to paint between its
    load and its print can advance: the same print document then gave two different PDFs (the
    same text, other ids), depending on how busy the machine was."""
    named = [e for e in tree.elements if "/ID" in e]
    if not named:
        return
    renamed: dict[str, pikepdf.String] = {}
    for e in named:
        e.ID = renamed.setdefault(str(e.ID), pikepdf.String(f"node{len(renamed) + 1:08d}"))
    for e in (tree.elements[i] for i in tree.of_type("/TD", "/TH")):  # /Headers: a table cell's attribute
        attrs = e.get("/A")
        for a in attrs if isinstance(attrs, pikepdf.Array) else [attrs] if attrs is not None else []:
            if isinstance(a, pikepdf.Dictionary) and "/Headers" in a:
                a.Headers = pikepdf.Array([renamed.get(str(h), h) for h in a.Headers])
    ids = pikepdf.NameTree.new(doc)
    for e in named:
        ids[str(e.ID)] = e
    doc.Root.StructTreeRoot.IDTree = ids.obj


@dataclass(frozen=True)
class PrintFacts:
    """What ``finish`` reads from the print HTML, taken from it once (``print_facts``) while
    Chromium prints: its tables' cells (``table_cells``), its links' texts (``link_anchors``,
    ``link_texts``) and its title, description, keywords and date (``page_meta``)."""

    tables: list
    anchors: list
    shared: dict
    meta: dict


def print_facts(soup: BeautifulSoup) -> PrintFacts:
    """``PrintFacts`` of the print HTML ``soup``."""
    return PrintFacts(table_cells(soup), link_anchors(soup), link_texts(soup), page_meta(soup))


def finish(pdf: bytes, soup: BeautifulSoup | PrintFacts, cache_dir: Path | None = None) -> bytes:
    """Complete Chromium's tagging of ``pdf`` (the print of ``soup``, or its ``print_facts``)
    for PDF/UA-1 (see the module's docstring); the same input gives the same bytes.
    ``cache_dir``: the pages' rewritten content kept between builds (``_artifacts``)."""
    facts = soup if isinstance(soup, PrintFacts) else print_facts(soup)
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        tree = walk(doc)
        _artifacts(doc, cache_dir)
        _role_map(doc, tree)
        _list_bodies(doc, tree)
        _empty_cells(doc, tree, facts.tables)
        _canonical_ids(doc, tree)
        _link_contents(doc, tree, facts.anchors, facts.shared)
        _metadata(doc, facts.meta)
        out = io.BytesIO()
        doc.save(
            out, deterministic_id=True, compress_streams=True, object_stream_mode=pikepdf.ObjectStreamMode.generate
        )
    return out.getvalue()


def prepare(soup: BeautifulSoup) -> BeautifulSoup:
    """The print HTML as Chromium should tag it: each chart's SVG is one image (``role="img"``)
    named by its ``<title>`` (the same text as the HTML report's ``aria-label``), so the PDF has
    one ``Figure`` per chart with that text as its ``/Alt``, not one per axis and mark.

    A shape's ``opacity`` (Vega's marks: 0.7, 0.85) becomes its fill and stroke opacity: for one
    shape the paint differs only where its stroke overlaps its fill, and Chromium then paints it in the
    page's content instead of a
    transparency-group form XObject per mark (whose ``Do`` checkers read as untagged paint)."""
    for svg in soup.select("div.vdi-svg > svg"):
        title = svg.find("title")
        svg["role"] = "img"
        if title is not None:
            svg["aria-label"] = " ".join(title.get_text(" ").split())
        for shape in svg.find_all(SHAPES, opacity=True):
            opacity = float(shape["opacity"])
            del shape["opacity"]
            if opacity < 1:
                for paint in ("fill-opacity", "stroke-opacity"):
                    shape[paint] = f"{float(shape.get(paint, 1)) * opacity:g}"
    return soup


def start_pdf(
    doc: str | BeautifulSoup,
    printer: Printer,
    pages_cache: Path | None = None,
    last: bool = False,
    content_cache: Path | None = None,
):
    """Start the print of ``pdf_bytes`` on an open ``printer`` and return at once a function
    that waits for it and returns the finished PDF (bytes; raises as ``pdf_bytes``). The caller
    works meanwhile: Chromium prints in its own process. ``last``: the printer's last print
    (``Printer.submit``): the browser closes while the PDF is finished. ``content_cache``: the
    folder of ``finish``'s page cache (``_artifacts``)."""
    soup = doc if isinstance(doc, BeautifulSoup) else BeautifulSoup(doc, "html.parser")
    soup = prepare(soup)
    guess = None
    if pages_cache is not None:
        try:
            guess = {str(k): int(v) for k, v in json.loads(pages_cache.read_text(encoding="utf-8")).items()}
        except (OSError, ValueError, AttributeError, TypeError):
            guess = None
    printing = printer.submit(str(soup), contents_targets(soup), guess, last=last)
    facts = print_facts(soup)  # while Chromium prints

    def finished() -> bytes:
        pdf, pages = printing.result()
        if pages_cache is not None and pages != guess:
            files.write_json(pages, pages_cache)
        return finish(pdf, facts, content_cache)

    return finished


def pdf_bytes(
    doc: str | BeautifulSoup,
    chromium: str | Printer,
    pages_cache: Path | None = None,
    content_cache: Path | None = None,
) -> bytes:
    """The tagged PDF/UA-1 of the print document ``doc`` (``render.print_document`` or its HTML),
    printed by the Chromium at ``chromium`` (a path, or a ``Printer`` already opened) and
    finished (``finish``).

    ``pages_cache``: a JSON file of the contents' pages ({target: page}) read as ``print_pdf``'s
    guess and rewritten after the print (a build cache: a rebuild whose chapters did not move
    prints once; the bytes are the same with or without it). An unreadable cache is ignored.
    ``content_cache``: a folder where ``finish`` keeps the pages' rewritten content (``_artifacts``).

    Raises PrintError (Chromium failed, a contents target is missing, numbers did not settle)."""
    if isinstance(chromium, Printer):
        return start_pdf(doc, chromium, pages_cache, content_cache=content_cache)()
    with Printer(chromium) as printer:
        return start_pdf(doc, printer, pages_cache, content_cache=content_cache)()
