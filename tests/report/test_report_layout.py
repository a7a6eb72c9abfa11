"""Layout of the PDF, measured on what the reader gets whatever engine laid it out: the built PDF
(PyMuPDF: its text lines with their fonts and sizes, its drawn paths), the print HTML for what a
line is (a heading, a caption, a chart's label) and, where pages do not matter, Chromium's own
layout of the print HTML in print media at the width of the page's content box.

Checked: nothing past the right margin (nor the document shrunk to fit); no page less than
MIN_FILL full except the last page before a chapter (or an element on a new page) and the last
page (a page half blank before a figure was issue 20's first layout defect); every chapter starts
a page; no heading or caption as the last line of a page; no table left as its caption and header
at a page foot; no chart text under 8 pt; no word of a table cell broken between two letters; no
table cell of more than MAX_CELL_LINES lines in the tables that compare arrays or phases (the
long-text tables of the audit and the appendix excepted), and the density table short in
portrait."""

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache

import nbformat
import pytest

from vdi_report import config
from vdi_report.publish import render, system

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
CHART_MIN_PT = 8  # issue 20: tick labels were 6 pt in two figures
MIN_PREFIX = 12  # characters of a line that begins a longer heading or caption
CHAPTER_TOP = 0.2  # a chapter starts a page when its heading is in the top fifth of the content box
MM = 72 / 25.4  # pt per mm
A4_WIDTH_MM = 210  # print.css: @page { size: A4 }
CSS_PX_PER_MM = 96 / 25.4


@cache
def page_margins_mm() -> dict[str, float]:
    """The page margins of print.css (``@page { margin: ... }``, in mm; one to four values as CSS
    takes them), by side. Raises ValueError when print.css has no ``@page`` margin in mm."""
    css = (config.TEMPLATES_DIR / "vdi_report" / "print.css").read_text(encoding="utf-8")
    m = re.search(r"@page\s*\{[^{}]*?\bmargin:\s*([^;]+);", css)
    values = m and re.fullmatch(r"\s*((?:[\d.]+mm\s*){1,4})", m.group(1))
    if not values:
        raise ValueError("templates/vdi_report/print.css: no @page margin in mm")
    v = [float(x) for x in re.findall(r"[\d.]+", values.group(1))]
    # CSS: top [right [bottom [left]]], right defaulting to top, bottom to top, left to right
    top, right = v[0], v[1] if len(v) > 1 else v[0]
    bottom, left = v[2] if len(v) > 2 else top, v[3] if len(v) > 3 else right
    return {"top": top, "right": right, "bottom": bottom, "left": left}


def _squash(text: str) -> str:
    """``text`` without white space (the PDF's text and the HTML's differ in spaces only)."""
    return re.sub(r"\s+", "", text)


# --- the PDF -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """A line of text in the PDF (PyMuPDF's line): its text, box (pt, y down), smallest font size
    (pt) and whether all its text is bold."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float
    bold: bool


@dataclass
class Page:
    """A page of the PDF: its text lines in the content box (the footer in the bottom margin left
    out), top to bottom and left to right; the bottom of the lowest line or visible drawing there;
    what runs past the right margin; the content box's top and bottom (pt)."""

    number: int
    lines: list[Line]
    lowest: float
    top: float
    bottom: float
    past: list[str] = field(default_factory=list)

    @property
    def fill(self) -> float:
        return (min(self.lowest, self.bottom) - self.top) / (self.bottom - self.top)

    @property
    def text(self) -> str:
        return "".join(_squash(line.text) for line in self.lines)


def _visible(drawing: dict) -> bool:
    """A drawing with a stroke or a fill other than white (not the page's white background)."""
    fill = drawing.get("fill")
    return drawing.get("color") is not None or (fill is not None and tuple(fill) != (1.0, 1.0, 1.0))


def read_pages(path) -> list[Page]:
    """Every page of the PDF at ``path`` (``Page``), the margins those of print.css."""
    import pymupdf

    m = {k: v * MM for k, v in page_margins_mm().items()}
    out = []
    with pymupdf.open(path) as doc:
        for page in doc:
            top, bottom, right = m["top"], page.rect.height - m["bottom"], page.rect.width - m["right"]
            lines, past, lowest = [], [], top
            for block in page.get_text("dict")["blocks"]:
                for ln in block.get("lines", []):
                    spans = [s for s in ln["spans"] if s["text"].strip()]
                    if not spans:
                        continue
                    text = "".join(s["text"] for s in ln["spans"]).strip()
                    x0, y0 = min(s["bbox"][0] for s in spans), min(s["bbox"][1] for s in spans)
                    x1, y1 = max(s["bbox"][2] for s in spans), max(s["bbox"][3] for s in spans)
                    if x1 > right + 1:
                        past.append(f"text {text[:40]!r} ends {x1 - right:.1f} pt past the margin")
                    if y0 >= bottom:  # the footer
                        continue
                    bold = all("bold" in s["font"].lower() or s["flags"] & 16 for s in spans)
                    lines.append(Line(text, x0, y0, x1, y1, min(s["size"] for s in spans), bold))
                    lowest = max(lowest, y1)
            for d in page.get_drawings():
                r = d["rect"]
                if not _visible(d):
                    continue
                if r.x1 > right + 1:
                    past.append(f"drawing at y={r.y0:.0f} ends {r.x1 - right:.1f} pt past the margin")
                if r.y0 < bottom:
                    lowest = max(lowest, r.y1)
            lines.sort(key=lambda ln: (round(ln.y0), ln.x0))
            out.append(Page(page.number + 1, lines, lowest, top, bottom, past))
    return out


@pytest.fixture(scope="module")
def pdf_pages(report_pdf) -> list[Page]:
    return read_pages(report_pdf)


# --- the print HTML ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def print_html() -> str:
    """The print version of the executed report notebook (what the PDF is printed from)."""
    nb = nbformat.read(config.REPORTS_DIR / "notebooks" / "10_report.ipynb", as_version=4)
    return render.to_html(nb, for_pdf=True)


@pytest.fixture(scope="module")
def soup(print_html):
    from bs4 import BeautifulSoup

    return BeautifulSoup(print_html, "html.parser")


def _text(el) -> str:
    return el.get_text(" ")


def _is_prefix_of_lines(lines: list[Line], texts: set[str]) -> str | None:
    """The text of ``texts`` (squashed) that the whole lines ``lines`` make or begin (with at
    least MIN_PREFIX characters: a short cell text such as "Mod" begins too many), if any."""
    joined = "".join(_squash(ln.text) for ln in lines)
    return next((t for t in texts if joined == t or (len(joined) >= MIN_PREFIX and t.startswith(joined))), None)


# --- pages ---------------------------------------------------------------------------------------


def chapter_pages(pages: list[Page], soup) -> list[int]:
    """Numbers of the pages that start a chapter: the first page, and every page with an h1 or
    the first line of a ``vdi-new-page`` element in the top CHAPTER_TOP of its content box (an h1
    at the h1's size: the largest of the lines with an h1's text)."""
    h1 = {_squash(_text(h)) for h in soup.select("h1")}
    new_page = {_squash(_text(e)) for e in soup.select(".vdi-new-page")} - {""}
    h1_pt = max((ln.size for p in pages for ln in p.lines if _squash(ln.text) in h1), default=0)
    out = [1]
    for p in pages[1:]:
        near_top = [ln for ln in p.lines if ln.y0 - p.top < CHAPTER_TOP * (p.bottom - p.top)]
        if any(
            (abs(ln.size - h1_pt) < 0.5 and _is_prefix_of_lines([ln], h1)) or _is_prefix_of_lines([ln], new_page)
            for ln in near_top
        ):
            out.append(p.number)
    return out


@cache
def body_pt() -> float:
    """The body text's size in print.css (``body { font-size: ...pt }``). Raises ValueError without it."""
    css = (config.TEMPLATES_DIR / "vdi_report" / "print.css").read_text(encoding="utf-8")
    m = re.search(r"\bbody\s*\{[^}]*?font-size:\s*([\d.]+)pt", css)
    if not m:
        raise ValueError("templates/vdi_report/print.css: no body font-size in pt")
    return float(m.group(1))


def test_nothing_runs_past_the_right_margin(pdf_pages):
    """No text and no visible drawing (table rule, chart mark) beyond the right margin + 1 pt,
    and nothing shrunk to fit: the paragraphs' most common text size is print.css's body size (Chromium
    scales the whole document down to fit an element wider than the page instead of letting it
    run past the margin)."""
    bad = {p.number: p.past[:3] for p in pdf_pages if p.past}
    assert bad == {}, f"pages with text or drawings past the right margin: {bad}"
    chars = Counter(  # the paragraphs' lines: long, and alone in their rows (not table cells)
        round(ln.size, 1) for p in pdf_pages for ln in p.lines if len(ln.text) >= 60 and _alone_in_its_row(ln, p)
    )
    common = chars.most_common(1)[0][0]
    assert abs(common - body_pt()) < 0.1, f"body text {common} pt, not {body_pt()} pt: the PDF is scaled to fit"


def test_no_page_is_mostly_blank_except_before_a_chapter(pdf_pages, soup):
    """Fill: from the content box's top to the bottom of its lowest text or visible drawing."""
    chapters = set(chapter_pages(pdf_pages, soup))
    bad = [
        f"page {p.number}: {p.fill:.0%} full"
        for p in pdf_pages[:-1]
        if p.fill < MIN_FILL and p.number + 1 not in chapters
    ]
    assert bad == [], f"pages less than {MIN_FILL:.0%} full that do not end a chapter: {bad}"


def test_every_chapter_starts_a_page(pdf_pages, soup):
    from vdi_report.report.sections import SECTION_ORDER

    n_new_page = len(soup.select(".vdi-new-page"))
    # answers on page 1, the other chapters and each vdi-new-page element (the colophon) on new pages
    assert len(chapter_pages(pdf_pages, soup)) == len(SECTION_ORDER) + n_new_page


def _alone_in_its_row(line: Line, page: Page) -> bool:
    """No other line beside ``line`` (a table cell has neighbours; a heading or caption has none)."""
    return not any(o is not line and o.y0 < line.y1 and o.y1 > line.y0 for o in page.lines)


def last_heading_or_caption(page: Page, texts: set[str]) -> str | None:
    """The heading or caption (of ``texts``, squashed) that the page's last lines begin or make
    whole: the last one, two or three lines, bold and alone in their rows."""
    for k in (1, 2, 3):
        tail = page.lines[-k:]
        if len(tail) < k or not all(ln.bold and _alone_in_its_row(ln, page) for ln in tail):
            return None
        if hit := _is_prefix_of_lines(tail, texts):
            return hit
    return None


def headings_and_captions(soup) -> set[str]:
    """The squashed text of every h1-h4, table caption and ``p.vdi-caption`` of the print HTML."""
    return {_squash(_text(e)) for e in soup.select("h1, h2, h3, h4, caption, p.vdi-caption")} - {""}


def test_no_heading_or_caption_is_the_last_line_of_a_page(pdf_pages, soup):
    """No page ends with a heading (h1-h4) or a caption, whole or its first lines: the page's
    last lines, bold (headings and captions print bold) and alone in their rows (not table
    cells), make or begin the text of one."""
    texts = headings_and_captions(soup)
    assert texts, "no heading or caption in the print HTML"
    bad = [f"page {p.number}: {hit[:60]!r}" for p in pdf_pages if (hit := last_heading_or_caption(p, texts))]
    assert bad == [], f"pages whose last line is a heading or caption (squashed): {bad}"


def _caption_end(page: Page, caption: str) -> Line | None:
    """The line of ``page`` where the squashed text ``caption`` ends, if the page has it whole."""
    at, pos = page.text.find(caption), 0
    if at < 0:
        return None
    for ln in page.lines:
        pos += len(_squash(ln.text))
        if pos >= at + len(caption):
            return ln
    return None


def _ends_with_the_start_of(page: Page, caption: str) -> bool:
    """Whether the page's last lines (one to three) are the first lines of ``caption`` (squashed)."""
    return any(page.lines[-k:] and _is_prefix_of_lines(page.lines[-k:], {caption}) for k in (1, 2, 3))


def tables_at_a_page_foot(pages: list[Page], soup) -> tuple[list[str], list[str]]:
    """``(bad, missing)``: the tables (with an id, a caption and a body) whose caption ends a page
    or is followed on its page by nothing but header text (no line of the body's text that is
    not header text), as "page N: id"; and the tables whose caption is not in the PDF."""
    bad, missing = [], []
    for table in soup.select("table[id]"):
        caption, body = table.find("caption"), table.find("tbody")
        if caption is None or body is None or not _squash(_text(body)):
            continue
        cap, head = _squash(_text(caption)), _squash(_text(table.find("thead") or ""))
        body_text = _squash(_text(body))
        found = [(p, ln) for p in pages if (ln := _caption_end(p, cap)) is not None]
        if found:
            page, end = found[0]
            below = [_squash(ln.text) for ln in page.lines if ln.y0 >= end.y1 - 0.5]
            if not any(t in body_text and t not in head for t in below):
                bad.append(f"page {page.number}: {table['id']}")
        elif split := [p for p in pages if _ends_with_the_start_of(p, cap)]:
            bad.append(f"page {split[0].number}: {table['id']} (its caption split across pages)")
        else:
            missing.append(table["id"])
    return bad, missing


def test_no_table_is_left_as_its_caption_and_header_at_a_page_foot(pdf_pages, soup):
    """A table that starts on a page has at least one line of its body there, below its caption
    (or starts on the next page)."""
    bad, missing = tables_at_a_page_foot(pdf_pages, soup)
    assert bad == [], f"tables left as their caption (and header) at a page foot: {bad}"
    assert missing == [], f"tables whose caption is not in the PDF: {missing}"


def _line_starts(page: Page) -> list[int]:
    """Where each line of ``page`` starts in ``page.text``."""
    out, pos = [], 0
    for ln in page.lines:
        out.append(pos)
        pos += len(_squash(ln.text))
    return out


def chart_lines(pages: list[Page], soup) -> list[tuple[int, list[Line]]]:
    """Per chart of the print HTML (an ``svg``, after its ``p.vdi-caption``) found in the PDF: its
    page and the lines drawn between its caption and the next element's text (or the page's end),
    which are the chart's own labels."""
    out = []
    for svg in soup.find_all("svg"):
        box = svg.find_parent(class_="vdi-svg") or svg
        caption = box.find_previous_sibling(class_="vdi-caption")
        if caption is None:
            continue
        after = next(
            (
                _squash(_text(s))
                for s in box.find_next_siblings()
                if s.name not in ("style", "script") and _text(s).strip()
            ),
            "",
        )
        cap = _squash(_text(caption))
        for page in pages:
            text = page.text
            if (at := text.find(cap)) < 0:
                continue
            end = at + len(cap)
            stop = text.find(after[:40], end) if after else -1
            stop = len(text) if stop < 0 else stop
            out.append((page.number, [ln for ln, s in zip(page.lines, _line_starts(page)) if end <= s < stop]))
            break
    return out


def test_chart_text_is_at_least_8_pt_in_print(pdf_pages, soup):
    """Every line drawn in a chart (between its caption and the next element's text) is at least
    CHART_MIN_PT; at least five charts are found in the PDF, with their labels."""
    charts = [(n, lines) for n, lines in chart_lines(pdf_pages, soup) if lines]
    small = sorted(
        {
            f"page {n}: {ln.text[:30]!r} {ln.size:.1f} pt"
            for n, lines in charts
            for ln in lines
            if ln.size < CHART_MIN_PT
        }
    )
    assert len(charts) >= 5 and small == [], (len(charts), small[:10])


# --- table cells in Chromium's print layout ------------------------------------------------------

# Per cell of every table with an id: its table, tag, text, lines (distinct line boxes of its text:
# client rects of each text node's Range, a rect below the last line's bottom starting a new line)
# and the words broken between two letters (a word's Range with rects on two lines; words with
# "_", "." or "/", file names and identifiers, may break anywhere).
CELLS_JS = r"""
() => {
  const lineCount = rects => {
    let n = 0, bottom = -Infinity;
    for (const r of [...rects].filter(r => r.width > 0 && r.height > 0).sort((a, b) => a.top - b.top)) {
      if ((r.top + r.bottom) / 2 > bottom) { n += 1; bottom = r.bottom; } else { bottom = Math.max(bottom, r.bottom); }
    }
    return n;
  };
  const letter = c => /\p{L}/u.test(c);
  const out = [];
  for (const table of document.querySelectorAll('table[id]')) {
    for (const cell of table.querySelectorAll('th, td')) {
      if (cell.closest('table') !== table) continue;
      const rects = [], broken = [];
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node; (node = walker.nextNode());) {
        const range = document.createRange();
        range.selectNodeContents(node);
        rects.push(...range.getClientRects());
        for (const m of node.data.matchAll(/\S+/g)) {
          const word = m[0];
          if (/[_.\/]/.test(word)) continue;
          range.setStart(node, m.index);
          range.setEnd(node, m.index + word.length);
          if (lineCount(range.getClientRects()) < 2) continue;
          let prev = null;
          for (let i = 0; i < word.length; i++) {
            range.setStart(node, m.index + i);
            range.setEnd(node, m.index + i + 1);
            const r = range.getBoundingClientRect();
            if (prev && r.height > 0 && (r.top + r.bottom) / 2 > prev.bottom && letter(word[i - 1]) && letter(word[i]))
              broken.push(word.slice(0, i) + '|' + word.slice(i));
            if (r.height > 0) prev = r;
          }
        }
      }
      out.push({table: table.id, tag: cell.tagName.toLowerCase(), text: cell.textContent.trim(),
                lines: lineCount(rects), broken});
    }
  }
  return out;
}
"""


def content_width_px() -> int:
    """The width of an A4 page's content box in CSS px (96 per inch), the margins print.css's."""
    m = page_margins_mm()
    return round((A4_WIDTH_MM - m["left"] - m["right"]) * CSS_PX_PER_MM)


@pytest.fixture(scope="module")
def cells(print_html, tmp_path_factory) -> list[dict]:
    """Every table cell of the print HTML as Chromium lays it out in print media in a window as
    wide as the page's content box (``CELLS_JS``). Skips without Playwright or Chromium."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="PyPI package playwright is not installed")
    exe = system.chromium_path()
    if exe is None:
        pytest.skip(system.CHROMIUM_HINT)
    html = tmp_path_factory.mktemp("print") / "print.html"
    html.write_text(print_html, encoding="utf-8")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu"])
        try:
            ctx = browser.new_context(offline=True, viewport={"width": content_width_px(), "height": 1000})
            page = ctx.new_page()
            page.emulate_media(media="print")
            page.goto(html.as_uri())
            return page.evaluate(CELLS_JS)
        finally:
            browser.close()


def test_no_word_in_a_table_is_broken_between_two_letters(cells):
    """A narrow column must not split a word ("knowledg|e", "Latenc|y")."""
    assert cells, "no table cells laid out"
    broken = [f"{c['table']}: {w}" for c in cells for w in c["broken"]]
    assert broken == [], f"words broken between two letters: {broken}"


def test_tables_that_compare_arrays_keep_cells_short(cells):
    """No cell of more than MAX_CELL_LINES lines outside LONG_TEXT_TABLES (issue 20: the density
    table put nine columns in portrait with cells of 10-15 lines)."""
    tall = {}
    for c in cells:
        if c["table"] not in LONG_TEXT_TABLES and c["lines"] > MAX_CELL_LINES:
            tall.setdefault(c["table"], []).append(f"{c['lines']} lines: {c['text'][:40]!r}")
    assert tall == {}


def test_the_density_table_is_short_cells_in_portrait(cells):
    """The density table (issue 20's "Table 18": nine columns, cells of 10-15 lines) has at most
    seven columns and no cell over DENSITY_CELL_LINES lines."""
    density = [c for c in cells if c["table"] == "T_density"]
    assert density, "no density table in the print HTML"
    assert len({c["text"] for c in density if c["tag"] == "th"}) <= 7
    assert max(c["lines"] for c in density) <= DENSITY_CELL_LINES
