"""The chapters kept between runs (report/chapter_cache.py) are the chapters drawn again.

A chapter that states ``PARAMETERS`` is replayed from build/chapters/ while those parameters and
the report's other inputs are unchanged. That is right only when its outputs depend on no other
parameter and on none of the tables the scenario stage makes from the parameters: each such
chapter is drawn here with every other parameter changed and those tables unreadable, and must
give the same outputs. Then a report run replaying every kept chapter gives the same report as a
run drawing them all.
"""

import datetime
import re
import shutil

import pytest

from vdi_report import config, parameters
from vdi_report.raw import choices as analysis
from vdi_report.report import chapter_cache, context, sections

pytestmark = pytest.mark.report

# every kept chapter or part: (its name in the cache, its function of ctx, the parameters it states)
KEPT = [p for c in sections.CHAPTERS for p in sections.parts(c) if p[2] is not None]
DRAWN = [p for c in sections.CHAPTERS for p in sections.parts(c) if p[2] is None]


@pytest.fixture(scope="module")
def shell():
    """An IPython shell, so that the chapters' displays are captured as in the report's kernel."""
    from IPython.core.interactiveshell import InteractiveShell

    return InteractiveShell.instance()


def _other_value(p: parameters.Param, tmp_path) -> str:
    """A valid value of ``p`` other than its default (the file parameters: another file)."""
    if p.path:
        if p.name == "profile_file":
            return str(config.RAW_DIR / "profile_example.csv")
        if p.name == "choices_file":
            decl = analysis.declared()
            first = decl.ids[0]
            other = next(o for o in decl.options[first] if o != decl.default[first])
            f = tmp_path / "choices.csv"
            f.write_text(f"choice_id,option\n{first},{other}\n", encoding="utf-8")
            return str(f)
        f = tmp_path / f"{p.name}.csv"
        shutil.copyfile(config.PROJ_ROOT / p.default, f)
        return str(f)
    if p.kind == parameters.CHOICE:
        return next(c for c in p.choices if c != p.default)
    if p.kind:
        v = float(p.default)
        for other in (v * 1.5, v / 2, v + 1):
            text = str(int(other)) if p.kind == parameters.INTEGER else f"{other:g}"
            try:
                parameters.check(p, text)
            except ValueError:
                continue
            if float(text) != v:
                return text
    by_name = {"clone_type": "full", "latency_target_ms": "10", "report_date": "2030-01-02"}
    assert p.name in by_name, f"give report parameter {p.name} another valid value here"
    return by_name[p.name]


class WithoutScenario(context.Context):
    """A Context whose scenario-stage tables cannot be read (a chapter kept between runs must not)."""

    def __getattr__(self, name):
        if context.TABLES.get(name) in chapter_cache.SCENARIO_TABLES:
            raise AssertionError(f"reads ctx.{name}, a table the scenario stage makes from the parameters")
        return super().__getattr__(name)


def _same(outputs: list[dict]) -> list[dict]:
    """The outputs with the object addresses of ``text/plain`` reprs blanked (they differ per run)."""
    return [
        {**o, "data": {k: re.sub(r" at 0x[0-9a-f]+", "", v) if k == "text/plain" else v for k, v in o["data"].items()}}
        for o in outputs
    ]


def _defaults() -> dict:
    p = parameters.notebook_defaults()
    p["report_date"] = p.get("report_date") or datetime.date.today().isoformat()
    return p


def test_some_chapters_and_parts_are_kept_and_the_others_are_drawn_each_run():
    kept = {name for name, _, _ in KEPT}
    assert kept >= {"evidence", "audit", "models.iops_model", "models.profile_density_cost", "appendix.registers"}
    # the scenario's chapter, the boot-demand chart at the scenario's rate, the scenario, the colophon
    drawn = {name for name, _, _ in DRAWN}
    assert drawn == {"answers", "models.boot_demand", "models.scenario", "appendix.colophon_part"}


def test_parts_cover_their_chapter(shell):
    """A chapter with PARTS draws exactly its parts, in their order."""
    for chapter in (c for c in sections.CHAPTERS if hasattr(c, "PARTS")):
        whole = sections.draw(chapter, context.Context(_defaults()))
        parts = [part for _, part, _ in sections.parts(chapter)]
        pieces = [o for part in parts for o in sections.draw(part, context.Context(_defaults()))]
        assert _same(pieces) == _same(whole), chapter.__name__


@pytest.mark.parametrize("kept", KEPT, ids=lambda p: p[0])
def test_a_kept_chapter_depends_only_on_the_parameters_it_states(kept, shell, tmp_path):
    _, part, stated = kept
    base = _defaults()
    drawn = sections.draw(part, context.Context(dict(base)))
    assert drawn, "the chapter showed nothing"
    changed = dict(base)
    others = [p for p in parameters.PARAMETERS if p.name not in stated]
    for p in others:
        changed[p.name] = _other_value(p, tmp_path)
    again = sections.draw(part, WithoutScenario(changed))
    assert _same(again) == _same(drawn), f"outputs moved with one of {[p.name for p in others]}"


def test_replayed_chapters_give_the_report_drawn_again(shell, tmp_path):
    """A report run that replays every kept chapter shows what a run drawing every chapter shows."""
    from IPython.utils.capture import capture_output

    def run(cache_dir) -> list[dict]:
        with capture_output(display=True) as cap:
            sections.render_all(context.Context(_defaults()), cache_dir)
        return _same([{"data": dict(o.data), "metadata": dict(o.metadata or {})} for o in cap.outputs])

    drawn = run(None)
    assert len(drawn) > 50
    kept, replayed = run(tmp_path), run(tmp_path)  # the first run keeps the chapters, the second replays them
    assert len(list(tmp_path.glob("*.json"))) == len(KEPT)
    assert kept == drawn and replayed == drawn


def test_the_key_moves_with_a_stated_parameter_a_file_and_the_inputs(tmp_path):
    digest = chapter_cache.inputs_digest()
    p = {"era": "modern", "choices_file": "", "desktops": 2000}
    k = chapter_cache.key("sensitivity", ("era", "choices_file"), p, digest)
    assert chapter_cache.key("sensitivity", ("era", "choices_file"), {**p, "desktops": 9000}, digest) == k
    assert chapter_cache.key("sensitivity", ("era", "choices_file"), {**p, "era": "seed"}, digest) != k
    assert chapter_cache.key("sensitivity", ("era", "choices_file"), p, digest[::-1]) != k
    assert chapter_cache.key("audit", ("era", "choices_file"), p, digest) != k
    f = tmp_path / "choices.csv"
    f.write_text("choice_id,option\n", encoding="utf-8")
    with_file = chapter_cache.key("audit", ("choices_file",), {**p, "choices_file": str(f)}, digest)
    f.write_text("choice_id,option\n\n", encoding="utf-8")  # same path, other content
    assert chapter_cache.key("audit", ("choices_file",), {**p, "choices_file": str(f)}, digest) != with_file
    with pytest.raises(KeyError, match="not report parameters"):
        chapter_cache.key("audit", ("desktop",), p, digest)


def test_the_inputs_digest_leaves_out_only_what_the_parameters_make():
    made = {f.name for f in chapter_cache.PARAMETER_MADE}
    assert made == {f"{n}.csv" for n in chapter_cache.SCENARIO_TABLES} | {"datapackage.json"}
    assert {"sizing_scenario", "array_verdicts", "boot_demand"} == set(chapter_cache.SCENARIO_TABLES)


def test_a_kept_file_is_read_only_under_its_key(tmp_path):
    chapter_cache.write("x", "a" * 64, [{"data": {"text/html": "<p>1</p>"}, "metadata": {}}], tmp_path)
    assert chapter_cache.read("x", "a" * 64, tmp_path) == [{"data": {"text/html": "<p>1</p>"}, "metadata": {}}]
    assert chapter_cache.read("x", "a" * 24 + "b" * 40, tmp_path) is None  # same file name, other key
    (tmp_path / f"x-{'a' * 24}.json").write_text("{", encoding="utf-8")
    assert chapter_cache.read("x", "a" * 64, tmp_path) is None
    for i in range(chapter_cache.KEEP + 2):
        chapter_cache.write("x", f"{i:02d}" + "0" * 62, [], tmp_path)
    assert len(list(tmp_path.glob("x-*.json"))) == chapter_cache.KEEP


def test_charts_converted_in_the_background_give_the_report_drawn_in_line(shell, tmp_path, monkeypatch):
    """render_all converts the charts not in the SVG cache in a process while the chapters draw
    (``charts.converting_in_background``), then puts each in its place: the outputs are those of
    every chapter drawn in line, chart by chart, in the same order."""
    from IPython.utils.capture import capture_output

    from vdi_report.report import charts

    monkeypatch.setattr(charts, "SVG_CACHE_DIR", tmp_path / "svg")  # nothing cached: every chart converts
    added = []
    add = charts.Pending.add
    monkeypatch.setattr(charts.Pending, "add", lambda self, *a: added.append(a[0]) or add(self, *a))
    with capture_output(display=True) as cap:
        sections.render_all(context.Context(_defaults()), None)
    background = _same([{"data": dict(o.data), "metadata": dict(o.metadata or {})} for o in cap.outputs])
    assert len(added) >= 5, "the charts were not converted in the background"
    assert not any(charts.Pending.TOKEN in str(o["data"]) for o in background)
    in_line = _same([o for c in sections.CHAPTERS for o in sections.draw(c, context.Context(_defaults()))])
    assert background == in_line


def test_a_chart_that_fails_to_convert_fails_where_it_is_put_in(tmp_path, monkeypatch):
    """A spec vl-convert cannot convert (in the converter process) raises its ValueError where the
    chart is put in; nothing is kept in the SVG cache."""
    from vdi_report.report import charts

    monkeypatch.setattr(charts, "SVG_CACHE_DIR", tmp_path)
    with charts.converting_in_background() as pending:
        token = pending.add({"mark": "no-such-mark"}, tmp_path / "x.svg", lambda svg: {"image/svg+xml": svg})
        outputs = [{"data": token, "metadata": {}}]
        with pytest.raises(ValueError, match="conversion failed"):
            pending.resolve(outputs)
    assert not (tmp_path / "x.svg").exists()
