"""Lazy package attributes: a package names what it exports and where, and imports each on first use.

So ``import razz_env.evaluate`` (or ``razz_env`` itself) stays light: torch, numba and the rest load only when
an attribute that needs them is read.

>>> getattr_, dir_ = lazy_exports("pkg", {"sqrt": "math"}, {"json": "json"})
>>> getattr_("sqrt")(9.0), getattr_("json").__name__, "sqrt" in dir_()
(3.0, 'json', True)
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, attributes: Mapping[str, str],
                 modules: Mapping[str, str] | None = None) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``: ``attributes`` maps a name to the module defining it,
    ``modules`` a name to a module given as the attribute itself. A value read once is kept on the package."""
    modules = modules or {}

    def __getattr__(name: str) -> Any:
        if name in modules:
            value = importlib.import_module(modules[name])
        elif name in attributes:
            value = getattr(importlib.import_module(attributes[name]), name)
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        home = sys.modules.get(package)
        if home is not None:
            setattr(home, name, value)
        return value

    def __dir__() -> list[str]:
        home = sys.modules.get(package)
        return sorted(set(vars(home) if home is not None else ()) | set(attributes) | set(modules))

    return __getattr__, __dir__
