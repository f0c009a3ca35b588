"""Playing tournament blocks on a Ray cluster: the ``ray`` backend of ``razz tournament`` and ``razz exploit``.

Ray schedules; this module only hands blocks to actors and checks what comes back. Each
actor is one long-lived process holding the tournament config and one watched worker process
of its own (:class:`~razz_env.evaluate.workers.WorkerPool`), which plays the blocks: the actor
kills it when an agent overruns its decision time, as the local backend does. The worker
imports the modules that register the agents once, and the expensive part of an agent (a zoo
model, read from the node's own copy of the code and unpickled only after its SHA-256 matches
the manifest shipped with that code) is loaded once and reused by every block it plays.
Blocks are the same pure function :func:`~razz_env.evaluate.blocks.run_task`
as on the local backend, so a seed gives the same results whatever the backend and the
number of actors. Nothing an actor sends back is trusted: a result is kept only if
:func:`~razz_env.evaluate.results.result_problem` accepts it as a result of the very
block that was asked for. An actor that dies is replaced and its block played again, up to
:data:`~razz_env.evaluate.workers.MAX_ATTEMPTS` times, then the run stops naming the block.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import socket
import sys
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from razz_env.engine.errors import ConfigError
from razz_env.evaluate.config import TournamentConfig
from razz_env.evaluate.results import block_key, result_problem
from razz_env.evaluate.tasks import Task
from razz_env.evaluate.workers import MAX_ATTEMPTS, BlockError, WorkerPool

BACKENDS = ("local", "ray")
INSTALL_HINT = "pip install 'razz-env[ray]'"
PROBE_SECONDS = 5.0


def check_backend(backend: str, address: str | None) -> None:
    """Raise :class:`ConfigError` for an unknown backend, an address without Ray, or Ray not installed."""
    if backend not in BACKENDS:
        raise ConfigError(f"backend: expected one of {', '.join(BACKENDS)}, got {backend!r}")
    if backend == "local":
        if address is not None:
            raise ConfigError("address: names a Ray cluster; it needs --backend ray")
        return
    if address is not None and not isinstance(address, str):
        raise ConfigError(f"address: expected a Ray cluster address like 'auto' or 'ray://host:10001', got {address!r}")
    try:
        importlib.import_module("ray")
    except ImportError:
        raise ConfigError(f"backend ray: Ray is not installed ({INSTALL_HINT})") from None
    if address is not None:
        _probe(address)


def _probe(address: str) -> None:
    """Refuse a ``host:port`` (or ``ray://host:port``) nobody answers on, at once: Ray itself retries for minutes."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        if address != "auto":
            raise ConfigError(f"address: expected 'auto', 'host:port' or 'ray://host:port', got {address!r}")
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE_SECONDS).close()
    except (OSError, ValueError) as err:
        raise ConfigError(f"address: cannot reach a Ray cluster at {address} ({err})") from None


def shipped_packages() -> list[str]:
    """The folder of the ``razz_env`` package this driver runs, for Ray to upload to the nodes."""
    return [str(Path(__file__).resolve().parent.parent)]


class BlockActor:
    """One Ray worker process playing blocks of one tournament (wrapped by ``ray.remote`` at run time)."""

    def __init__(self, config: TournamentConfig, modules: tuple[str, ...]) -> None:
        self.config = config
        self.failure: str | None = None
        try:
            for module in modules:
                importlib.import_module(module)
        except Exception as err:  # noqa: BLE001 - not a death: reported with the first block, which names it
            self.failure = f"importing the agents' modules: {type(err).__name__}: {err}"
        self.pool = WorkerPool(config, 1, modules)

    def play(self, task: Task) -> tuple[str, Any]:
        """``("ok", result)`` or ``("crash", message)`` for a harness failure (not an agent's)."""
        if self.failure is not None:
            return "crash", self.failure
        try:
            return "ok", next(iter(self.pool.run([task])))
        except Exception as err:  # noqa: BLE001 - reported to the driver, which names the block
            self.pool.close()
            if isinstance(err, BlockError):  # the worker's block, named again by the driver
                return "crash", str(err).removeprefix(f"block {task.task_id}: ")
            return "crash", f"{type(err).__name__}: {err}"


class RayBlocks:
    """A connection to a Ray cluster for one run: :meth:`run` plays blocks, :meth:`close` lets go of it.

    ``address`` None starts a local cluster of ``config.workers`` CPUs (and stops it on close);
    an address joins that cluster (``"auto"``: the one running on this machine). A session
    already open in this process (``ray.init`` called by the caller) is used as it is.
    """

    def __init__(self, config: TournamentConfig, address: str | None = None) -> None:
        check_backend("ray", address)
        import ray

        self.ray = ray
        self.config = config
        self.started_here = not ray.is_initialized()
        if not self.started_here and address is not None:
            raise ConfigError(f"address {address!r}: this process already has a Ray session; leave the address "
                              "out to use it")
        if self.started_here:
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                       "configure_logging": False}
            if address is None:
                # Actors on this machine import what the driver can (agents registered by the caller's modules).
                options["address"] = "local"  # a new cluster, even where `ray start` left one running
                options["num_cpus"] = config.workers
                options["runtime_env"] = {"env_vars": {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}}
            else:
                # Remote nodes get this very code, zoo manifest and model files included; each actor checks a
                # model file's SHA-256 against that manifest before loading it.
                options["address"] = address
                options["runtime_env"] = {"py_modules": shipped_packages()}
            try:
                ray.init(**options)
            except Exception as err:  # noqa: BLE001 - whatever Ray raises for a cluster it cannot reach
                where = f"the Ray cluster at {address}" if address else "a local Ray cluster"
                raise ConfigError(f"cannot start or reach {where}: {' '.join(str(err).split())[:300]}") from None
        self.actor_class = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(BlockActor)

    def close(self) -> None:
        """Let go of the Ray session this run opened: a local cluster stops, a joined one stays up for others.

        A session the caller opened stays open.
        """
        if self.started_here and self.ray.is_initialized():
            self.ray.shutdown()

    def run(self, tasks: list[Task], modules: Iterable[str] = ()) -> Iterator[dict[str, Any]]:
        """Yield each block's result as it ends; :class:`BlockError` when a block cannot be played."""
        if not tasks:
            return
        pool = _ActorPool(self, min(self.config.workers, len(tasks)), tuple(modules))
        yield from pool.run(tasks)


class _ActorPool:
    """``size`` actors, one block in flight on each, so the driver always knows which block an actor holds."""

    def __init__(self, blocks: RayBlocks, size: int, modules: tuple[str, ...]) -> None:
        self.ray = blocks.ray
        self.config = blocks.config
        self.actor_class = blocks.actor_class
        self.size = size
        self.modules = modules
        self.pending: deque[Task] = deque()
        self.deaths: Counter[str] = Counter()
        self.running: dict[Any, tuple[Any, Task]] = {}
        self.idle: list[Any] = []

    def _start(self) -> Any:
        return self.actor_class.remote(self.config, self.modules)

    def run(self, tasks: list[Task]) -> Iterator[dict[str, Any]]:
        self.pending.extend(tasks)
        self.idle = [self._start() for _ in range(self.size)]
        try:
            while self.pending or self.running:
                while self.idle and self.pending:
                    actor, task = self.idle.pop(), self.pending.popleft()
                    self.running[actor.play.remote(task)] = (actor, task)
                [ref], _ = self.ray.wait(list(self.running), num_returns=1)
                actor, task = self.running.pop(ref)
                try:
                    reply = self.ray.get(ref)
                except self.ray.exceptions.RayActorError as err:
                    self._lost(actor, task, err)
                    continue
                except self.ray.exceptions.RayError as err:
                    raise BlockError(f"block {task.task_id}: Ray failed: {' '.join(str(err).split())[:300]}") from err
                self.idle.append(actor)
                yield checked_reply(self.config, task, reply)
        finally:
            for actor in [*self.idle, *(actor for actor, _ in self.running.values())]:
                self.ray.kill(actor, no_restart=True)

    def _lost(self, actor: Any, task: Task, err: Exception) -> None:
        """``actor`` died holding ``task``: start another and queue the task again, or stop the run."""
        self.ray.kill(actor, no_restart=True)
        self.deaths[task.task_id] += 1
        if self.deaths[task.task_id] >= MAX_ATTEMPTS:
            raise BlockError(f"block {task.task_id}: its Ray actor died {MAX_ATTEMPTS} times (last: "
                             f"{type(err).__name__}); stopped")
        self.pending.appendleft(task)
        self.idle.append(self._start())


def checked_reply(config: TournamentConfig, task: Task, reply: Any) -> dict[str, Any]:
    """The result in an actor's ``reply`` to ``task``, once it passes the checks every saved line passes.

    Raises :class:`BlockError` for a harness crash or for anything that is not a JSON-clean result
    of exactly ``task`` (another block, another config, malformed sums, stray objects).
    """
    if not (isinstance(reply, tuple) and len(reply) == 2 and reply[0] in ("ok", "crash")):
        raise BlockError(f"block {task.task_id}: the worker sent back something that is not a reply")
    if reply[0] == "crash":
        raise BlockError(f"block {task.task_id}: {reply[1]}")
    result = reply[1]
    problem = result_problem(result, config)
    if problem is None and block_key(result) != block_key(task):
        problem = f"it is the result of block {result['task_id']}, not of this one"
    if problem is None:
        problem = _json_problem(result)
    if problem is None and "records" in result:
        problem = _records_problem(result["records"], result.get("hands"))
    if problem is not None:
        raise BlockError(f"block {task.task_id}: the worker's result is not valid ({problem}); nothing was saved")
    return result


def _records_problem(records: Any, hands: Any) -> str | None:
    """Why a result's hand ``records`` are not one replayable record per hand, or None."""
    from razz_env.engine.record import hand_from_record

    if not isinstance(records, list) or len(records) != hands:
        return f"'records' should be a list of {hands} hand records"
    for index, record in enumerate(records):
        try:
            if not isinstance(record, dict) or not isinstance(record.get("players"), list):
                raise ValueError("not a hand record with its players")
            hand_from_record(record)
        except Exception as err:  # noqa: BLE001 - any way a record fails to replay makes the result invalid
            return f"records[{index}] does not replay: {' '.join(str(err).split())[:200]}"
    return None


def _json_problem(result: dict[str, Any]) -> str | None:
    """Why ``result`` would not be written as the same JSON line it is read back as, or None."""
    try:
        text = json.dumps(result, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as err:
        return f"not plain JSON: {err}"
    if json.loads(text) != result:
        return "not plain JSON: it changes through a JSON round trip"
    seconds = result.get("seconds")
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                or not math.isfinite(seconds) or seconds < 0):
        return "'seconds' is not a duration"
    return None
