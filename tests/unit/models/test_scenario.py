"""The sizing scenario (issue 11): validate(), size() against hand calculations from specific
records, the boot-rate model, the CLI the Makefile calls, and the JavaScript twin (node)."""

import shutil
import subprocess
import sys

import pytest

from vdi_report import config
from vdi_report.models import scenario

EXAMPLE_PROFILE = config.RAW_DIR / "profile_example.csv"

JS = config.PROJ_ROOT / "src" / "vdi_report" / "static" / "sizing.js"


@pytest.mark.parametrize(
    "text, message",
    [
        ("phase,iops,read_share,io_size_kb\n", "line 1: columns must be phase, iops_per_desktop"),
        ("phase,iops_per_desktop,read_share,io_size_kb\nboot,600,0.7,32\nlogin,25,0.5,\n", "missing phase row"),
        ("phase,iops_per_desktop,read_share,io_size_kb\nboot,600,1.7,32\n", "line 2: column 'read_share' = '1.7'"),
        ("phase,iops_per_desktop,read_share,io_size_kb\nboot,-6,0.5,32\n", "line 2: column 'iops_per_desktop' = '-6'"),
        ("phase,iops_per_desktop,read_share,io_size_kb\nlogon,6,0.5,32\n", "line 2: column 'phase' = 'logon'"),
        (
            "phase,iops_per_desktop,read_share,io_size_kb\nboot,6,0.5,\nboot,6,0.5,\n",
            "line 3: column 'phase' = 'boot': phase given twice",
        ),
        ("phase,iops_per_desktop,read_share,io_size_kb\nboot,6,x,\n", "line 2: column 'read_share' = 'x'"),
        (
            "phase,iops_per_desktop,read_share,io_size_kb,login_window_min\nboot,6,0.5,,30\n",
            "line 2: column 'login_window_min' = '30': only the login row has a window",
        ),
        (
            "phase,iops_per_desktop,read_share,io_size_kb,login_window_min\nlogin,6,0.5,,-4\n",
            "line 2: column 'login_window_min' = '-4': expected a positive number of minutes",
        ),
    ],
)
def test_bad_profile_names_file_line_and_column(tmp_path, text, message):
    f = tmp_path / "p.csv"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=message) as e:
        scenario.read_profile(f)
    assert str(f) in str(e.value)
    with pytest.raises(FileNotFoundError, match="profile file not found"):
        scenario.read_profile(tmp_path / "nope.csv")


@pytest.mark.parametrize(
    "change, message",
    [
        ({"desktops": -5}, "desktops must be a positive whole number"),
        ({"desktops": 2.5}, "desktops must be a positive whole number"),
        ({"desktops": "many"}, "desktops must be a positive whole number"),
        ({"concurrency": 0}, "concurrency must be a fraction in \\(0, 1\\]"),
        ({"concurrency": 1.5}, "concurrency must be a fraction"),
        ({"headroom": 1.0}, "headroom must be a fraction in \\[0, 1\\)"),
        ({"headroom": float("nan")}, "headroom must be a fraction"),
        ({"boot_window_min": 0}, "boot_window_min must be a positive number"),
        ({"login_window_min": -1}, "login_window_min must be a positive number"),
        ({"raid": "raid4"}, "unknown raid 'raid4'"),
        ({"failover": "node"}, "unknown failover 'node'"),
        ({"era": "today"}, "unknown era 'today'"),
    ],
)
def test_invalid_parameters_raise_clear_errors(done_when, change, message):
    with pytest.raises(ValueError, match=message):
        scenario.validate(**{**done_when, **change})


def test_valid_parameters_are_typed():
    p = scenario.validate("3000", "0.8", "0.25", "30", "raid5", "none", "seed", "45")
    assert p == {
        "desktops": 3000,
        "concurrency": 0.8,
        "headroom": 0.25,
        "boot_window_min": 30.0,
        "raid": "raid5",
        "failover": "none",
        "era": "seed",
        "login_window_min": 45.0,
    }
    assert scenario.validate(3000)["era"] == scenario.DEFAULT_ERA == "modern"


def _cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "vdi_report.models.scenario", *args], check=False, capture_output=True, text=True
    )


def test_cli_exits_2_with_message_on_bad_values(tmp_path):
    ok = _cli(
        "--desktops",
        "3000",
        "--concurrency",
        "0.8",
        "--boot-window",
        "30",
        "--login-window",
        "30",
        "--era",
        "modern",
        "--profile",
        str(EXAMPLE_PROFILE),
    )
    assert ok.returncode == 0, ok.stderr
    bad = _cli("--desktops", "3000", "--raid", "raid7")
    assert bad.returncode == 2 and "unknown raid 'raid7'" in bad.stderr
    assert "unknown era 'now'" in _cli("--desktops", "3000", "--era", "now").stderr
    f = tmp_path / "bad.csv"
    f.write_text("phase,iops_per_desktop,read_share,io_size_kb\nboot,1,2,\n", encoding="utf-8")
    bad = _cli("--desktops", "3000", "--profile", str(f))
    assert bad.returncode == 2 and "line 2: column 'read_share'" in bad.stderr


@pytest.mark.skipif(shutil.which("node") is None, reason="node not installed: the JavaScript twin cannot be run here")
def test_javascript_twin_defines_a_browser_global():
    code = (
        "const vm = require('vm'); const fs = require('fs'); const ctx = {self: {}};"
        "vm.runInNewContext(fs.readFileSync(process.argv[1], 'utf8'), ctx);"
        "console.log(typeof ctx.self.VdiSizing.size, typeof ctx.module)"
    )
    out = subprocess.run(["node", "-e", code, str(JS)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["function", "undefined"]
