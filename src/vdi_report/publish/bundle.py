"""vl-convert's offline bundle of vega, vega-lite and vega-embed, which the HTML report inlines
once (``render.to_html``): ``python -m vdi_report.publish.bundle`` writes it to ``BUNDLE``.

Building it takes about 2.3 s of one core (measured, vl-convert 1.9). The build makes it in a
stage of its own (``vega_bundle`` in ``stages.py``) that reads no project data and so runs
beside the first stages of a clean build, when the second core is idle, instead of inside the
report's render. The file's first line names the vl-convert version that made it; a
bundle of another version (or none) is built again where it is needed (``vega_bundle``).
"""

from __future__ import annotations

import sys

from .. import config, files

BUNDLE = config.PROJ_ROOT / "build" / "vega-bundle.js"  # ``make clean`` removes build/
HEADER = "// vl-convert {version}: vega, vega-lite and vega-embed (vl_convert.javascript_bundle)\n"


def _header() -> str:
    import vl_convert as vlc

    return HEADER.format(version=vlc.__version__)


def write_bundle() -> str:
    """Build the bundle with the installed vl-convert and write it to ``BUNDLE`` (atomically; left
    untouched when its bytes are the same); returns the JavaScript (without the header line)."""
    import vl_convert as vlc

    js = vlc.javascript_bundle()
    files.write_bytes((_header() + js).encode("utf-8"), BUNDLE)
    return js


def vega_bundle() -> str:
    """The bundle's JavaScript (the same bytes each time): ``BUNDLE`` when the installed
    vl-convert made it, else built now and written there (``write_bundle``)."""
    header = _header()
    try:
        text = BUNDLE.read_text(encoding="utf-8")
    except OSError:
        text = ""
    if text.startswith(header):
        return text[len(header) :]
    return write_bundle()


def main(argv: list[str]) -> int:
    if argv:
        print(__doc__, file=sys.stderr)
        return 2
    js = write_bundle()
    print(f"wrote {BUNDLE} ({len(js) / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    files.end_process(main(sys.argv[1:]))
