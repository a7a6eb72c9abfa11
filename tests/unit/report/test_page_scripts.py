"""The HTML report's page scripts live in src/vdi_report/static/*.js (issue 27): checked by node,
rebuilt with the report when they change, and no report module writes a script body itself."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from vdi_report import config, stages

STATIC = Path(config.PROJ_ROOT) / "src" / "vdi_report" / "static"
REPORT = Path(config.PROJ_ROOT) / "src" / "vdi_report" / "report"


@pytest.mark.parametrize("script", sorted(p.name for p in STATIC.glob("*.js")))
def test_each_page_script_is_valid_javascript(script):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the browser tests run these scripts in Chromium")
    proc = subprocess.run([node, "--check", str(STATIC / script)], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_no_report_module_writes_a_function_body_into_an_f_string():
    """A script body inside a Python f-string (doubled braces) is seen by no JavaScript check."""
    found = []
    for py in sorted(REPORT.glob("*.py")):
        text = py.read_text(encoding="utf-8")
        for m in re.finditer(r"function\s*\([^)]*\)\s*\{\{", text):
            found.append(f"{py.name}:{text.count(chr(10), 0, m.start()) + 1}")
    assert not found, f"move these scripts to src/vdi_report/static/*.js: {found}"


def test_no_report_module_holds_a_script_body_in_a_string():
    """A <script> element whose body is typed in a Python string (beyond a line or two) belongs
    in static/*.js: the string constants of every report module, f-string parts included."""
    import ast

    found = []
    for py in sorted(REPORT.glob("*.py")) + sorted((REPORT / "sections").glob("*.py")):
        for node in ast.walk(ast.parse(py.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                for m in re.finditer(r"<script[^>]*>([^<]*)", node.value):
                    if m.group(1).count("\n") >= 3:
                        found.append(f"{py.name}:{node.lineno}")
    assert not found, f"move these scripts to src/vdi_report/static/*.js: {found}"


def test_the_report_stage_rebuilds_when_a_page_script_changes():
    rules = stages.make_rules()
    line = next(x for x in rules.splitlines() if x.startswith("STAGE_REPORT_IN :="))
    assert "$(wildcard src/vdi_report/static/*.js)" in line


def test_the_calculator_reads_its_settings_from_a_json_block(tmp_path):
    """The values the calculator's script used to receive by string interpolation come as JSON
    (JSON.parse refuses NaN: a profile figure that is not a number fails the build, not the page)."""
    from vdi_report.report import calculator

    block = calculator.json_block({"gt_sign": "≥", "x": "</script>"})
    assert "</" not in block and json.loads(block) == {"gt_sign": "≥", "x": "</script>"}
    with pytest.raises(ValueError):
        calculator.json_block({"profile": float("nan")})
    js = calculator.CALCULATOR_JS.read_text(encoding="utf-8")
    for key in ("columns", "address_pause_ms", "phases", "gt_sign", "profile"):
        assert f"CONFIG.{key}" in js
