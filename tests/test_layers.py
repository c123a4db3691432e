"""The layers of ``bot/``: each imports only the layers below it, and no modules import
each other in a circle (the hooks, ``hooks/``, sit on top with the other entry points).
Imports inside functions and under ``TYPE_CHECKING`` count too: a lazy import is still a
dependency, only a later one.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import NamedTuple

import pytest

CHECKOUT = Path(__file__).resolve().parent.parent
BOT = CHECKOUT / "bot"
HOOKS = CHECKOUT / "hooks"
README = CHECKOUT / "bot" / "docs" / "development.md"  # `rfd help development`

# Bottom → top; the packages of one layer may import each other (without circles).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("core",),  # infrastructure that knows nothing of RFDs: errors, text, atomic files, git
    ("model", "templates", "examples"),  # the RFD model: parse and edit, no I/O
    ("config",),  # .github/rfd.toml, the repository's conventions, where the RFDs are
    ("state", "forge", "llm", "events", "plugins"),  # what an operation is handed
    ("lifecycle", "ai", "site"),  # the operations on the model, the AI steps, the RFD site
    ("agent",),  # the agent loop behind explore, refine and implement
    ("github", "cli", "__main__", "hooks"),  # entry points
)
RANK = {package: rank for rank, packages in enumerate(LAYERS) for package in packages}


class Import(NamedTuple):
    module: str  # the importing module
    target: str  # the bot module it imports
    line: int
    file: str  # the importing file, as ``bot/…/x.py``


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(module: str, path: Path, root: Path, known: set[str]) -> Iterator[Import]:
    """Every import of a known ``bot`` module in *source*, wherever it stands."""
    here = module if path.name == "__init__.py" else module.rpartition(".")[0]
    file = path.relative_to(root.parent).as_posix()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.rsplit(".", node.level - 1)[0] if node.level > 1 else here
                base = f"{anchor}.{base}" if base else anchor
            names = [f"{base}.{alias.name}" for alias in node.names]
            names = [name if name in known else base for name in names]
        else:
            continue
        for name in names:
            target = _owner(name, known)
            if target and target not in (module, "bot"):
                yield Import(module, target, node.lineno, file)


def _owner(name: str, known: set[str]) -> str:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name


def layer(module: str) -> str:
    if module.split(".")[0] == "hooks":
        return "hooks"
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "core"  # ``bot`` itself holds only the version


def upward(edges: list[Import]) -> list[str]:
    return [
        f"{e.file}:{e.line}: {e.module} ({layer(e.module)}) imports {e.target} "
        f"({layer(e.target)}), a higher layer"
        for e in edges
        if RANK.get(layer(e.target), -1) > RANK.get(layer(e.module), -1)
    ]


def circles(edges: list[Import]) -> list[str]:
    """Each strongly connected group of modules, as one circle through it."""
    graph: dict[str, set[str]] = {}
    for e in edges:
        graph.setdefault(e.module, set()).add(e.target)
        graph.setdefault(e.target, set())
    found = []
    for group in _groups(graph):
        if len(group) > 1:
            found.append(" → ".join(_circle(graph, group)))
    return sorted(found)


def _groups(graph: Mapping[str, set[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components, iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while (member := stack.pop()) != node:
                        group.add(member)
                    groups.append(group | {node})
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in stack:
                low[node] = min(low[node], index[child])
    return groups


def _circle(graph: Mapping[str, set[str]], group: set[str]) -> list[str]:
    """A shortest way from the group's first module back to itself."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & group):
                if child == start:
                    return [*paths[node], start]
                if child not in paths:
                    paths[child] = [*paths[node], child]
                    following.append(child)
        frontier = following
    return [start]


def scan(*roots: Path) -> tuple[list[Import], list[str]]:
    files = {
        module_name(path, root): (path, root)
        for root in roots
        for path in sorted(root.rglob("*.py"))
    }
    known = set(files)
    edges = [
        found
        for module, (path, root) in files.items()
        for found in imports(module, path, root, known)
    ]
    return edges, sorted(files)


def test_every_module_belongs_to_a_layer() -> None:
    _, modules = scan(BOT)
    loose = [module for module in modules if layer(module) not in RANK and module != "bot"]
    assert loose == [], f"modules outside every layer of LAYERS: {loose}"


def test_no_module_imports_a_higher_layer() -> None:
    edges, _ = scan(BOT, HOOKS)
    assert upward(edges) == []


def test_no_modules_import_each_other_in_a_circle() -> None:
    edges, _ = scan(BOT, HOOKS)
    assert circles(edges) == []


# What builds a workspace's parts (bot.lifecycle.opening): the workspace only carries them.
BUILDERS = {"load", "load_plugins", "Providers", "Asker", "LocalForge", "GitVcs", "answer"}
WORKSPACE = BOT / "lifecycle" / "workspace.py"


def runtime_names(path: Path) -> set[str]:
    """The names *path* imports from ``bot`` outside ``if TYPE_CHECKING:``, wherever they stand."""
    tree = ast.parse(path.read_text())
    typing_only = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
        for statement in block.body
        for node in ast.walk(statement)
    }
    return {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and id(node) not in typing_only
        if (node.module or "").startswith("bot")
        for alias in node.names
    }


def test_the_workspace_carries_its_parts_and_builds_none() -> None:
    assert runtime_names(WORKSPACE) & BUILDERS == set()
    assert "open_workspace" in runtime_names(WORKSPACE)  # Workspace.open hands over to it


def picture() -> list[set[str]]:
    """The folders on each layer of the development reference's picture, top first."""
    built = README.read_text(encoding="utf-8").split("## How it is built", 1)[1]
    mermaid = built.split("```mermaid", 1)[1].split("```", 1)[0]
    return [
        set(re.findall(r"(?:^|[\s>·])(__main__|[a-z]\w*(?=/))", line))
        for line in mermaid.splitlines()
        if '["' in line
    ]


def test_the_readme_picture_shows_the_layers_as_the_folders_are() -> None:
    folders = {path.parent.name for path in BOT.glob("*/__init__.py")} | {"__main__", "hooks"}
    assert picture() == [set(packages) for packages in reversed(LAYERS)]
    assert set(RANK) == folders


@pytest.fixture
def tangled(tmp_path: Path) -> Path:
    root = tmp_path / "bot"
    for name, text in {
        "__init__.py": "",
        "core/__init__.py": "",
        "core/a.py": "def f():\n    from bot.model import b\n",
        "model/__init__.py": "",
        "model/b.py": "from bot.model.c import x\n",
        "model/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import b\n",
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_a_lazy_upward_import_and_a_circle_are_named(tangled: Path) -> None:
    edges, _ = scan(tangled)
    assert upward(edges) == [
        "bot/core/a.py:2: bot.core.a (core) imports bot.model.b (model), a higher layer"
    ]
    assert circles(edges) == ["bot.model.b → bot.model.c → bot.model.b"]
