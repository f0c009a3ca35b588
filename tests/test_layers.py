"""The package's folders are its layers: every import (static, lazy or named in a string) flows down.

engine → encoding → envs → batch → openspiel → solve → agents → evaluate → train → exploit; the
modules at the package's top (``cli``, ``command_line``, ``play``, ``show``, ``recipes``, ``bench``, ``__init__``
...) and the ``serve`` folder are the applications above them.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "razz_env"
LAYERS = ("engine", "encoding", "envs", "batch", "openspiel", "solve", "agents", "evaluate", "train", "exploit")
APPLICATIONS = ("__init__", "acceptance", "bench", "bench_report", "cli", "command_line", "play", "recipes", "show")
APPLICATION_FOLDERS = ("serve",)
"""Applications of more than one module: folders above every layer."""
MODULE_NAME = re.compile(r"razz_env(?:\.\w+)+")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports: ``import``/``from`` anywhere (lazy ones too) and module names in strings."""
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names.add(module)
            names |= {f"{module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and MODULE_NAME.fullmatch(
                node.value.split(":")[0]):
            names.add(node.value.split(":")[0])
    return names


APPLICATION = "applications"
"""The rank of the top-level modules: above every layer, so a layer that imports one imports up."""


def layer_of(module: str) -> str | None:
    """The layer (first folder under ``razz_env``) a module belongs to; :data:`APPLICATION` for the modules on top
    (``razz_env`` itself included); None outside the package."""
    parts = module.split(".")
    if parts[0] != "razz_env":
        return None
    if len(parts) < 2 or parts[1] in APPLICATIONS or parts[1] in APPLICATION_FOLDERS:
        return APPLICATION
    return parts[1] if parts[1] in LAYERS else "?" + parts[1]


def rank(layer: str) -> int:
    """A layer's place in the import order; the applications come after every layer."""
    return len(LAYERS) if layer == APPLICATION else LAYERS.index(layer)


def dependencies() -> dict[str, dict[str, list[str]]]:
    """For each layer, the layers it imports, with the importing modules."""
    found: dict[str, dict[str, list[str]]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        source = layer_of(module_name(path))
        if source == APPLICATION:
            continue
        for name in imported_modules(path):
            target = layer_of(name)
            if target is not None and target != source:
                found.setdefault(source, {}).setdefault(target, []).append(module_name(path))
    return found


def test_every_folder_of_the_package_is_a_known_layer():
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    modules = {p.stem for p in PACKAGE.glob("*.py")}
    known = set(LAYERS) | set(APPLICATION_FOLDERS)
    assert folders == known, f"folders {sorted(folders ^ known)} are not the declared layers and applications"
    assert modules <= set(APPLICATIONS), f"top-level modules {sorted(modules - set(APPLICATIONS))} belong in a layer"


def test_no_import_runs_up_a_layer():
    upward = [f"{module} ({source}) imports {target}"
              for source, targets in dependencies().items() for target, modules in targets.items()
              for module in modules if target.startswith("?") or rank(target) > rank(source)]
    assert upward == []


def test_layers_form_no_cycle():
    """A generic check, so that reordering LAYERS cannot hide a cycle: the layer graph sorts topologically."""
    graph = {source: set(targets) for source, targets in dependencies().items()}
    done: set[str] = set()
    while graph.keys() - done:
        ready = [layer for layer in graph.keys() - done
                 if graph[layer] <= done | ((set(LAYERS) | {APPLICATION}) - graph.keys())]
        assert ready, f"import cycle among layers {sorted(graph.keys() - done)}"
        done |= set(ready)


def test_nothing_imports_outside_the_package():
    """No module of the product imports the repository's scripts, tests or a top-level ``agents`` package."""
    for path in PACKAGE.rglob("*.py"):
        outside = {name for name in imported_modules(path)
                   if name.split(".")[0] in ("agents", "experiments", "studies", "tests", "benchmarks", "examples")}
        assert not outside, f"{module_name(path)} imports {sorted(outside)}"


@pytest.mark.parametrize("source", ["from razz_env.agents import base", "import razz_env.envs.single_agent as m",
                                    "from ..agents import base", "importlib.import_module('razz_env.agents.base')"])
def test_the_walker_sees_every_form_of_import(monkeypatch, source):
    """Static, relative and string-named imports are all found, so the checks above can fail."""
    path = PACKAGE / "engine" / "example.py"
    original = Path.read_text
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: source if self == path else original(self, *a, **k))
    assert imported_modules(path) & {"razz_env.agents", "razz_env.agents.base", "razz_env.envs.single_agent"}


def test_an_upward_import_is_reported(monkeypatch):
    """Planting an import of ``agents`` in the engine makes the layer check fail."""
    real = imported_modules
    target = PACKAGE / "engine" / "cards.py"
    monkeypatch.setattr(__import__(__name__), "imported_modules",
                        lambda path: real(path) | ({"razz_env.agents.registry"} if path == target else set()))
    with pytest.raises(AssertionError, match="razz_env.engine.cards"):
        test_no_import_runs_up_a_layer()


def test_a_layer_importing_an_application_is_reported(monkeypatch):
    """The applications on top (``cli``, ``recipes`` ...) rank above every layer: importing one runs up."""
    real = imported_modules
    target = PACKAGE / "exploit" / "bound.py"
    monkeypatch.setattr(__import__(__name__), "imported_modules",
                        lambda path: real(path) | ({"razz_env.recipes"} if path == target else set()))
    with pytest.raises(AssertionError, match=r"razz_env.exploit.bound \(exploit\) imports applications"):
        test_no_import_runs_up_a_layer()
