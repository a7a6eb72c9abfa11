"""The system packages the PDF needs: headless Chromium, which prints it (and which the browser
tests drive). ``python -m vdi_report.publish.system`` prints where it is, or what to install
(exit status 1).

Imports nothing beyond the standard library: the build checks the system once, first thing in a
clean build (``build/system.stamp``), beside the parameters' check, and importing the renderer
(nbconvert, BeautifulSoup: 0.6 s) only to look for a file held up the validation's start.
"""

import os
import sys
from pathlib import Path


class SystemLibraryError(RuntimeError):
    """The system Chromium that prints the PDF is missing: the message says what to install."""


CHROMIUM_HINT = (
    "The PDF is printed by Chromium, and the browser tests drive it. On Debian/Ubuntu run:\n"
    "  sudo apt-get install -y chromium fonts-dejavu-core\n"
    "(or set VDI_CHROMIUM to a Chromium or Chrome executable)"
)


def chromium_path() -> str | None:
    """The system Chromium (``VDI_CHROMIUM`` or the usual Debian paths), None when there is none."""
    for p in (os.environ.get("VDI_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if p and Path(p).exists():
            return p
    return None


def check_pdf_dependencies() -> str:
    """The Chromium that prints the PDF; raises SystemLibraryError with the install command when
    there is none."""
    path = chromium_path()
    if path is None:
        raise SystemLibraryError(CHROMIUM_HINT)
    return path


def check_system() -> int:
    """Print what the PDF (and the browser tests) need and whether it is there; 1 if missing."""
    try:
        print(f"PDF and browser tests: Chromium at {check_pdf_dependencies()}")
    except SystemLibraryError as exc:
        print(exc)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(check_system())
