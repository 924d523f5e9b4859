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
    ("cooccur",),
    ("model",),
    ("training",),
    ("__init__", "__main__", "cli", "fasttext", "gensim"),
)
LAYER = {part: depth for depth, parts in enumerate(LAYERS) for part in parts}
MAX_TOP_LEVEL = 18


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
