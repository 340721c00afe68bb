"""No import circle in werewolf/: a circle works only by the order modules happen to load
in, and hides behind a function-local import until someone moves it to the top."""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "werewolf"


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imported(name: str, path: Path, modules) -> set[str]:
    """Every werewolf module ``name`` imports, anywhere in it (functions included), with the
    packages that loading them runs (importing a.b.c runs a.b's __init__ first)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            targets.add(base)
            targets.update(f"{base}.{alias.name}" for alias in node.names)
    loaded = set()
    for target in targets:
        parts = target.split(".")
        for end in range(1, len(parts) + 1):
            loaded.add(".".join(parts[:end]))
    # A module's own packages are loaded before it: importing them again runs nothing.
    own = {".".join(name.split(".")[:end]) for end in range(1, name.count(".") + 2)}
    return {t for t in loaded if t in modules and t not in own}


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imported(name, path, modules) for name, path in modules.items()}


def find_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of ``graph`` (its modules in order, the first repeated at the end), or None."""
    done, path, on_path = set(), [], set()

    def visit(node):
        path.append(node)
        on_path.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt in on_path:
                return path[path.index(nxt):] + [nxt]
            if nxt not in done:
                circle = visit(nxt)
                if circle:
                    return circle
        on_path.discard(path.pop())
        done.add(node)
        return None

    for start in sorted(graph):
        if start not in done:
            circle = visit(start)
            if circle:
                return circle
    return None


def test_werewolf_has_no_import_circle():
    circle = find_circle(import_graph())
    assert circle is None, "import circle: " + " -> ".join(circle)


def test_the_check_finds_a_circle_hidden_in_a_function(tmp_path):
    """The check itself can fail: a function-local import closing a circle is found."""
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    source = tmp_path / "m.py"
    source.write_text("def late():\n    from .web import screen\n", encoding="utf-8")
    assert _imported("werewolf.m", source, {"werewolf", "werewolf.web", "werewolf.web.screen"}) \
        == {"werewolf.web", "werewolf.web.screen"}
