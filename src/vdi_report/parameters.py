"""The report parameters, declared once: each one's Make variable, papermill name, default,
meaning and, for a parameter of the sizing scenario, its type and range.

Everything else is generated from ``PARAMETERS``: the Make variables, ``make help`` and the
README's table (``stages``), the checks before anything runs (``stages.check_parameters``), the
scenario's validation (``check_scenario``, which ``models.scenario.validate`` is), the
command line of ``python -m vdi_report.models.scenario`` (``cli_flag``), the report notebook's
defaults (``notebook_defaults``), the Context's scenario (``SCENARIO``), and the HTML
calculator's fields and the JavaScript twin's ranges (``declaration``, written into
``sizing_inputs.json`` as ``parameters``). Adding a scenario parameter is one ``Param`` here, its
use in ``scenario.size`` and its test.

Importing this module imports no third-party package (the Makefile runs ``stages``, which
imports it); it reads the vocabulary through ``config`` (the eras).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import config

INTEGER, NUMBER, CHOICE = "integer", "number", "choice"  # the kinds of a scenario parameter


@dataclass(frozen=True)
class Param:
    """A report parameter: Make variable ``var`` -> papermill parameter ``name`` (contract).

    A scenario parameter (``kind`` set: ``integer``, ``number`` or ``choice``) is an input of
    ``scenario.size``, checked by ``check`` below against ``low``/``high`` (``closed``: which
    ends are allowed, ``"[]"``, ``"(]"``, ``"[)"`` or ``"()"``; None: no end) or ``choices``;
    ``hint`` completes its error message (``<name> must be <hint>``, or for a choice ``unknown
    <name> ...; use <hint>``); ``label`` and ``step`` make its field in the HTML calculator."""

    var: str
    name: str
    default: str
    doc: str
    path: bool = False  # passed as an absolute path; its content's SHA-256 enters the stamp
    # How the value is checked before anything runs: "module:function" called with the value (a
    # str), raising ValueError with the reason; empty: the scenario's check (``kind``) when it has
    # one, else only that a file parameter names a readable file.
    check: str = ""
    # What an empty value means, as a Make expression evaluated once per build (e.g. today's date):
    # the build passes this effective value to the notebooks, checks it and records it in the stamp.
    empty: str = ""
    kind: str = ""
    low: float | None = None
    high: float | None = None
    closed: str = "[]"
    choices: tuple[str, ...] = ()
    hint: str = ""
    label: str = ""
    step: str = "any"


def check_date(value: str) -> str:
    """A report date: empty (today) or an ISO date ``YYYY-MM-DD`` that exists; raises ValueError."""
    import datetime
    import re

    if value == "":
        return value
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise ValueError("not a date: expected YYYY-MM-DD (e.g. 2026-11-25), or empty for today")
    try:
        datetime.date.fromisoformat(value)
    except ValueError as exc:
        raise ValueError(f"not a date ({exc}): expected YYYY-MM-DD (e.g. 2026-11-25), or empty for today") from None
    return value


MINUTES = "a positive number of minutes"

# The report parameters (shared contract; defaults as agreed). COST_FILE enters the
# parameter stamp by the SHA-256 of its content, not only its name. RAID's choices are
# models.scenario.WRITE_PENALTY's keys (a test checks it).
PARAMETERS = (
    Param(
        "DESKTOPS",
        "desktops",
        "2000",
        "desktops in the sizing scenario",
        kind=INTEGER,
        low=0,
        closed="()",
        hint="a positive whole number",
        label="Desktops",
        step="1",
    ),
    Param(
        "CONCURRENCY",
        "concurrency",
        "1.0",
        "fraction of the desktops active at once",
        kind=NUMBER,
        low=0,
        high=1,
        closed="(]",
        hint="a fraction in (0, 1], e.g. 0.8 for 80 % of desktops active at once",
        label="Concurrency (fraction active)",
        step="0.05",
    ),
    Param(
        "HEADROOM",
        "headroom",
        "0.2",
        "fraction of each resource kept free",
        kind=NUMBER,
        low=0,
        high=1,
        closed="[)",
        hint="a fraction in [0, 1), e.g. 0.2 for 20 %",
        label="Headroom (fraction kept free)",
        step="0.05",
    ),
    Param(
        "BOOT_WINDOW",
        "boot_window_min",
        "30",
        "minutes to boot every provisioned desktop (all DESKTOPS, whatever CONCURRENCY: a maintenance reboot)",
        kind=NUMBER,
        low=0,
        closed="()",
        hint=MINUTES,
        label="Boot window (minutes, all desktops)",
        step="1",
    ),
    Param(
        "RAID",
        "raid",
        "none",
        "none, raid10, raid5 or raid6 (write penalty 1, 2, 4, 6)",
        kind=CHOICE,
        choices=("none", "raid10", "raid5", "raid6"),
        hint="one of none, raid10, raid5, raid6",
        label="RAID",
    ),
    Param(
        "FAILOVER",
        "failover",
        "none",
        "none or controller (sized with one controller down)",
        kind=CHOICE,
        choices=("none", "controller"),
        hint="none or controller (sized with one controller down)",
        label="Failover",
    ),
    Param(
        "CLONE_TYPE",
        "clone_type",
        "linked",
        "linked or full: capacity per desktop by clone type (per-array answers)",
        check="vdi_report.models.verdicts:validate_clone_type",
    ),
    Param(
        "LATENCY_TARGET_MS",
        "latency_target_ms",
        "15",
        "latency target in ms: a load counts as demonstrated only where its own latency met it (per-array answers)",
        check="vdi_report.models.verdicts:validate_latency_target",
    ),
    Param(
        "REPORT_DATE",
        "report_date",
        "",
        "date printed on the report, YYYY-MM-DD (empty: the day of the build, which the stamp records)",
        check="vdi_report.parameters:check_date",
        empty="$(shell printf '%(%F)T' -1)",  # the shell's own clock: no date program started
    ),
    Param(
        "ERA",
        "era",
        "modern",
        "era of the planning figures: seed (2016–2018 documents) or modern (2022–2024)",
        kind=CHOICE,
        choices=tuple(config.ERAS),
        hint="seed (the 2016–2018 documents) or modern (the 2022–2024 documents)",
        label="Era",
    ),
    Param(
        "LOGIN_WINDOW",
        "login_window_min",
        "30",
        "minutes for all concurrently active users to log in",
        kind=NUMBER,
        low=0,
        closed="()",
        hint=MINUTES,
        label="Login window (minutes, active users)",
        step="1",
    ),
    Param(
        "PROFILE_FILE",
        "profile_file",
        "",
        "profile CSV of your own per-phase figures (empty: the era's)",
        path=True,
        check="vdi_report.models.scenario:read_profile",
    ),
    Param(
        "COST_FILE",
        "cost_file",
        "data/raw/cost_assumptions.csv",
        "cost assumptions CSV",
        path=True,
        check="vdi_report.models.cost:check_cost_file",
    ),
    # A reviewer's analysis choices (raw.choices): optional (empty: the declared defaults); the model
    # stage re-runs only when the options of the choices it applies change (its choices stamp).
    Param(
        "CHOICES",
        "choices_file",
        "",
        "reviewer's analysis choices CSV (choice_id, option)",
        path=True,
        check="vdi_report.raw.choices:resolve",
    ),
)

SCENARIO = tuple(p for p in PARAMETERS if p.kind)  # the inputs of scenario.size, in declared order
SCENARIO_NAMES = tuple(p.name for p in SCENARIO)


def _inside(p: Param, v: float) -> bool:
    low_ok = p.low is None or (v >= p.low if p.closed[0] == "[" else v > p.low)
    high_ok = p.high is None or (v <= p.high if p.closed[1] == "]" else v < p.high)
    return low_ok and high_ok


def check(p: Param, value) -> int | float | str:
    """``value`` of the scenario parameter ``p`` typed (int for ``integer``, float for
    ``number``, str for ``choice``); raises ValueError ``<name> must be <hint>, got <value>``
    (a number out of range, not finite, or not whole for an integer) or ``unknown <name>
    <value>; use <hint>`` (a choice not declared)."""
    if p.kind == CHOICE:
        if value not in p.choices:
            raise ValueError(f"unknown {p.name} {value!r}; use {p.hint}")
        return value
    try:
        v = float(value)
    except (TypeError, ValueError):
        v = math.nan
    if not (math.isfinite(v) and _inside(p, v)) or (p.kind == INTEGER and v != int(v)):
        raise ValueError(f"{p.name} must be {p.hint}, got {value!r}")
    return int(v) if p.kind == INTEGER else v


def check_scenario(*args, **values) -> dict:
    """Every scenario parameter (``SCENARIO``), typed by ``check``: given positionally in
    declared order or by name; a missing one takes its declared default. Raises ValueError (a bad
    value, the first in declared order) or TypeError (a name that is not a scenario parameter,
    or too many positional values)."""
    if len(args) > len(SCENARIO):
        raise TypeError(f"at most {len(SCENARIO)} scenario parameters, got {len(args)}")
    given = {**dict(zip(SCENARIO_NAMES, args, strict=False)), **values}
    unknown = sorted(set(given) - set(SCENARIO_NAMES))
    if unknown:
        raise TypeError(f"not a scenario parameter: {', '.join(unknown)}; they are {', '.join(SCENARIO_NAMES)}")
    return {p.name: check(p, given.get(p.name, p.default)) for p in SCENARIO}


def declaration() -> list[dict]:
    """The scenario parameters as JSON-able dicts (name, kind, default typed, low, high, closed,
    choices, hint, label, step): ``sizing_inputs.json``'s ``parameters``, from which the
    JavaScript twin checks a scenario and the HTML calculator lays out its fields."""
    return [
        {
            "name": p.name,
            "kind": p.kind,
            "default": check(p, p.default),
            "low": p.low,
            "high": p.high,
            "closed": p.closed,
            "choices": list(p.choices),
            "hint": p.hint,
            "label": p.label,
            "step": p.step,
        }
        for p in SCENARIO
    ]


def cli_flag(p: Param) -> str:
    """The command-line option of a parameter: its Make variable in lower case with hyphens
    (``BOOT_WINDOW`` -> ``--boot-window``)."""
    return "--" + p.var.lower().replace("_", "-")


def notebook_defaults() -> dict[str, str]:
    """{papermill name: default} of every report parameter, as the report notebook starts with
    them before papermill's injected cell (a file parameter empty: the notebook runs elsewhere
    than the project root)."""
    return {p.name: "" if p.path else p.default for p in PARAMETERS}
