"""From raw records to processed tables: ``normalize`` (units, bounds as intervals, per-desktop
figures, comparability, the tests and test-bed tables) feeding stages ``normalize`` and
``combine``."""
