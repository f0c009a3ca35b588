"""A bot in any language: a program that speaks the bot protocol (``docs/protocol.md``) on its stdin and stdout.

The spec ``cmd:./mybot`` (or ``{type: "cmd:./mybot", label: ...}``) seats it wherever an agent is accepted. The
command is split as a shell would (``cmd:./mybot --level 3``), without a shell running it; its program is found when the
spec is built (a path with a slash: from the current directory; a bare name: on ``PATH``), so a missing or
non-executable program is refused before any hand. It runs in the sandbox of :mod:`razz_env.agents.sandbox` (an empty
working directory of its own, so give files by absolute path), is sent only what its seat may see
(:mod:`razz_env.encoding.protocol`), and is sent ``bye`` and killed when its agent is closed or collected (at once
when a time limit interrupts a read). A bot that dies, answers garbage or an illegal action raises :class:`BotError`
naming it and what was wrong, which a harness reports as that agent's failure.
"""

from __future__ import annotations

import os
import select
import shlex
import shutil
import subprocess
import time
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from razz_env.agents.registry import COMMAND_PREFIX, AgentSpecError
from razz_env.agents.sandbox import start_sandboxed
from razz_env.encoding import protocol
from razz_env.encoding.interface import Declaration, Observation

START_SECONDS = 30.0
"""How long a bot may take to answer ``hello`` (start up) unless its spec says otherwise (``start_timeout``)."""
BYE_SECONDS = 1.0


class BotError(RuntimeError):
    """A bot that broke the protocol: it died, answered garbage or an illegal action, or took too long to start."""


def command_line(command: str) -> list[str]:
    """The argument list ``command`` runs, its program an absolute path (resolved now); :class:`AgentSpecError`
    for a command that names no executable program.

    >>> command_line("sh -c true")[0].endswith("/sh")
    True
    """
    spec = COMMAND_PREFIX + command
    try:
        words = shlex.split(command)
    except ValueError as err:
        raise AgentSpecError(f"agent {spec!r}: the command cannot be split into words ({err})") from None
    if not words:
        raise AgentSpecError(f"agent {spec!r}: no command; write cmd: then the program, e.g. 'cmd:./mybot'")
    program = words[0]
    if "/" not in program:
        found = shutil.which(program)
        if found is None:
            raise AgentSpecError(f"agent {spec!r}: no program {program!r} on PATH (give a path such as ./{program} "
                                 f"for one in the current directory)")
        program = found
    path = Path(program).expanduser().absolute()
    if not path.exists():
        raise AgentSpecError(f"agent {spec!r}: no such file {str(path)!r}")
    if path.is_dir():
        raise AgentSpecError(f"agent {spec!r}: {str(path)!r} is a directory, not a program")
    if not os.access(path, os.X_OK):
        raise AgentSpecError(f"agent {spec!r}: {str(path)!r} is not executable (chmod +x it, or name its "
                             f"interpreter: cmd:python3 /path/bot.py)")
    return [str(path), *words[1:]]


class ExternalAgent:
    """The bot ``command`` runs, as an agent: ``reset`` sends ``hand``, ``act`` sends ``act`` and reads the action.

    ``seed`` reaches the bot in ``hello``; ``hidden``: folders it must not see (a tournament's results folder);
    ``start_timeout``: seconds it may take to answer ``hello``. It reads the seat view one decision at a time and
    states its policy (``action_probabilities``: a ``policy`` request) when its ``hello`` answer says
    ``"policy": true``. Its ``name`` is the one it gives in that answer, else its command.
    """

    def __init__(self, command: str, seed: int | None = None, hidden: Sequence[str] = (),
                 start_timeout: float = START_SECONDS) -> None:
        self.spec = COMMAND_PREFIX + command
        argv = command_line(command)
        self.process = start_sandboxed(argv, hidden)
        self._end = weakref.finalize(self, _end, self.process)
        self._buffer = b""
        name, policy = self._ask(protocol.hello_message(seed), protocol.ready_from_reply, start_timeout)
        self.name = name or command
        self.declaration = Declaration(observes=("view",), states_policy=policy)

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        """Tell the bot of a hand it is seated at (no answer is read)."""
        self._send(protocol.hand_message(seat, num_seats, variant))

    def act(self, observation: Observation) -> int:
        """The bot's action for this decision, as an action id."""
        return self._ask(protocol.decision_message("act", observation),
                         lambda reply: protocol.action_from_reply(reply, observation))

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        """The bot's stated policy here (only for a bot whose ``hello`` answer said ``"policy": true``)."""
        if not self.declaration.states_policy:
            raise TypeError(f"bot {self.spec!r} states no policy (its hello answer has no \"policy\": true)")
        return self._ask(protocol.decision_message("policy", observation),
                         lambda reply: protocol.policy_from_reply(reply, observation))

    def close(self) -> None:
        """Say ``bye``, give the bot a moment to exit, then kill it and all it started (done anyway when the agent
        is collected)."""
        self._end()

    def __reduce__(self) -> Any:
        raise TypeError(f"bot {self.spec!r} is a process of its own: give it as a spec ({self.spec!r})")

    def _send(self, message: Mapping[str, Any]) -> None:
        try:
            self.process.stdin.write(protocol.line(message))
            self.process.stdin.flush()
        except OSError:
            raise self._ended() from None

    def _ask(self, message: Mapping[str, Any], read: Any, seconds: float | None = None) -> Any:
        """Send ``message`` and ``read`` the answer line; the bot is killed if anything goes wrong (a time limit
        interrupting the wait included), and a broken protocol is a :class:`BotError`."""
        try:
            self._send(message)
            return read(protocol.parse_line(self._line(message["type"], seconds)))
        except protocol.ProtocolError as err:
            self._abort()
            raise BotError(f"bot {self.spec!r}: {err}") from None
        except BaseException:
            self._abort()
            raise

    def _abort(self) -> None:
        """Kill the bot now, without a ``bye`` (it broke the protocol or ran out of time)."""
        self._end.detach()
        _kill(self.process)

    def _line(self, asked: str, seconds: float | None) -> bytes:
        """The bot's next line (without its newline), waiting at most ``seconds`` (None: as long as it takes)."""
        deadline = None if seconds is None else time.monotonic() + seconds
        fd = self.process.stdout.fileno()
        while b"\n" not in self._buffer:
            if len(self._buffer) > protocol.MAX_LINE:
                raise protocol.ProtocolError(f"sent more than {protocol.MAX_LINE} bytes without a newline")
            if deadline is not None and not select.select([fd], [], [], max(0.0, deadline - time.monotonic()))[0]:
                raise BotError(f"bot {self.spec!r}: no answer to {asked} within {seconds:g} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise self._ended()
            self._buffer += chunk
        answer, _, self._buffer = self._buffer.partition(b"\n")
        return answer

    def _ended(self) -> BotError:
        """The error for a bot whose process has ended (or closed its end of the pipes)."""
        try:
            status = self.process.wait(BYE_SECONDS)
        except subprocess.TimeoutExpired:
            return BotError(f"bot {self.spec!r} closed its stdin or stdout; it must read and answer until bye")
        return BotError(f"bot {self.spec!r} exited (exit status {status}) before bye; it must answer every act")


def _end(process: subprocess.Popen[bytes]) -> None:
    """Say ``bye`` to the bot ``process`` runs, give it a moment to exit, then kill it."""
    if process.poll() is None:
        try:
            process.stdin.write(protocol.line(protocol.BYE))
            process.stdin.close()
            process.wait(BYE_SECONDS)
        except (OSError, subprocess.TimeoutExpired):
            pass
    _kill(process)


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Kill ``process`` (the sandbox's launcher: its bot and every process the bot started die with it)."""
    if process.poll() is None:
        process.kill()
        process.wait()
    for pipe in (process.stdin, process.stdout):
        try:
            pipe.close()
        except OSError:
            pass
