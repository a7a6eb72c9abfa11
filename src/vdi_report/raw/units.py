"""Units: one pint registry with the storage units the vendors print, and the target unit of each metric.

Prefix convention (stated once, used everywhere):
- throughput (``MBps``, ``GBps``) and capacity (``GB``, ``TB``) use decimal SI prefixes, as the
  vendors' array tools print them (1 GB = 10^9 bytes);
- I/O sizes (``KB`` in NetApp's workload profiles, "4K" I/O) are binary, the storage convention
  (a 4 KB I/O is 4,096 bytes). They stay in KB and are never mixed with throughput units.
"""

from __future__ import annotations

import csv
from functools import lru_cache
from typing import TYPE_CHECKING

from .. import config

if TYPE_CHECKING:
    import pint

# pint is imported where a unit is converted (``registry``, ``convert``), not with this module:
# the stages that only read the codebook's units (the report, the scenario) skip its 0.1 to 0.2 s
# import (measured).

# Printed unit spelling (data/raw/README.md) -> pint expression in the registry below. Data
# sizes use an ``octet`` with its own dimension: pint's ``byte`` is dimensionless and would
# silently convert "24TB" into a percentage.
CANONICAL_UNITS = {
    "IOPS": "IOPS",
    "kIOPS": "kIOPS",
    "ms": "ms",
    "µs": "µs",
    "s": "s",
    "min": "min",
    "h": "h",
    "MBps": "Moct/s",
    "GBps": "Goct/s",
    "B": "oct",
    "KB": "KB",
    "MB": "Moct",
    "GB": "Goct",
    "TB": "Toct",
    "PB": "Poct",
    "Gbps": "Gbit_s",
    "%": "percent",
    "count": "count",
    "vCPU": "count",
    "U": "count",
    "ratio": "dimensionless",
    "x": "dimensionless",
    "USD": "USD",
    "GHz": "GHz",
    "MHz": "MHz",
    "W": "W",
}
# pint treats %, counts and ratios alike (dimensionless): only these printed units may express them.
DIMENSIONLESS_FAMILIES = {"%": {"%"}, "count": {"count", "vCPU", "U"}, "ratio": {"ratio", "x"}}

# Normalized units of the data contract (IOPS, ms, MB/s, min, s, %, GB, count, USD) plus KB
# for I/O sizes, MB for page sizes, GHz for clocks, MHz for CPU demand (MHz per core or per
# session, as hyperconverged sizing prints it), W for electrical power (host power draw),
# Gb/s for link speeds, ratio -> pint expression.
NORMALIZED_UNIT_EXPR = {
    "IOPS": "IOPS",
    "MB/s": "Moct/s",
    "ms": "ms",
    "min": "min",
    "s": "s",
    "%": "percent",
    "GB": "Goct",
    "count": "count",
    "USD": "USD",
    "KB": "KB",
    "MB": "Moct",
    "GHz": "GHz",
    "MHz": "MHz",
    "W": "W",
    "Gb/s": "Gbit_s",
    "ratio": "dimensionless",
}


class UnitError(ValueError):
    """A unit that the registry does not know, or that cannot express a metric."""


@lru_cache(maxsize=1)
def registry() -> pint.UnitRegistry:
    """The project's unit registry: pint's defaults plus IOPS, kIOPS, octet-based data sizes, KB, USD."""
    import pint

    ureg = pint.UnitRegistry()
    ureg.define("io = [io]")
    ureg.define("IOPS = io / second")
    ureg.define("kIOPS = 1000 * IOPS")
    ureg.define("octet = [information] = oct")  # decimal prefixes: 1 Goct = 10^9 bytes
    ureg.define("Gbit_s = 1e9 / 8 * octet / second")  # link speed, gigabits per second
    ureg.define("KB = 1024 * octet")  # binary: I/O sizes only (see module docstring)
    ureg.define("USD = [currency]")
    return ureg


@lru_cache(maxsize=1)
def metric_units() -> dict[str, str]:
    """Metric -> normalized unit, from the codebook ``data/raw/metrics.csv`` (metric, unit, definition)."""
    with open(config.RAW_DIR / "metrics.csv", encoding="utf-8", newline="") as fh:
        return {row["metric"]: row["unit"] for row in csv.DictReader(fh)}


def target_unit(metric: str) -> str:
    """Normalized unit of ``metric`` (e.g. ``latency`` -> ``ms``).

    Raises UnitError for a metric missing from ``data/raw/metrics.csv``.
    """
    try:
        return metric_units()[metric]
    except KeyError:
        raise UnitError(f"unknown metric {metric!r}: add it to data/raw/metrics.csv") from None


def convert(value: float, unit: str, metric: str) -> tuple[float, str]:
    """Convert ``value`` printed in ``unit`` to the normalized unit of ``metric``.

    Returns ``(value, normalized_unit)``. Raises UnitError on an unknown unit or metric, or
    when the dimensions do not match (e.g. ``ms`` for an IOPS metric).
    """
    if unit not in CANONICAL_UNITS:
        raise UnitError(f"unknown unit {unit!r}; known units: {', '.join(CANONICAL_UNITS)}")
    target = target_unit(metric)
    family = DIMENSIONLESS_FAMILIES.get(target)
    if family is not None and unit not in family:
        raise UnitError(f"unit {unit!r} cannot express metric {metric!r} (normalized in {target})")
    import pint

    ureg = registry()
    try:
        q = ureg.Quantity(value, CANONICAL_UNITS[unit]).to(NORMALIZED_UNIT_EXPR[target])
    except pint.DimensionalityError as exc:
        raise UnitError(f"unit {unit!r} cannot express metric {metric!r} (normalized in {target})") from exc
    return float(q.magnitude), target
