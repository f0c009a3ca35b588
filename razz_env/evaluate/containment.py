"""What an agent may not do to the block it plays in: raise, overrun its time, or end the process.

:class:`AgentFailure` is how a block ends when an agent breaks; :func:`with_time_limit` bounds each call to an
agent (an in-process alarm, and a deadline published for a watching parent process that kills one that defeats the
alarm, :func:`watch_decisions`); :class:`ProcessExitRefused` turns ``os._exit`` into a failure of the block.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any


class AgentFailure(Exception):
    """An agent raised, ran past its time limit, or chose an illegal action."""

    def __init__(self, position: int, kind: str, message: str, target_fault: bool = False) -> None:
        super().__init__(f"{kind}: {message}")
        self.position = position
        self.kind = kind
        self.message = message
        self.target_fault = target_fault


def failure_of(position: int, where: str, err: BaseException) -> AgentFailure:
    """The :class:`AgentFailure` for what an agent raised: an attempt to end the process (``sys.exit``,
    ``os._exit``) is its own kind, never a quiet end of the run."""
    if isinstance(err, SystemExit):
        return AgentFailure(position, "exit", f"{where}tried to end the process (exit status {err.code!r}); an agent "
                                              f"must return an action")
    if getattr(err, "target_fault", False):
        return AgentFailure(position, "policy", f"{where}{err}", target_fault=True)
    named = str(err) if getattr(err, "names_itself", False) else f"{type(err).__name__}: {err}"
    return AgentFailure(position, "exception", f"{where}{named}")


class ProcessExitRefused:
    """While a block plays, ``os._exit`` raises :class:`SystemExit` instead, so an agent calling it fails its block
    (named) rather than ending the run's process with no result."""

    def __enter__(self) -> None:
        self.exit = os._exit

        def refuse(code: int) -> None:
            raise SystemExit(code)

        os._exit = refuse

    def __exit__(self, *exc: object) -> None:
        os._exit = self.exit


class DecisionTimeout(Exception):
    """An agent ran past its time for a decision (raised by the in-process alarm)."""


# Where this process publishes each decision's deadline for a watching parent (workers.py): a shared array of
# (deadline on the monotonic clock, 0.0 between decisions; lineup position; decisions asked at once).
_watch: Any = None


def watch_decisions(cells: Any) -> None:
    """Publish every decision's deadline in ``cells`` (a shared array of three doubles), so the parent process
    can kill this one when an agent overruns: the guarantee an agent cannot defeat from inside this process."""
    global _watch
    _watch = cells


def timeout_message(timeout: float, decisions: int) -> str:
    """The failure message of an agent asked ``decisions`` at once that overran ``timeout`` seconds per decision."""
    if decisions == 1:
        return f"no decision within {timeout:g} s"
    return (f"no answer to {decisions} decisions asked at once within {timeout * decisions:g} s "
            f"({timeout:g} s per decision)")


def with_time_limit(call: Callable[[], Any], seconds: float | None, position: int, decisions: int) -> Any:
    """Run ``call``; raise :class:`DecisionTimeout` past ``seconds`` (``None``: no limit).

    The in-process alarm (main thread only) reports an honest slow agent without losing its process; the
    deadline published for a watching parent (:func:`watch_decisions`) stops one that defeats the alarm.
    """
    if seconds is None:
        return call()
    if _watch is not None:
        _watch[1], _watch[2] = position, decisions
        _watch[0] = time.monotonic() + seconds
    alarm = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    if alarm:
        def expire(signum: int, frame: Any) -> None:
            raise DecisionTimeout

        previous = signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return call()
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        if _watch is not None:
            _watch[0] = 0.0
