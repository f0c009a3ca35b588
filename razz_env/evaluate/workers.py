"""Playing tournament blocks in worker processes that can die without losing or hanging the run.

Each worker is a spawned process serving one block at a time over its own pipe, so the
main process always knows which block a worker holds. Workers never run the user's script again
(:mod:`~razz_env.evaluate.spawning`): a script without a ``__main__`` guard works, and what it defines (an
agent class, a registered factory) reaches the workers by value. A worker killed from outside (the
OOM killer, ``kill -9``) is noticed through its process sentinel: its block is played again
by a fresh worker, up to :data:`MAX_ATTEMPTS` times, then the run stops naming the block.
Blocks are pure functions of (config, task), so a retried block gives the same result and
the results do not depend on the number of workers. Workers ignore Ctrl-C (the main process
stops them) and exit quietly when the main process dies.

The decision time limit is kept from here: each worker publishes the deadline of the decision
it is waiting for (:func:`~razz_env.evaluate.containment.watch_decisions`), and a worker still busy
:data:`KILL_GRACE_SECONDS` past it is killed and its block failed as the agent's timeout, so an
agent that catches the in-process alarm, ignores SIGALRM or sits in one long C call is stopped.
That needs a separate process, so blocks are played in a worker even with ``workers: 1`` (only an
agent instance that does not pickle stays in this process, unwatched: it is the caller's own code).
"""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any

from razz_env.evaluate.blocks import failed_block, run_task
from razz_env.evaluate.config import TournamentConfig
from razz_env.evaluate.containment import AgentFailure, timeout_message, watch_decisions
from razz_env.evaluate.spawning import by_value, without_main
from razz_env.evaluate.tasks import Task

MAX_ATTEMPTS = 3
PARENT_POLL_SECONDS = 0.5
WATCH_POLL_SECONDS = 0.1
KILL_GRACE_SECONDS = 0.5


class BlockError(RuntimeError):
    """A block could not be played: its worker kept dying, or the harness failed on it."""


class WorkerStartError(BlockError):
    """Worker processes cannot start: what they must import or unpickle fails in a fresh process."""


def run_blocks(config: TournamentConfig, tasks: list[Task], modules: Iterable[str] = ()) -> Iterator[dict[str, Any]]:
    """Play ``tasks``, yielding each result as it ends, in ``config.workers`` watched worker processes.

    ``modules`` are imported in each worker first (those that register the agents by name).
    """
    if config.workers == 1 and not picklable(config):
        for task in tasks:
            try:
                result = run_task(config, task)
            except Exception as err:  # noqa: BLE001 - a harness failure stops the run with the block named
                raise BlockError(f"block {task.task_id}: {type(err).__name__}: {err}") from err
            yield result
        return
    pool = WorkerPool(config, min(config.workers, len(tasks)), tuple(modules))
    try:
        yield from pool.run(tasks)
    finally:
        pool.close()


def picklable(config: TournamentConfig) -> bool:
    """Whether every agent of ``config`` can travel to a worker (an instance that does not pickle cannot)."""
    return not any(isinstance(data, dict) and "instance" in data and data["pickle_sha256"] is None
                   for data in config._agent_data)


class _Worker:
    """One worker process, its pipe, and the task it is playing (None when idle)."""

    def __init__(self, context: Any, payload: bytes) -> None:
        ours, theirs = context.Pipe()
        self.cells = context.Array("d", 3, lock=False)
        self.process = context.Process(target=_serve, args=(theirs, payload, os.getpid(), self.cells), daemon=True)
        with _ctrl_c_ignored(), without_main():
            self.process.start()
        theirs.close()
        self.conn: Connection = ours
        self.task: Task | None = None

    def assign(self, task: Task) -> bool:
        """Hand ``task`` over; False if the worker is gone."""
        try:
            self.conn.send(task)
        except OSError:
            return False
        self.task = task
        return True

    def receive(self) -> tuple[str, Any] | None:
        """The worker's reply, or None if it died (its pipe closed without one)."""
        if self.conn.poll():
            with contextlib.suppress(EOFError, OSError):
                return self.conn.recv()
        self.process.join(5)
        return None

    def overrun(self, now: float) -> bool:
        """Whether the decision the worker waits for is past its deadline and grace."""
        deadline = self.cells[0]
        return deadline > 0 and now > deadline + KILL_GRACE_SECONDS

    def death(self) -> str:
        """How the worker ended, in words."""
        code = self.process.exitcode
        if code is None:
            return "its pipe closed"
        if code < 0:
            return f"killed by {signal.Signals(-code).name}"
        return f"exit status {code}"

    def stop(self) -> None:
        """End the worker: politely when idle, at once when busy or stuck."""
        if self.task is None and self.process.is_alive():
            with contextlib.suppress(OSError):
                self.conn.send(None)
            self.process.join(2)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(2)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


class WorkerPool:
    """``size`` spawned workers serving a queue of tasks; a task whose worker dies goes back to its front.

    Workers start with the first :meth:`run` and serve later runs (their agents' models stay loaded) until
    :meth:`close`.
    """

    def __init__(self, config: TournamentConfig, size: int, modules: tuple[str, ...]) -> None:
        self.config = config
        self.size = size
        self.context = multiprocessing.get_context("spawn")
        self.payload = _payload(config, modules)
        self.pending: deque[Task] = deque()
        self.deaths: Counter[str] = Counter()
        self.workers: list[_Worker] = []

    def _start(self) -> _Worker:
        return _Worker(self.context, self.payload)

    def run(self, tasks: list[Task]) -> Iterator[dict[str, Any]]:
        """Yield each task's result as it arrives; :class:`BlockError` when a block cannot be played."""
        self.pending.extend(tasks)
        if not self.workers:
            self.workers = [self._start() for _ in range(self.size)]
        while self.pending or any(w.task is not None for w in self.workers):
            for index, worker in enumerate(self.workers):
                if worker.task is None and self.pending:
                    task = self.pending.popleft()
                    if not worker.assign(task):
                        self._lost(index, task)
            busy = [w for w in self.workers if w.task is not None]
            ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy], WATCH_POLL_SECONDS))
            now = time.monotonic()
            for index, worker in enumerate(self.workers):
                task = worker.task
                if task is None:
                    continue
                if not ready & {worker.conn, worker.process.sentinel}:
                    if worker.overrun(now):
                        yield self._timed_out(index, task)
                    continue
                reply = worker.receive()
                worker.task = None
                if reply is None:
                    self._lost(index, task)
                elif reply[0] == "crash":
                    raise BlockError(f"block {task.task_id}: {reply[1]}")
                elif reply[0] == "start":
                    raise WorkerStartError(f"worker processes cannot start: {reply[1]}")
                else:
                    yield reply[1]

    def close(self) -> None:
        """Stop every worker."""
        for worker in self.workers:
            worker.stop()
        self.workers = []

    def _timed_out(self, index: int, task: Task) -> dict[str, Any]:
        """Worker ``index`` overran a decision of ``task``: kill it, start another, fail the block as a timeout."""
        worker = self.workers[index]
        position, decisions = int(worker.cells[1]), int(worker.cells[2])
        worker.process.kill()
        worker.stop()
        self.workers[index] = self._start()
        message = f"{timeout_message(self.config.decision_timeout, decisions)}; its worker process was killed"
        return failed_block(self.config, task, AgentFailure(position, "timeout", message))

    def _lost(self, index: int, task: Task) -> None:
        """Worker ``index`` died holding ``task``: replace it and queue the task again, or stop the run."""
        dead = self.workers[index]
        dead.task = None
        dead.stop()
        self.deaths[task.task_id] += 1
        if self.deaths[task.task_id] >= MAX_ATTEMPTS:
            raise BlockError(f"block {task.task_id}: its worker process died {MAX_ATTEMPTS} times (last: "
                             f"{dead.death()}); stopped")
        self.pending.appendleft(task)
        self.workers[index] = self._start()


class _ctrl_c_ignored:
    """Start children with SIGINT ignored (inherited through exec), so Ctrl-C reaches the main process only."""

    def __enter__(self) -> None:
        self.previous = None
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, signal.SIG_IGN)

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)


def _exit_with(parent: int) -> None:
    """Exit quietly (no traceback, no result) as soon as ``parent`` is gone."""
    exit_now = os._exit  # the real one: a block in play refuses os._exit to its agents

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        exit_now(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _payload(config: TournamentConfig, modules: tuple[str, ...]) -> bytes:
    """What a worker needs, pickled by value: the config, the modules registering its agents, and the agents
    registered by the main module (which the worker does not run)."""
    from razz_env.agents.registry import registered_in

    try:
        return by_value((config, modules, registered_in("__main__")))
    except Exception as err:  # noqa: BLE001 - whatever pickling an agent raises
        raise WorkerStartError(f"the agents cannot be sent to worker processes: {type(err).__name__}: {err}; "
                               "an agent instance that does not pickle plays with workers=1") from None


def _start(payload: bytes) -> tuple[TournamentConfig | None, str | None]:
    """Unpickle the worker's config, import the agents' modules and register the main module's agents: the config,
    and None, or a one-line account of what failed, saying what the user can do."""
    from razz_env.agents.registry import register

    try:
        config, modules, factories = pickle.loads(payload)
    except Exception as err:  # noqa: BLE001 - reported to the main process in one line
        return None, (f"{type(err).__name__} while unpickling the agents: {err}; define the agents' classes in a "
                      "module (a .py file beside the script) rather than in an interactive session")
    for module in modules:
        try:
            importlib.import_module(module)
        except Exception as err:  # noqa: BLE001 - reported to the main process in one line
            return None, (f"importing {module}, which registers an agent: {type(err).__name__}: {err}; a worker "
                          f"imports it from the Python path (sys.path: {', '.join(sys.path[:4])}...)")
    for name, factory in factories.items():
        register(name, replace=True)(factory)
    return config, None


def _serve(conn: Connection, payload: bytes, parent: int, cells: Any) -> None:
    """A worker's loop: receive a task, play it, send ``("ok", result)`` or ``("crash", message)``; ``("start",
    message)`` to the first task when the worker could not start."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _exit_with(parent)
    config, problem = _start(payload)
    if problem is not None:
        with contextlib.suppress(EOFError, OSError):
            conn.recv()
            conn.send(("start", problem))
        return
    watch_decisions(cells)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            reply = ("ok", run_task(config, task))
        except Exception as err:  # noqa: BLE001 - reported to the main process, which names the block
            reply = ("crash", f"{type(err).__name__}: {err}")
        try:
            conn.send(reply)
        except OSError:
            return
