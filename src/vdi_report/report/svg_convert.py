"""Vega-Lite to SVG (vl-convert) in a process of its own: the converter of
``charts.converting_in_background``. This module imports vl-convert and nothing of the report (no
pandas, no Altair), so the process it starts is ready about 0.1 s later.

vl-convert holds the GIL while it converts (measured: a thread converting left the main thread
blocked for 0.68 s while its JavaScript runtime started, then 0.02 to 0.2 s per chart), so a
thread could not convert while the chapters draw; a process can, on the machine's other core.
Its runtime's start (0.7 s) need not wait for the first chart either: the report stage's kernel
calls ``start`` as it starts (``execute --render``), while it imports pandas and Altair, and the
chapters then find it ready (``take``).
"""

import vl_convert as vlc

_STARTED = []  # the pool ``start`` made, until ``take`` takes it


def to_svg(spec: dict) -> str:
    """vl-convert's SVG of the Vega-Lite ``spec`` (a dict). Raises ValueError (vl-convert's
    message) for a spec it cannot convert."""
    return vlc.vegalite_to_svg(spec)


def _warm_up() -> None:
    """Start vl-convert's JavaScript runtime with a one-point chart (its first conversion takes
    about 0.7 s, later ones 0.02 to 0.2 s); an error is left to the real conversions."""
    try:
        to_svg({"data": {"values": [{"x": 0}]}, "mark": "point", "encoding": {"x": {"field": "x"}}})
    except Exception:  # noqa: BLE001 - a real conversion meets the same error where it happens
        pass


def _quiet() -> None:
    """The converter process's set-up: Ctrl-C is its parent's to handle (the process ends with
    it), and it prints nothing (a conversion's error reaches the caller of ``get``; a parent gone
    mid-conversion, e.g. a stage stopped, would otherwise leave a traceback on the terminal)."""
    import os
    import signal
    import sys

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - the process's stderr until it ends


def converter():
    """A new converter: a ``multiprocessing`` pool of one process, spawned (not forked: a fork
    of a process with threads, or of one whose vl-convert runtime already started, could hang),
    its runtime starting at once. Use ``apply_async(to_svg, (spec,))``; ``terminate()`` it."""
    import multiprocessing

    pool = multiprocessing.get_context("spawn").Pool(1, initializer=_quiet)
    pool.apply_async(_warm_up)
    return pool


def start() -> None:
    """Start a converter now for the next ``take`` (a second call before it is taken does nothing)."""
    if not _STARTED:
        _STARTED.append(converter())


def take():
    """The converter ``start`` made (now the caller's to terminate), else a new one."""
    return _STARTED.pop() if _STARTED else converter()
