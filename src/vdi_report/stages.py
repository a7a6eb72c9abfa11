"""The build's stages, declared once; the Make rules are generated from them.

Each stage runs one notebook (papermill) or one module, reads catalogue tables and raw files,
writes catalogue tables (or the report) and takes some of the report parameters. Its code
dependencies are found, not listed: the ``vdi_report`` modules its notebook imports, followed
through their own imports (``from . import x``, including imports inside functions). So touching
a module only the report imports re-runs only the report.

The first stage, ``validate``, checks every raw input (``vdi_report.raw.validate``) whenever a
file under ``data/raw`` changes; every other stage waits for it (an order-only prerequisite: a
valid change re-runs only the stages that read it). The report parameters are checked by
``check_parameters`` when they change (``python -m vdi_report.stages --check-params VAR=VALUE
...``), before any stage runs; each one and, for a file parameter, the SHA-256 of the file's
content, enter ``build/params.stamp`` (``PARAMS_LINE_SH``, made by the shell from the
environment: a value is never part of shell text).

``python -m vdi_report.stages`` prints the Make rules (the Makefile writes them to
``build/stages.mk`` and includes them; they are regenerated when this file, a notebook or a
module changes). The generated rules use the Makefile's variables ``PY``, ``NOTEBOOK`` (the
papermill command), ``EXECUTED``, ``SOURCES`` (the ids of data/raw/records/*.csv),
``PARAMS_STAMP``, ``COST_STAMP`` and the function ``step``.

Importing this module reads no data and imports no third-party package (the Makefile runs it).
"""

from __future__ import annotations

import ast
import functools
import sys
from dataclasses import dataclass
from pathlib import Path

from . import catalogue, config, files, parameters

SRC_DIR = config.PROJ_ROOT / "src"
PACKAGE = "vdi_report"
SELF = f"{PACKAGE}.stages"
# Calls that import modules by name at run time (a registry filled by discovery).
DYNAMIC_IMPORTS = {"import_module", "iter_modules", "walk_packages", "__import__"}


# The report parameters are declared once, in ``parameters.PARAMETERS`` (Param, check_date: there).
PARAMETERS = parameters.PARAMETERS


# Raw files every stage reads when it imports the package (config reads the vocabulary, units
# the metrics) or lists the sources.
RAW_COMMON = ("data/raw/sources.csv", "data/raw/vocabulary.csv", "data/raw/metrics.csv")
RECORDS = "$(RECORDS)"  # every data/raw/records/*.csv (a Make variable)
CONTENT_DIR = "build/content"  # one SHA-256 stamp per raw file a stage reads (make_rules)
CHOICES_RAW = "data/raw/analysis_choices.csv"  # the declared analysis choices (raw.choices)


@dataclass(frozen=True)
class Stage:
    """One build step.

    ``notebook``: notebooks/<notebook>.py run by papermill (or ``module``: ``python -m`` with
    ``args``); ``reads``: catalogue table names, plus every table of the stages named in
    ``reads_stages``; ``writes`` is derived: the catalogue tables whose ``stage`` is this
    stage (a new table is declared once, in catalogue.py); ``raw``: further input files
    (relative to the project; Make variables allowed); ``params``: Make variables of
    ``PARAMETERS`` passed to the notebook; ``outputs``: files written besides tables;
    ``render``: the base name of the HTML and PDF the executed notebook is rendered to;
    ``while_starting``: module stages its recipe runs while its kernel starts.
    """

    name: str
    label: str
    notebook: str | None = None
    module: str | None = None
    args: str = ""
    reads_tables: tuple[str, ...] = ()
    reads_stages: tuple[str, ...] = ()
    raw: tuple[str, ...] = ()
    params: tuple[str, ...] = ()
    outputs: tuple[str, ...] = ()
    inputs: tuple[str, ...] = ()
    executed: str = "$(EXECUTED)"  # where the executed notebook goes (the report's: staged, then published)
    # OUT_BASE: the executed notebook rendered to OUT_BASE.html and OUT_BASE.pdf by the same
    # process (``execute --render``, ``publish.render``), Chromium opened while the kernel runs
    render: str = ""
    # module stages this notebook stage's recipe runs itself, in order, while its kernel starts
    # (``make_rules``): the notebook runs once they have succeeded (``execute --wait-go``). They
    # keep their own rules (``make data``); their outputs reach the later stages through this
    # stage's done-stamp.
    while_starting: tuple[str, ...] = ()
    # reads no project data (no raw file, no table, no parameter): its rule has no raw file's
    # content stamp. It still waits for the validation, like every stage: a clean build starts
    # the validation first and runs such a stage beside the next ones, on the idle second core.
    independent: bool = False

    @property
    def writes(self) -> tuple[str, ...]:
        """The catalogue tables this stage writes (catalogue order), from each table's ``stage``."""
        return tuple(n for n, t in catalogue.TABLES.items() if t.stage == self.name)

    @property
    def reads(self) -> tuple[str, ...]:
        """``reads_tables``, then every table written by the stages in ``reads_stages``, in that
        order (Make starts the prerequisites in the order listed: the longest stage first)."""
        extra = tuple(n for st in self.reads_stages for n, t in catalogue.TABLES.items() if t.stage == st)
        return tuple(dict.fromkeys(self.reads_tables + extra))

    @property
    def code_root(self) -> Path:
        if self.notebook:
            return config.NOTEBOOKS_DIR / f"{self.notebook}.py"
        return _module_file(self.module)

    @property
    def exists(self) -> bool:
        return self.code_root.is_file()


VALIDATED = "build/validated.stamp"
# The report's files are made in $(STAGED) (build/publish) and published into reports/ all at once,
# with reports/params.stamp, by the last stage (files.publish): a build killed or failing in between
# leaves the previous set whole.
PUBLISHED = (
    "notebooks/10_report.ipynb",
    "array_verdicts.csv",
    "sizing_scenario.csv",
    "vdi_storage_comparison.html",
    "vdi_storage_comparison.pdf",
)

STAGES = (
    # Every raw input checked at once before any stage writes (the others wait for it).
    Stage(
        "validate",
        "validate the raw inputs",
        module="vdi_report.raw.validate",
        args=f"--stamp {VALIDATED}",
        raw=("$(wildcard data/raw/*.csv)", RECORDS),
        outputs=(VALIDATED,),
    ),
    # The HTML report's Vega bundle (2.3 s), made beside normalize and combine (one core each
    # while their kernels start) instead of in the report's render on a clean build: it depends
    # on the installed vl-convert only ($(STAMP): the environment).
    Stage(
        "vega_bundle",
        "bundle Vega for the HTML report",
        module="vdi_report.publish.bundle",
        inputs=("$(STAMP)",),
        outputs=("build/vega-bundle.js",),
        independent=True,
    ),
    Stage("normalize", "normalize every source", notebook="01_normalize_source", raw=(RECORDS,)),
    Stage(
        "combine",
        "combine the sources",
        notebook="02_combine",
        reads_tables=("normalized",),
        raw=("data/raw/discrepancies.csv", "data/raw/test_setup.csv", RECORDS),
    ),
    # The longest stage (the sensitivity grid) first: under make -j2 the others run beside it.
    Stage(
        "sensitivity",
        "model: sensitivity of the planning figures to each analysis choice",
        notebook="06_sensitivity",
        reads_tables=("results",),
        raw=(CHOICES_RAW,),
    ),
    Stage(
        "audit",
        "audit: consistency rules over all sources",
        notebook="03_audit",
        reads_tables=("results",),
        raw=("data/raw/discrepancies.csv", "data/raw/claims.csv", "data/raw/facts.csv", RECORDS),
    ),
    Stage(
        "iops_model",
        "model: IOPS per desktop with leave-one-vendor-out validation",
        notebook="04_iops_model",
        reads_tables=("results",),
        raw=("data/raw/claims.csv", "data/raw/discrepancies.csv", "data/raw/test_setup.csv", CHOICES_RAW),
        params=("CHOICES",),
        inputs=("build/choices.iops_model.stamp",),
    ),
    Stage(
        "density_cost",
        "model: headroom and density; cost per desktop",
        notebook="05_density_cost",
        reads_tables=("results",),
        raw=("data/raw/claims.csv", "data/raw/discrepancies.csv"),
        params=("COST_FILE",),
        inputs=("$(COST_STAMP)",),
    ),
    # The report's scenario, computed once: sizing per phase and the per-array answers with the
    # buyer's quotes (as the cost stage read COST_FILE); the report and the calculator only read them.
    Stage(
        "scenario",
        "the report's sizing scenario and per-array answers",
        module="vdi_report.models.scenario_stage",
        args=" ".join(f'"{p.name}=$${p.var}"' for p in PARAMETERS),
        reads_tables=("sizing_inputs", "cost_assumptions", "iops_per_desktop_model", "boot_storms"),
        params=tuple(p.var for p in PARAMETERS),
        inputs=("$(PARAMS_STAMP)",),
        outputs=("$(STAGED)/array_verdicts.csv", "$(STAGED)/sizing_scenario.csv"),
    ),
    # data/processed/datapackage.json: the tables as a Frictionless Data Package (datapackage.py),
    # from the catalogue and the files present; the report waits for it (its colophon lists it).
    # It waits for the scenario stage too, whose two tables it describes (without it, under -j2
    # the descriptor could be written before sizing_scenario.csv and array_verdicts.csv exist).
    Stage(
        "datapackage",
        "describe data/processed (datapackage.json)",
        module="vdi_report.datapackage",
        reads_stages=("normalize", "combine", "audit", "iops_model", "density_cost", "sensitivity", "scenario"),
        raw=("src/vdi_report/catalogue_columns.csv",),
        outputs=("data/processed/datapackage.json",),
    ),
    # The report notebook, then its HTML and PDF in the same process (execute --render): Chromium
    # and the renderer's modules are loaded while the kernel starts and runs the notebook, and the
    # notebook is not written, then read again by a second Python process (a separate render
    # stage cost about 3 s more on each rebuild of the report, issue 27). Chromium prints the PDF
    # (its own process) while this process makes the HTML report.
    Stage(
        "report",
        "report notebook rendered to HTML and PDF",
        notebook="10_report",
        # every table the report may show; in the order Make starts their stages under -j2: the
        # sensitivity grid (about 17 s) on one core, the IOPS model, cost and audit (about 19 s)
        # on the other, the scenario (which waits for the IOPS model and the cost) on the first
        # core once the grid is done (the audit before the cost kept both cores busy 1.3 s less)
        reads_stages=("sensitivity", "combine", "iops_model", "density_cost", "audit", "scenario"),
        # the scenario (0.9 s: pandas and pandera imported, three tables written) and the data
        # package run in this recipe while the kernel starts (1.9 s), not one after the other
        # before it: a one-parameter rebuild saved about 1 s (measured)
        while_starting=("scenario", "datapackage"),
        raw=("data/raw/discrepancies.csv", "data/raw/claims.csv", CHOICES_RAW),
        params=tuple(p.var for p in PARAMETERS),
        # the page scripts the report inlines (static/*.js: the JavaScript twins, the calculator,
        # the explorer's start, the script that writes the contents' pages in the print page) are
        # code of this stage, not imported modules; the templates and Chromium render it
        inputs=(
            "$(PARAMS_STAMP)",
            "data/processed/datapackage.json",
            "$(wildcard src/vdi_report/static/*.js)",
            "$(wildcard templates/vdi_report/*)",
            "$(SYSTEM_STAMP)",
            "build/vega-bundle.js",
        ),
        outputs=(
            "$(STAGED)/notebooks/10_report.ipynb",
            "$(STAGED)/vdi_storage_comparison.html",
            "$(STAGED)/vdi_storage_comparison.pdf",
        ),
        executed="$(STAGED)/notebooks",
        render="$(STAGED)/vdi_storage_comparison",
    ),
    Stage(
        "publish",
        "publish the report (every file at once)",
        module="vdi_report.files",
        args="--publish $(STAGED) reports --stamp $(PARAMS_STAMP) " + " ".join(PUBLISHED),
        inputs=(*(f"$(STAGED)/{n}" for n in PUBLISHED), "$(PARAMS_STAMP)"),
        outputs=(*(f"reports/{n}" for n in PUBLISHED), "reports/params.stamp"),
    ),
)


def stage(name: str) -> Stage:
    """The stage ``name``; raises KeyError listing the stages."""
    for s in STAGES:
        if s.name == name:
            return s
    raise KeyError(f"no stage {name!r}; stages: {', '.join(s.name for s in STAGES)}")


# --------------------------------------------------------------------------------------------
# Code dependencies
# --------------------------------------------------------------------------------------------


def _module_file(module: str) -> Path:
    base = SRC_DIR.joinpath(*module.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def _imports(path: Path, module: str | None) -> set[str]:
    """``vdi_report`` modules imported anywhere in ``path`` (``module``: its dotted name, for
    relative imports; None for a notebook). Each file is parsed once per content version (its
    size and modification time): the stages share most of their modules, and parsing
    each again per stage made writing the rules take 3.0 s instead of 0.6 s."""
    st = path.stat()
    return set(_imports_of(path, module, st.st_mtime_ns, st.st_size))


@functools.cache
def _imports_of(path: Path, module: str | None, _mtime_ns: int, _size: int) -> frozenset[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_pkg = path.name == "__init__.py"
    found = set()
    # this module imports by name the parameters' check functions, and nothing else (not the
    # whole package: the report stage, which imports it, need not depend on bench.py or cli.py)
    by_name = module in (None, PACKAGE, SELF)
    if module == SELF:
        found |= {p.check.split(":")[0] for p in PARAMETERS if p.check}
    for node in ast.walk(tree):
        if not by_name and isinstance(node, ast.Attribute) and node.attr in DYNAMIC_IMPORTS:
            # a sub-package finding its modules at run time: count every module in it (and below);
            # the top package's __init__ imports only a third-party module by name
            pkg_dir = path.parent
            pkg = module if is_pkg else module.rsplit(".", 1)[0]
            found |= {
                ".".join([pkg, *f.relative_to(pkg_dir).with_suffix("").parts]).removesuffix(".__init__")
                for f in pkg_dir.rglob("*.py")
            }
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == PACKAGE}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                if module is None:
                    continue
                parts = module.split(".")
                base = parts[: len(parts) - node.level + (1 if is_pkg else 0)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod.split(".")[0] != PACKAGE:
                continue
            found.add(mod)
            for a in node.names:  # `from pkg import module`
                if _module_file(f"{mod}.{a.name}").is_file():
                    found.add(f"{mod}.{a.name}")
    return frozenset(found)


RENDER_MODULE = f"{PACKAGE}.publish.render"  # what a stage with ``render`` runs after its notebook
RENDER = "--render"  # the option of ``vdi_report.execute`` that asks for it


def code_dependencies(stage_: Stage) -> list[Path]:
    """Files of the stage's code: its notebook (or module) and every ``vdi_report`` module it
    imports, transitively, with the ``__init__.py`` of each package on the way (and the
    renderer's, ``RENDER_MODULE``, for a stage that renders). Sorted."""
    seen: set[str] = set()
    todo = list(_imports(stage_.code_root, stage_.module))
    if stage_.module:
        todo.append(stage_.module)
    if stage_.render:
        todo.append(RENDER_MODULE)
    while todo:
        mod = todo.pop()
        parts = mod.split(".")
        for i in range(1, len(parts) + 1):  # parent packages run their __init__ first
            m = ".".join(parts[:i])
            if m in seen or not _module_file(m).is_file():
                continue
            seen.add(m)
            todo.extend(_imports(_module_file(m), m))
    files = {_module_file(m) for m in seen}
    if stage_.notebook:
        files.add(stage_.code_root)
    return sorted(files)


# --------------------------------------------------------------------------------------------
# Make rules
# --------------------------------------------------------------------------------------------


def _rel(p: Path) -> str:
    return str(p.relative_to(config.PROJ_ROOT))


def table_files(name: str) -> str:
    """Make expression of a table's file(s): per-source tables over ``$(SOURCES)``."""
    t = catalogue.table(name)
    rel = f"data/processed/{t.path}"
    if t.keys == ["source_id"]:
        return "$(foreach s,$(SOURCES)," + rel.replace("{source_id}", "$(s)") + ")"
    return rel


def writer(name: str) -> Stage:
    """The active stage that writes table ``name``; raises KeyError when none does."""
    for s in STAGES:
        if s.exists and name in s.writes:
            return s
    raise KeyError(f"no stage writes table {name!r}")


def done_stamp(stage_: Stage) -> str:
    """The file a stage's rule makes when it has run (``build/stamps/<stage>.done``): its outputs
    may keep their old times when their bytes did not change (``make_rules``)."""
    return f"build/stamps/{stage_.name}.done"


def _outputs(s: Stage) -> list[str]:
    """A stage's output files as Make text: its tables' files, then its other outputs."""
    return [table_files(t) for t in s.writes] + list(s.outputs)


def _inputs(s: Stage) -> list[str]:
    """A stage's input files as Make text: its notebook, the content stamps of the raw files it
    reads, the tables it reads, its other inputs and its code (``code_dependencies``)."""
    ins = [f"notebooks/{s.notebook}.py"] if s.notebook else []
    ins += [f"$(addprefix {CONTENT_DIR}/,{r})" for r in (() if s.independent else RAW_COMMON) + s.raw]
    ins += [table_files(t) for t in s.reads] + list(s.inputs) + [_rel(f) for f in code_dependencies(s)]
    return list(dict.fromkeys(ins))


def _touch(stamp: str, target: str | None = None) -> str:
    """Shell text that makes the (empty) done-stamp ``stamp`` atomically, named ``target`` in the
    text (``$@`` in its own rule)."""
    target = target or stamp
    return f"mkdir -p {Path(stamp).parent} && : > {target}.tmp.$$$$ && mv -f {target}.tmp.$$$$ {target}"


def _module_command(s: Stage) -> str:
    """The shell command of a module stage."""
    return f"$(PY) -m {s.module} {s.args}"


WAIT_GO = "--wait-go"  # the option of ``vdi_report.execute``: run the notebook once "go" is read


def _notebook_command(s: Stage, subs: list[Stage]) -> str:
    """The shell command of a notebook stage (``execute``; parameters from the environment:
    execute.py makes a file parameter's path absolute; ``catalogue.read``/``write`` refuse, within
    the stage, a table it does not declare). With ``subs`` (``while_starting``): those module
    stages run first, one after the other, their output on the terminal (descriptor 3), while
    ``execute`` starts the kernel; it reads "go" once they have all succeeded (each one's
    done-stamp made), else the end of its input, and then stops without running the notebook."""
    ps = " ".join(f'-p {p.name} "$${p.var}"' for p in PARAMETERS if p.var in s.params)
    run = (
        f"{catalogue.STAGE_ENV}={s.name} {catalogue.READS_ENV}='{' '.join(s.reads)}' "
        f"{catalogue.WRITES_ENV}='{' '.join(s.writes)}' $(NOTEBOOK)"
    )
    if subs:
        run += f" {WAIT_GO}"
    if s.render:
        run += f" {RENDER} {s.render}"
    run = f"{run} notebooks/{s.notebook}.py {s.executed}/{s.notebook}.ipynb {ps}".rstrip()
    if not subs:
        return run
    first = " && ".join(
        f"printf '\\n\\033[1m==> %s\\033[0m\\n' \"{sub.label}; while the {s.name}'s kernel starts\" >&3 && "
        f"{_module_command(sub).rstrip()} >&3 && {_touch(done_stamp(sub))}"
        for sub in subs
    )
    return f"exec 3>&1; set -o pipefail; {{ {first} && echo go; }} | {run}"


def make_rules() -> str:
    """The generated Make rules (text of build/stages.mk)."""
    active = [s for s in STAGES if s.exists]
    lines = ["# Generated by `python -m vdi_report.stages` from src/vdi_report/stages.py: do not edit.", ""]
    # No value a user types reaches a shell as text: each parameter is taken literally
    # ($(value): make expands nothing in it, so `$(shell ...)` stays text), exported to the
    # recipes' environment and read there only as "$VAR" (an argument, never shell code).
    for p in PARAMETERS:
        lines.append(f"{p.var} ?= {p.default}")
        lines.append(f"override {p.var} := $(value {p.var})")
        if p.empty:  # the effective value of an empty one (also when given empty on the command line)
            lines.append(f"override {p.var} := $(or $(strip $({p.var})),{p.empty})")
    lines.append("export " + " ".join(p.var for p in PARAMETERS))
    # The stamp line, made by the recipe's shell from the environment; a file parameter enters by its
    # path and its content's SHA-256 (empty when the file is missing, which check_parameters reports).
    lines.append(
        "PARAMS_LINE_SH = "
        + " ".join(
            f"{p.name}=$${p.var}" + (f' {p.name}_sha256=$(call sha256_of,"$${p.var}")' if p.path else "")
            for p in PARAMETERS
        )
    )
    lines.append("PARAMS_ARGS = " + " ".join(f'"{p.var}=$${p.var}"' for p in PARAMETERS))
    lines.append("")
    # Stages read raw files through their content stamps (CONTENT_DIR/<file>: its SHA-256),
    # rewritten only when the content changes: a raw file touched but unchanged re-runs nothing.
    # The stamp stays older than the file, so each later build hashes that file again (one
    # sha256sum), which is all a no-op build then costs.
    lines.append(f"{CONTENT_DIR}/%: %")
    lines.append(
        '\t@mkdir -p $(@D); h="$$(sha256sum < "$<")" || exit 1; { read -r old < "$@"; } 2>/dev/null; '
        '[ "$$old" = "$$h" ] || { printf \'%s\\n\' "$$h" > "$@.tmp.$$$$" && mv -f "$@.tmp.$$$$" "$@"; }'
    )
    lines.append("")
    tables_out, stage_targets = [], []
    # a stage run in another's recipe (``while_starting``) -> that stage: its outputs are reached
    # through that stage's done-stamp (a later stage listing one must not start its own rule
    # beside that recipe, which runs it too)
    runner = {name: s for s in active for name in s.while_starting}
    by_output = {o: runner[name] for name in runner for o in _outputs(stage(name))}
    for s in active:
        outs, ins = _outputs(s), _inputs(s)
        subs = [stage(n) for n in s.while_starting]
        if subs:  # their inputs are this rule's too, less what they make themselves
            made = {o for sub in subs for o in _outputs(sub)}
            ins = [i for i in dict.fromkeys(ins + [i for sub in subs for i in _inputs(sub)]) if i not in made]
        elif s.name not in runner:
            ins = list(dict.fromkeys(done_stamp(by_output[i]) if i in by_output else i for i in ins))
        var = f"STAGE_{s.name.upper()}"
        lines.append(f"{var}_OUT := {' '.join(outs)}")
        lines.append(f"{var}_IN := {' '.join(ins)}")
        tables_out += [f"$({var}_OUT)"] if s.writes else []
        stage_targets.append(f"$({var}_OUT)")
        # Every stage waits for the parameters' check and the raw inputs' validation; the
        # validation itself, which reads no parameter, runs beside the check (it starts first
        # in a clean build: every other stage waits for it).
        order_only = "$(PARAMS_CHECKED) $(STAGE_VALIDATE_OUT)"
        if subs:  # a goal that needs them itself (make data) makes them first, not beside this recipe
            goals = " ".join(["data", "test-data", *(f"stage-{sub.name}" for sub in subs)])
            order_only += f" $(if $(filter {goals},$(MAKECMDGOALS)),{' '.join(done_stamp(sub) for sub in subs)})"
        # A stage writes an output only when its bytes change (files.write_bytes, write_csv), so
        # the outputs cannot be the rule's targets (one left untouched would re-run the stage on
        # every build). The stage's done-stamp is the target (one recipe run per stage, safe
        # with make -j); each output follows it by an empty recipe, after which Make reads the
        # output's own time again: an output that kept its bytes and time re-runs no later
        # stage. A missing output (its own or a stage's it runs) forces the stage.
        done = done_stamp(s)
        lines.append(f"$({var}_OUT): {done} ;")
        every = " ".join(f"$(STAGE_{x.name.upper()}_OUT)" for x in [*subs, s])
        missing = f"$(if $(filter-out $(wildcard {every}),{every}),FORCE)"
        lines.append(f"{done}: $({var}_IN) {missing}" + (f" | {order_only}" if s.name != "validate" else ""))
        lines.append(f"\t$(call step,{s.label})")
        if s.notebook:
            lines.append(f"\t@mkdir -p {s.executed} data/processed")
            lines.append(f"\t$(Q){_notebook_command(s, subs)}")
        else:
            lines.append(f"\t$(Q){_module_command(s)}")
        lines.append(f"\t@{_touch(done, '$@')}")
        lines.append("")
    lines.append("DATA_TABLES := " + " ".join(tables_out))
    lines.append("STAGE_TARGETS := " + " ".join(stage_targets))
    lines.append("STAGE_NAMES := " + " ".join(s.name for s in active))
    # Make never deletes an output: each is written atomically, a failed or stopped notebook stage
    # puts its tables back (execute.py) and the report is published all at once (files.publish).
    lines.append(".PRECIOUS: $(STAGE_TARGETS)")
    for s in active:
        lines.append(f"stage-{s.name}: $(STAGE_{s.name.upper()}_OUT)")
    lines.append("")
    return "\n".join(lines)


def problems() -> list[str]:
    """Inconsistencies between the stages and the catalogue: a table read that no earlier
    active stage writes, a table written by two stages or by a stage other than the
    catalogue's, a catalogue table no active stage reads, a label with a comma (Make's ``$(call
    step,...)`` would cut it there), an independent stage that reads data."""
    out, written = [], {}
    active = [s for s in STAGES if s.exists]
    for s in active:
        if "," in s.label:
            out.append(f"stage {s.name}: its label {s.label!r} has a comma, where Make would cut it")
        if s.independent and (s.reads or s.raw or s.params):
            out.append(f"stage {s.name} is independent but reads tables, raw files or parameters")
        for t in s.reads:
            if t not in written:
                out.append(f"stage {s.name} reads {t}, which no earlier stage writes")
        for t in s.writes:
            if t in written:
                out.append(f"table {t} written by {written[t]} and {s.name}")
            if catalogue.table(t).stage != s.name:
                out.append(f"table {t}: the catalogue says stage {catalogue.table(t).stage}, written by {s.name}")
            written[t] = s.name
    read = {t for s in active for t in s.reads}
    for name, t in catalogue.TABLES.items():
        if any(s.name == t.stage for s in active) and name not in read:
            out.append(f"table {name} is written but no stage reads it")
    return out


# The values whose ``check`` function passed (``check_parameters``), by a key of the value, the
# file's content for a file parameter, and the code and registers that judged it: a build that
# changes DESKTOPS does not read the cost file again (its loader imports pandas: about 1 s).
CHECKED = config.PROJ_ROOT / "build" / "checked-params.json"
CHECKED_KEEP = 256


def _judges() -> str:
    """SHA-256 of what a parameter's check depends on besides its value: the package's code
    (``src/vdi_report``) and the registers of ``data/raw`` (e.g. the vocabulary's clone types)."""
    return files.digest([*(SRC_DIR / PACKAGE).rglob("*.py"), *config.RAW_DIR.glob("*.csv")])


def check_parameters(values: dict[str, str], checked: Path | None = None) -> list[str]:
    """Problems of report parameters ``{VAR: value}`` (Make variable names; missing ones take
    their defaults), each as ``VAR=value: reason``; [] when all are valid.

    A scenario parameter is checked against its declared type and range (``parameters.check``,
    as ``models.scenario.validate`` checks it), every other by its ``check`` function; a file
    parameter must name a readable file, then its check (e.g. the cost model's loader) reads it.
    Unknown names are problems too.

    ``checked``: a JSON file (e.g. ``CHECKED``) of the values whose check function passed, each
    by the SHA-256 of the variable, the value, a file parameter's content and ``_judges()``; such
    a value is not checked again, and the values that pass are added (written atomically).
    """
    import hashlib
    import importlib
    import json

    known = {p.var: p for p in PARAMETERS}
    out = [f"{k}: not a report parameter; the parameters are {', '.join(known)}" for k in values if k not in known]
    vals = {p.var: values.get(p.var, p.default) for p in PARAMETERS}
    passed: list[str] = []
    if checked is not None:
        try:
            passed = [str(k) for k in json.loads(checked.read_text(encoding="utf-8"))]
        except (OSError, ValueError, TypeError):
            passed = []
    judges = None
    new = []
    for p in PARAMETERS:
        v = vals[p.var]
        if p.path and v == "" and p.default == "":
            continue  # an optional file (CHOICES): empty means the defaults
        if p.path:
            f = Path(v) if Path(v).is_absolute() else config.PROJ_ROOT / v
            if not f.is_file():
                out.append(f"{p.var}={v}: file not found (give the path of a {p.doc})")
                continue
        try:
            if p.kind:  # a scenario parameter: its declared type and range (parameters.check)
                parameters.check(p, v)
            elif p.check:
                if checked is not None:
                    judges = judges or _judges()
                    content = hashlib.sha256(f.read_bytes()).hexdigest() if p.path else ""
                    key = hashlib.sha256("\0".join((p.var, v, content, judges)).encode()).hexdigest()
                    if key in passed:
                        continue
                mod, func = p.check.split(":")
                getattr(importlib.import_module(mod), func)(str(f) if p.path else v)
                if checked is not None:
                    new.append(key)
        except (ValueError, OSError) as exc:
            out.append(f"{p.var}={v}: {exc}")
    if checked is not None and new and not out:
        from . import files

        files.write_json((passed + new)[-CHECKED_KEEP:], checked)  # the latest, oldest first
    return out


def parameters_markdown() -> str:
    """The README's list of report parameters (Markdown table: parameter, default, meaning), from
    ``PARAMETERS``: the README holds it verbatim between ``<!-- parameters:begin -->`` and
    ``<!-- parameters:end -->`` (``make readme``, ``vdi_report.readme``; a test checks it)."""
    rows = ["| parameter | default | meaning |", "|---|---|---|"]
    for p in PARAMETERS:
        default = f"`{p.default}`" if p.default != "" else "(empty)"
        rows.append(f"| `{p.var}` | {default} | {p.doc}{' (a file: its SHA-256 enters the stamp)' if p.path else ''} |")
    return "\n".join(rows) + "\n"


HELP_EXAMPLE = "DESKTOPS=3000 RAID=raid5 FAILOVER=controller"  # `make help`'s example (declared parameters only)


def parameters_help() -> str:
    """``make help``'s list of the report parameters (Make variable, default, meaning), from
    ``PARAMETERS``, and an example command."""
    width = max(len(p.var) for p in PARAMETERS)
    rows = [f"  {p.var:<{width}}  {p.doc} (default: {p.default or 'empty'})" for p in PARAMETERS]
    return (
        "Report parameters (make report VAR=value; declared in src/vdi_report/parameters.py, PARAMETERS):\n"
        + "\n".join(rows)
        + f"\n  e.g. make report {HELP_EXAMPLE}\n"
    )


def main(argv: list[str]) -> int:
    """``python -m vdi_report.stages``: print the Make rules; ``--check-params VAR=VALUE ...``:
    check report parameters (exit 2 with every problem, no traceback); ``--parameters-md``: the
    README's parameter table; ``--help-params``: ``make help``'s list."""
    if argv[:1] == ["--help-params"]:
        sys.stdout.write(parameters_help())
        return 0
    if argv[:1] == ["--parameters-md"]:
        sys.stdout.write(parameters_markdown())
        return 0
    if argv[:1] == ["--check-params"]:
        values = dict(a.split("=", 1) if "=" in a else (a, "") for a in argv[1:])
        bad = check_parameters(values, CHECKED)
        for b in bad:
            print(f"invalid report parameter {b}", file=sys.stderr)
        if bad:
            print(
                "Nothing was run: data/processed and reports/ are as they were. `make help` lists the parameters.",
                file=sys.stderr,
            )
        return 2 if bad else 0
    bad = problems()
    if bad:
        print("stages.py and catalogue.py disagree:\n  " + "\n  ".join(bad), file=sys.stderr)
        return 1
    sys.stdout.write(make_rules())
    return 0


if __name__ == "__main__":  # pragma: no cover
    files.end_process(main(sys.argv[1:]))
