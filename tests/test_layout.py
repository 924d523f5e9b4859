"""The package's shape is its map: few top-level modules, and imports that only run downward.

The layers, lowest first: each module imports only from its own package and from layers below
it, so a reader can follow a corpus from ``train`` down through each package once. Imports under
``if TYPE_CHECKING:`` do not run and are not counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "wordvec"
LAYERS = (
    ("errors",),
    ("options", "peer_names", "runtime", "kernels"),
    ("corpus",),
    ("bpe",),
    ("query",),
    ("formats",),
    ("index",),
    ("cooccur",),
    ("model",),
    ("training", "compression"),
    ("__init__", "__main__", "cli", "fasttext", "gensim", "serve"),
)
LAYER = {part: depth for depth, parts in enumerate(LAYERS) for part in parts}
MAX_TOP_LEVEL = 20  # 18, then serve (a face of its own, as cli, fasttext and gensim) and
# compression (a pipeline from model to small model, as training is from corpus to model)


def _part(module: str) -> str:
    """The top-level part of ``wordvec.x.y`` (``__init__`` for ``wordvec`` itself)."""
    names = module.split(".")
    return names[1] if len(names) > 1 else "__init__"


def _is_module(name: str) -> bool:
    return (PACKAGE / f"{name}.py").exists() or (PACKAGE / name / "__init__.py").exists()


def _runtime_imports(tree: ast.AST):
    """``(line, module)`` of every import of wordvec that runs, lazy ones included."""
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(inner) for inner in ast.walk(node))
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("wordvec"):
            modules = [node.module]
            if node.module == "wordvec":  # from wordvec import x: x may be a module
                modules = [
                    f"wordvec.{alias.name}" if _is_module(alias.name) else "wordvec"
                    for alias in node.names
                ]
            yield from ((node.lineno, module) for module in modules)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("wordvec"):
                    yield node.lineno, alias.name


def test_wordvec_has_few_top_level_modules():
    entries = [
        path.stem
        for path in PACKAGE.iterdir()
        if (path.suffix == ".py" or (path / "__init__.py").exists())
    ]
    assert len(entries) <= MAX_TOP_LEVEL, sorted(entries)
    assert set(entries) <= set(LAYER), f"not in a layer: {set(entries) - set(LAYER)}"


def test_no_import_runs_upward():
    upward = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE.parent).with_suffix("")
        importer = ".".join(relative.parts)
        for line, module in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            mine, theirs = _part(importer), _part(module)
            if mine != theirs and LAYER[theirs] > LAYER[mine]:
                upward.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {module}")
    assert not upward, "\n".join(upward)


def test_library_code_reports_through_one_channel():
    """Only the CLI (and the reference it writes) prints; the library says things with
    :func:`wordvec.runtime.progress.note` and its bars."""
    printing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[0] == "cli":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print":
                printing.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert not printing


MAX_MODULE_LINES = 600
MAX_CLI_FACE_LINES = 300


def _modules():
    return [
        (path, path.read_text(encoding="utf-8"))
        for path in sorted(PACKAGE.rglob("*.py"))
        if "__pycache__" not in path.parts
    ]


def test_modules_are_small():
    """A module has one job: none over 600 lines, and the CLI's face (the group and its error
    funnel) at most 300, each command in a module of its own."""
    lines = {path.relative_to(PACKAGE).as_posix(): text.count("\n") for path, text in _modules()}
    assert {name: n for name, n in lines.items() if n > MAX_MODULE_LINES} == {}
    assert lines["cli/__init__.py"] <= MAX_CLI_FACE_LINES


def test_no_command_module_imports_the_cli_face():
    """Commands join the group in cli/__init__.py; none imports it back (only the reference
    writer, which no command imports, reads the whole group)."""
    back = [
        path.name
        for path, text in _modules()
        if path.parent.name == "cli" and path.name not in ("__init__.py", "reference.py")
        and any(module == "wordvec.cli" for _, module in _runtime_imports(ast.parse(text)))
    ]  # fmt: skip
    assert back == []


def test_each_loss_is_chosen_in_one_place():
    """The loss kinds that need their own step are told apart once, in kernels/losses.py's
    loss_update and add_targets: a new loss is a branch there, not in every model (both
    layers at once, ``hs+ns``, only in losses.py too)."""
    for kind in ("== HIERARCHICAL_SOFTMAX", "== FULL_SOFTMAX"):
        places = [path.name for path, text in _modules() for _ in range(text.count(kind))]
        assert places == ["losses.py"], kind
    both = [path.name for path, text in _modules() if "HIERARCHICAL_AND_NEGATIVE" in text]
    assert both == ["losses.py"]


def test_threads_are_started_in_one_module():
    starting = [
        path.relative_to(PACKAGE).as_posix()
        for path, text in _modules()
        if any(call in text for call in ("threading.Thread(", "ThreadPoolExecutor", "Process("))
    ]
    assert starting == ["runtime/parallel.py"]


def test_kernels_take_the_parameters_design_md_says():
    """docs/design.md: kernels take at most 12 parameters, the inlined chunk helpers up to 14."""
    most = {False: 0, True: 0}
    for path in sorted((PACKAGE / "kernels").glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            decorators = [ast.unparse(d) for d in getattr(node, "decorator_list", [])]
            if any("njit" in d for d in decorators):
                inline = any("inline" in d for d in decorators)
                most[inline] = max(most[inline], len(node.args.args))
    design = (PACKAGE.parent / "docs" / "design.md").read_text(encoding="utf-8")
    said = " ".join(design.split())
    assert f"Kernels take at most {most[False]} parameters" in said
    assert f"the inlined chunk helpers of the window step up to {most[True]}" in said
