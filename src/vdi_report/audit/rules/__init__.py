"""The consistency rules, one module each. Importing this package imports every module in it,
which registers its rule (``@registry.rule``); the rule's ``order`` sets the order they run and
appear in the report. Adding a rule is adding one module here and its test file
``tests/unit/audit/test_<module>.py`` (``tests/unit/audit/test_registry.py`` fails without it)."""

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
