"""Vega-Lite to SVG (vl-convert) for a process of its own: what the converter process of
``charts.converting_in_background`` imports and runs. It imports vl-convert and nothing of the
report (no pandas, no Altair), so the process is ready about 0.1 s after it is started.

vl-convert holds the GIL while it converts (measured: a thread converting left the main thread
blocked for 0.68 s while its JavaScript runtime started, 0.02 to 0.2 s per chart after that), so a
thread could not convert while the chapters draw; a process can, on the machine's other core.
"""

import vl_convert as vlc


def to_svg(spec: dict) -> str:
    """vl-convert's SVG of the Vega-Lite ``spec`` (a dict). Raises ValueError (vl-convert's
    message) for a spec it cannot convert."""
    return vlc.vegalite_to_svg(spec)
