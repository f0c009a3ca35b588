"""Spawned worker processes that never run the user's script again.

Python's ``spawn`` start method runs the parent's main module once more in every child (as ``__mp_main__``), so a
user's first script, three lines with no ``if __name__ == "__main__":`` guard, would start its match again inside
each worker, where multiprocessing refuses to start more processes and the worker dies. The harness's workers need
nothing of that module: what they play travels pickled by value (:func:`by_value`: classes and functions defined in
the script go with their code), so they are started without it (:func:`without_main`), as ``loky`` starts its
workers. Modules the agents come from are imported by name in the worker, found on the parent's ``sys.path``.
"""

from __future__ import annotations

import contextlib
import pickle
import threading
from collections.abc import Iterator
from multiprocessing import spawn
from typing import Any

MAIN_MODULE_KEYS = ("init_main_from_path", "init_main_from_name")
"""What multiprocessing's preparation data uses to run the parent's main module in a child."""
_STARTING = threading.Lock()


@contextlib.contextmanager
def without_main() -> Iterator[None]:
    """Processes started by the ``spawn`` or ``forkserver`` method within this block do not run the parent's main
    module; everything else of their preparation (``sys.path``, the working directory, the process name) is kept.

    >>> import multiprocessing
    >>> with without_main():
    ...     child = multiprocessing.get_context("spawn").Process(target=print)
    ...     child.start()
    >>> child.join(); child.exitcode
    0
    """
    with _STARTING:
        prepare = spawn.get_preparation_data

        def prepare_without_main(name: str) -> dict[str, Any]:
            data = prepare(name)
            for key in MAIN_MODULE_KEYS:
                data.pop(key, None)
            return data

        spawn.get_preparation_data = prepare_without_main
        try:
            yield
        finally:
            spawn.get_preparation_data = prepare


def by_value(value: Any) -> bytes:
    """``value`` pickled so that what the main module defines (an agent class, a registered factory) travels with
    its code: a worker started :func:`without_main` cannot import it by name.

    >>> import pickle
    >>> pickle.loads(by_value({"deals": 20}))
    {'deals': 20}
    """
    import cloudpickle

    return cloudpickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
