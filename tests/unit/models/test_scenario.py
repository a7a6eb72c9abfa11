"""The sizing scenario (issue 11): validate(), size() against hand calculations from specific
records, the boot-rate model, the CLI the Makefile calls, and the JavaScript twin (node)."""

import shutil
import subprocess
import sys

import pytest

from vdi_report import config
from vdi_report.models import scenario

JS = config.PROJ_ROOT / "src" / "vdi_report" / "static" / "sizing.js"

DONE_WHEN = {
    "desktops": 3000,
    "worker_class": "knowledge",
    "concurrency": 0.8,
    "headroom": 0.2,
    "boot_window_min": 30,
    "raid": "raid6",
    "failover": "controller",
}


@pytest.mark.parametrize(
    "change, message",
    [
        ({"desktops": -5}, "desktops must be a positive whole number"),
        ({"desktops": 2.5}, "desktops must be a positive whole number"),
        ({"desktops": "many"}, "desktops must be a positive whole number"),
        ({"worker_class": "wizard"}, "unknown worker_class 'wizard'"),
        ({"concurrency": 0}, "concurrency must be a fraction in \\(0, 1\\]"),
        ({"concurrency": 1.5}, "concurrency must be a fraction"),
        ({"headroom": 1.0}, "headroom must be a fraction in \\[0, 1\\)"),
        ({"headroom": float("nan")}, "headroom must be a fraction"),
        ({"boot_window_min": 0}, "boot_window_min must be a positive number"),
        ({"raid": "raid4"}, "unknown raid 'raid4'"),
        ({"failover": "node"}, "unknown failover 'node'"),
    ],
)
def test_invalid_parameters_raise_clear_errors(change, message):
    with pytest.raises(ValueError, match=message):
        scenario.validate(**{**DONE_WHEN, **change})


def test_valid_parameters_are_typed():
    p = scenario.validate("3000", "power", "0.8", "0.25", "30", "raid5", "none")
    assert p == {
        "desktops": 3000,
        "worker_class": "power",
        "concurrency": 0.8,
        "headroom": 0.25,
        "boot_window_min": 30.0,
        "raid": "raid5",
        "failover": "none",
    }


def test_cli_exits_2_with_message_on_bad_values():
    ok = subprocess.run(
        [
            sys.executable,
            "-m",
            "vdi_report.models.scenario",
            "--desktops",
            "3000",
            "--worker",
            "knowledge",
            "--concurrency",
            "0.8",
            "--headroom",
            "0.2",
            "--boot-window",
            "30",
            "--raid",
            "raid6",
            "--failover",
            "controller",
        ],
        check=False,
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0, ok.stderr
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "vdi_report.models.scenario",
            "--desktops",
            "3000",
            "--worker",
            "knowledge",
            "--raid",
            "raid7",
        ],
        check=False,
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "unknown raid 'raid7'" in bad.stderr


@pytest.mark.skipif(shutil.which("node") is None, reason="node not installed: the JavaScript twin cannot be run here")
def test_javascript_twin_defines_a_browser_global():
    code = (
        "const vm = require('vm'); const fs = require('fs'); const ctx = {self: {}};"
        "vm.runInNewContext(fs.readFileSync(process.argv[1], 'utf8'), ctx);"
        "console.log(typeof ctx.self.VdiSizing.size, typeof ctx.module)"
    )
    out = subprocess.run(["node", "-e", code, str(JS)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["function", "undefined"]
