"""Time the built HTML report in headless Chromium (part of ``make bench``; prints, asserts nothing).

``python -m vdi_report.bench_page LABEL=PATH [LABEL=PATH ...]`` opens each report HTML offline
in a 1366 x 768 window (a laptop; issue 27's budgets) and prints, per file, the medians of
``RUNS`` page loads and ``RUNS`` batches of keystrokes:

- ``page ready``: milliseconds from navigation start to the end of the ``load`` event (the
  evidence explorer is set up only when it comes into view, so it is not part of this);
- ``explorer set up``: milliseconds from scrolling the evidence explorer into view to its table
  showing rows;
- ``calculator keystroke``: milliseconds per ``input`` event on the calculator's desktop count,
  over a batch of ``KEYS`` events in one task (each sizes the scenario; the address is written
  after typing pauses, outside the batch).

Budgets (issue 27, on a quiet 2-core machine): page ready 1,500 ms, keystroke 2 ms. Exits 0 and
prints ``skipped`` when no system Chromium is found (``system.chromium_path``).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

RUNS = 5
KEYS = 50
LAPTOP = {"width": 1366, "height": 768}
BUDGETS_MS = {"page ready": 1500.0, "calculator keystroke": 2.0}

_KEYSTROKES = """(keys) => {
  const box = document.getElementById("calc-desktops"), t0 = performance.now();
  for (let i = 0; i < keys; i++) {
    box.value = String(2000 + i);
    box.dispatchEvent(new Event("input", { bubbles: true }));
  }
  return (performance.now() - t0) / keys;
}"""


def measure(browser, html: Path) -> dict[str, list[float]]:
    """Time one report file: {measure name: [milliseconds per run]} (names as in the module doc).

    Raises playwright's ``TimeoutError`` when the explorer shows no rows within a minute.
    """
    out: dict[str, list[float]] = {"page ready": [], "explorer set up": [], "calculator keystroke": []}
    for _ in range(RUNS):
        ctx = browser.new_context(offline=True, viewport=LAPTOP)
        try:
            pg = ctx.new_page()
            pg.goto(html.resolve().as_uri(), wait_until="load")
            out["page ready"].append(
                pg.evaluate("() => { const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd; }")
            )
            t0 = pg.evaluate("() => performance.now()")
            pg.locator("#evidence-explorer").scroll_into_view_if_needed()
            pg.wait_for_function("() => document.querySelectorAll('#evidence tbody tr').length > 1", timeout=60_000)
            out["explorer set up"].append(pg.evaluate("() => performance.now()") - t0)
            if pg.locator("#calc-desktops").count():
                pg.evaluate(_KEYSTROKES, 5)  # warm the functions up
                out["calculator keystroke"].append(pg.evaluate(_KEYSTROKES, KEYS))
        finally:
            ctx.close()
    return out


def main(argv: list[str]) -> int:
    from vdi_report.publish import system

    exe = system.chromium_path()
    if exe is None:
        print("  page timings: skipped (no system Chromium; see make check-system)")
        return 0
    from playwright.sync_api import sync_playwright

    files = [a.split("=", 1) for a in argv]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu"])
        try:
            for label, path in files:
                html = Path(path)
                if not html.exists():
                    print(f"  page timings ({label}): no {html}")
                    continue
                for name, ms in measure(browser, html).items():
                    if not ms:
                        print(f"  {name:<34} ({label}) not on this page")
                        continue
                    med, budget = statistics.median(ms), BUDGETS_MS.get(name)
                    verdict = (
                        "" if budget is None else f"  budget {budget:g} ms: {'met' if med <= budget else 'NOT met'}"
                    )
                    runs = ", ".join(f"{x:.2f}" for x in ms)
                    print(f"  {name:<34} ({label}) {med:9.2f} ms{verdict}  (median of {len(ms)}: {runs})", flush=True)
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
