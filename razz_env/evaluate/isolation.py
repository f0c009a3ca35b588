"""Isolated play: an agent that is not trusted runs in a process of its own that never holds a hand.

In the spirit of the ACPC dealer protocol, the harness keeps every ``HandState``; an isolated agent's
process receives only its observations (seat, legal-action mask and the view and vector its declaration
asks for, all built from what the seat may see) and sends back action ids. So an agent that walks
``gc.get_objects()`` or the interpreter's frames finds no hidden card. Its process is killed when the
harness stops waiting (the decision time limit) or is done with it.

A spec asks for it with ``isolated: true`` (``{type: "mybots:MyBot", isolated: true}``); :class:`IsolatedAgent`
stands in for the agent in the block's worker process. The agent process is a fresh interpreter
(``python -m razz_env.evaluate.isolation``) talking over its stdin and a copy of its stdout, so what the
agent prints goes to stderr and cannot garble the protocol. It runs in the sandbox of
:mod:`~razz_env.agents.sandbox`: it cannot see, read or signal the worker, its descendants die with it, and it
writes only to a working directory of its own, never to the results folder.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import sys
from collections.abc import Mapping, Sequence
from multiprocessing.connection import Connection
from typing import Any

from razz_env.agents.sandbox import start_sandboxed
from razz_env.encoding.interface import (
    HandOutcome,
    Observation,
    ObservationBatch,
    act_batch,
    declaration_of,
    hand_over_hook,
)

START_SECONDS = 120.0


class AgentError(RuntimeError):
    """What the isolated agent raised, as ``"ValueError: ..."``: its message names the agent's own error type."""

    names_itself = True


class IsolatedAgent:
    """The agent ``spec`` builds, played in its own process: ``reset``, ``act_batch`` and, when the agent has it,
    ``hand_over`` are forwarded as messages.

    Its declaration is the agent's own, acting in batch (one message per batched call) and stating no policy.
    Any error the agent raises comes back as an :class:`AgentError` naming it; a dead agent process as a
    ``RuntimeError``.
    """

    def __init__(self, spec: str | Mapping[str, Any], seed: int | None = None, modules: Sequence[str] = (),
                 hidden: Sequence[str] = ()) -> None:
        self.process = start_sandboxed([sys.executable, "-m", "razz_env.evaluate.isolation"], hidden)
        self._send = Connection(os.dup(self.process.stdin.fileno()), readable=False)
        self._receive = Connection(os.dup(self.process.stdout.fileno()), writable=False)
        self.process.stdin.close()
        self.process.stdout.close()
        name, declared, told = self._ask(("build", spec, seed, tuple(modules)), START_SECONDS)
        self.name = name
        self.declaration = dataclasses.replace(declared, acts_in_batch=True, states_policy=False)
        if told:  # only an agent with the hook has it here too (a harness looks for the attribute)
            self.hand_over = self._hand_over

    def _ask(self, message: tuple[Any, ...], seconds: float | None = None) -> Any:
        """Send ``message`` and wait for the reply (``RuntimeError`` for the agent's error or a dead process)."""
        try:
            self._send.send(message)
            if seconds is not None and not self._receive.poll(seconds):
                raise RuntimeError(f"the isolated agent's process did not answer within {seconds:g} s")
            kind, value = self._receive.recv()
        except (EOFError, OSError):
            self.close()
            raise RuntimeError(f"the isolated agent's process ended (exit status {self.process.wait()})") from None
        except BaseException:
            self.close()  # a timeout or Ctrl-C while it thinks: it is stopped, not left running
            raise
        if kind == "error":
            raise AgentError(value)
        return value

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        """Forwarded to the agent."""
        self._ask(("reset", seat, num_seats, variant))

    def act(self, observation: Observation) -> int:
        """One decision: a batch of one."""
        return self.act_batch([observation])[0]

    def act_batch(self, observations: Sequence[Observation]) -> list[int]:
        """The agent's ids for ``observations``, which travel as one batch of arrays (no hand goes with them)."""
        return self._ask(("act", ObservationBatch.of(observations)))

    def _hand_over(self, outcome: HandOutcome) -> None:
        """Forwarded to the agent's ``hand_over``."""
        self._ask(("hand_over", outcome))

    def close(self) -> None:
        """Kill the agent's process (it holds nothing worth a goodbye)."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._send.close()
        self._receive.close()

    def __del__(self) -> None:
        if getattr(self, "process", None) is not None and getattr(self, "_receive", None) is not None:
            self.close()

    def __reduce__(self) -> Any:
        raise TypeError("an isolated agent is a process of its own: give it as a spec with 'isolated: true'")


def _serve(requests: Connection, replies: Connection) -> None:
    """The agent process: build the agent, then answer reset, act and hand_over messages until the harness closes
    the pipe."""
    from razz_env.agents.registry import make_agent

    agent: Any = None
    while True:
        try:
            message = requests.recv()
        except (EOFError, OSError):
            return
        try:
            if message[0] == "build":
                _, spec, seed, modules = message
                for module in modules:
                    importlib.import_module(module)
                agent = make_agent(spec, seed=seed)
                reply: Any = (getattr(agent, "name", type(agent).__name__), declaration_of(agent),
                              hand_over_hook(agent) is not None)
            elif message[0] == "reset":
                reply = agent.reset(*message[1:])
            elif message[0] == "hand_over":
                reply = agent.hand_over(message[1])
            else:
                reply = [int(i) for i in act_batch(agent, message[1])]
            answer = ("ok", reply)
        except Exception as err:  # noqa: BLE001 - the agent's error goes back to the harness, which names it
            answer = ("error", f"{type(err).__name__}: {' '.join(str(err).split())}")
        replies.send(answer)


def _main() -> None:
    """Entry point of the agent process: the protocol on stdin and a copy of stdout; stdout itself to stderr."""
    requests = Connection(os.dup(0), writable=False)
    replies = Connection(os.dup(1), readable=False)
    os.dup2(2, 1)
    os.close(0)
    _serve(requests, replies)


if __name__ == "__main__":
    _main()
