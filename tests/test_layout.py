"""The layout issue 24 asks for, kept: no module over 600 lines, no import of an rdpsym module inside a function.

(Import cycles and upward imports are import-linter's contracts in pyproject.toml, run by CI's ``lint-imports``:
a layers contract and an ``acyclic_siblings`` contract over every package of rdpsym.)  An import inside a
function is how a cycle hides from a reader; a module over 600 lines is one that holds more than one stage.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "rdpsym"
MODULES = sorted(PACKAGE.rglob("*.py"))
MAX_LINES = 600


def _name(path: Path) -> str:
    return str(path.relative_to(PACKAGE.parent))


def test_the_package_is_found():
    assert len(MODULES) > 100 and (PACKAGE / "__init__.py") in MODULES


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_no_module_over_600_lines(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{_name(path)} has {lines} lines (at most {MAX_LINES}): split it by stage"


def _function_level_rdpsym_imports(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.ImportFrom) and (inner.module or "").split(".")[0] == "rdpsym" \
                    or isinstance(inner, ast.ImportFrom) and inner.level > 0 \
                    or isinstance(inner, ast.Import) and any(a.name.split(".")[0] == "rdpsym" for a in inner.names):
                found.append(f"line {inner.lineno}: {ast.unparse(inner)}")
    return found


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_no_rdpsym_import_inside_a_function(path):
    found = _function_level_rdpsym_imports(ast.parse(path.read_text(encoding="utf-8")))
    assert not found, f"{_name(path)} imports rdpsym inside a function: " + "; ".join(sorted(set(found)))


def test_the_check_sees_an_import_inside_a_function():
    tree = ast.parse("def f():\n    from rdpsym.engine import integrals\n    return integrals\n")
    assert _function_level_rdpsym_imports(tree) == ["line 2: from rdpsym.engine import integrals"]
