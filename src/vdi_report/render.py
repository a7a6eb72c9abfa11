"""Render an executed report notebook to self-contained HTML and to PDF (nbconvert + WeasyPrint).

One execution, two exports with the project's template (``templates/vdi_report``):
- HTML: interactive charts (``text/html`` first), the Vega bundle inlined once, no CDN script;
- PDF: static SVG charts (``image/svg+xml`` first), print CSS (A4, page numbers), WeasyPrint.

Usage: ``python -m vdi_report.render EXECUTED.ipynb OUT_BASENAME`` writes OUT_BASENAME.html/.pdf.
"""

import logging
import os
import sys
import tempfile
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter
from traitlets.config import Config

from . import config

TEMPLATE_DIR = config.TEMPLATES_DIR / "vdi_report"
HTML_PRIORITY = ["text/html", "image/svg+xml", "image/png", "text/markdown", "text/plain"]
PDF_PRIORITY = ["image/svg+xml", "image/png", "text/html", "text/markdown", "text/plain"]


class SystemLibraryError(RuntimeError):
    """WeasyPrint cannot load pango: the message says what to install."""


PANGO_HINT = ("WeasyPrint needs the system's pango and a font. On Debian/Ubuntu run:\n"
              "  sudo apt-get install -y libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core")


def check_pdf_dependencies() -> None:
    """Raise SystemLibraryError with the install command when WeasyPrint cannot load pango."""
    try:
        import weasyprint  # noqa: F401
    except OSError as exc:
        raise SystemLibraryError(f"{PANGO_HINT}\n(import error: {exc})") from None


def _exporter(priority: list[str]) -> HTMLExporter:
    # The priority must reach the exporter's filters through config (setting it afterwards is ignored).
    cfg = Config({"NbConvertBase": {"display_data_priority": priority}})
    return HTMLExporter(config=cfg, template_name="vdi_report", extra_template_basedirs=[str(config.TEMPLATES_DIR)],
                        exclude_input=True, exclude_input_prompt=True, exclude_output_prompt=True)


def to_html(nb: nbformat.NotebookNode, for_pdf: bool = False) -> str:
    """HTML of an executed notebook: interactive (offline) for the web, static SVG for print."""
    import vl_convert as vlc

    css = (TEMPLATE_DIR / "report.css").read_text(encoding="utf-8")
    if for_pdf:
        css += "\n" + (TEMPLATE_DIR / "print.css").read_text(encoding="utf-8")
    resources = {"report_css": css, "vega_bundle": "" if for_pdf else vlc.javascript_bundle()}
    body, _ = _exporter(PDF_PRIORITY if for_pdf else HTML_PRIORITY).from_notebook_node(nb, resources=resources)
    return body


def _atomic_write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o644)  # mkstemp's 0600 would hide the report from other users
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def render(executed: Path, out_base: Path) -> tuple[Path, Path]:
    """Write ``out_base``.html and ``out_base``.pdf from the executed notebook ``executed``.

    Raises FileNotFoundError for a missing notebook and SystemLibraryError when pango is missing.
    """
    check_pdf_dependencies()
    import weasyprint

    nb = nbformat.read(executed, as_version=4)
    out_base = Path(out_base)
    out_base.parent.mkdir(parents=True, exist_ok=True)
    html_path, pdf_path = out_base.with_suffix(".html"), out_base.with_suffix(".pdf")
    _atomic_write(html_path, to_html(nb).encode("utf-8"))
    logging.getLogger("weasyprint").setLevel(logging.ERROR)  # ~200 warnings on Lab CSS otherwise
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    pdf = weasyprint.HTML(string=to_html(nb, for_pdf=True), base_url=str(out_base.parent)).write_pdf()
    _atomic_write(pdf_path, pdf)
    return html_path, pdf_path


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        html, pdf = render(Path(argv[0]), Path(argv[1]))
    except (SystemLibraryError, FileNotFoundError) as exc:
        print(f"render: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {html} ({html.stat().st_size / 1e6:.1f} MB) and {pdf} ({pdf.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
