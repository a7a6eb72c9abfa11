"""The consistency rules, one module each; importing this package registers them (in this order,
which is the order they run and appear in the report)."""

from . import (  # noqa: F401  (imported for registration)
    average_above_peak,
    capacity,
    comparison,
    count_product,
    per_desktop,
    read_write_total,
    same_quantity,
    shares_sum,
    testbed_cpu,
)
