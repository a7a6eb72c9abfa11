"""The rule registry (``audit.registry``): every rule module has its own test file, every registered
rule its tests, label and description; a name registered twice is an error."""

import ast
import pkgutil
from pathlib import Path

import pytest

from vdi_report import audit
from vdi_report.audit import rules
from vdi_report.report import audit_tables

HERE = Path(__file__).parent
RULES_DIR = Path(rules.__file__).parent
AUDIT_DIR = RULES_DIR.parent  # the package's shared modules (common, registry, run) have a test file here too


def modules(package_dir: Path) -> set[str]:
    """The modules (not subpackages) of the package folder ``package_dir``."""
    return {m.name for m in pkgutil.iter_modules([str(package_dir)]) if not m.ispkg}


def untested_modules(package_dir: Path, tests_dir: Path) -> list[str]:
    """The modules of ``package_dir`` without a test file ``tests_dir/test_<module>.py``, sorted."""
    return sorted(m for m in modules(package_dir) if not (tests_dir / f"test_{m}.py").is_file())


def function_names(path: Path) -> set[str]:
    """The names of the top-level functions of the test file ``path``."""
    return {n.name for n in ast.parse(path.read_text(encoding="utf-8")).body if isinstance(n, ast.FunctionDef)}


def test_every_rule_module_has_its_own_test_file():
    """Adding an audit rule is adding its module under audit/rules/ and tests/unit/audit/test_<module>.py;
    the audit package's own modules have theirs, and every test file here names one of them."""
    assert untested_modules(RULES_DIR, HERE) == []
    assert untested_modules(AUDIT_DIR, HERE) == []
    known = modules(RULES_DIR) | modules(AUDIT_DIR)
    strays = sorted(p.name for p in HERE.glob("test_*.py") if p.stem.removeprefix("test_") not in known)
    assert strays == [], f"test files in {HERE} that name no module of vdi_report.audit: {strays}"


def test_a_rule_module_without_a_test_file_is_found(tmp_path):
    rules_dir, tests_dir = tmp_path / "rules", tmp_path / "tests"
    rules_dir.mkdir()
    tests_dir.mkdir()
    for name in ("__init__", "same_quantity", "new_rule"):
        (rules_dir / f"{name}.py").write_text("", encoding="utf-8")
    (tests_dir / "test_same_quantity.py").write_text("", encoding="utf-8")
    assert untested_modules(rules_dir, tests_dir) == ["new_rule"]


def test_every_registered_rule_has_its_own_tests_and_report_text():
    """Each rule in the registry has, in the test file of its module, a test function named after it
    (fires on a planted error, silent on a clean case), a label and a description; the report's rule
    list is the registry."""
    for name, r in audit.RULES.items():
        module = r.check.__module__.rsplit(".", 1)[-1]
        path = HERE / f"test_{module}.py"
        assert path.is_file(), f"rule {name!r} (module {module}) has no {path}"
        assert any(t.startswith(f"test_{name}") for t in function_names(path)), f"no test_{name}* in {path}"
        assert r.label and len(r.description) > 20 and r.name == name
    listed = audit_tables.rules_list()
    assert list(listed["Check"]) == [r.label for r in audit.RULES.values()]
    assert [r.order for r in audit.RULES.values()] == sorted(r.order for r in audit.RULES.values())


def test_rule_registry_rejects_a_duplicate_name():
    with pytest.raises(ValueError, match="registered twice"):
        audit.rule(1, "same_quantity", "x", "y")(lambda df: [])
