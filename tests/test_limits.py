"""One number per limit: engine/core/limits.py holds every limit the writers and the loaders share
(a module may alias one, never restate it), so nothing is written that the loader then refuses."""

import ast
from pathlib import Path

from engine.kit import limits

ROOT = Path(__file__).resolve().parent.parent


def _is_number(node: ast.AST) -> bool:
    """A literal number, or arithmetic of literal numbers (``2**63 - 1``, ``16 * 1024 * 1024``)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int | float) and not isinstance(node.value, bool)
    if isinstance(node, ast.BinOp):
        return _is_number(node.left) and _is_number(node.right)
    if isinstance(node, ast.UnaryOp):
        return _is_number(node.operand)
    return False


def test_no_module_restates_a_limit():
    for path in (ROOT / "engine").rglob("*.py"):
        if path.name == "limits.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign) and _is_number(node.value):
                for target in node.targets:
                    name = getattr(target, "id", "")
                    assert not name.startswith("MAX_"), f"{path}: {name} is a limit: define it in limits.py"


def test_the_limits_fit_together():
    import engine

    assert engine.MAX_MAP_BYTES == limits.MAX_MAP_BYTES and engine.MAX_MAP_SIDE == limits.MAX_MAP_SIDE
    assert limits.MAX_MAP_BYTES >= (limits.MAX_MAP_SIDE + 2) * limits.MAX_MAP_SIDE  # the largest map, CR LF
    assert limits.MAX_STAT * 2 + 100 * limits.MAX_DEPTH + 500 < limits.MAX_COUNT  # any honest score fits
