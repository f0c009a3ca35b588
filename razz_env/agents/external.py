"""A bot in any language: a program that speaks the bot protocol (``docs/protocol.md``) on its stdin and stdout, or
on a TCP connection.

The spec ``cmd:./mybot`` (or ``{type: "cmd:./mybot", label: ...}``) seats it wherever an agent is accepted. The
command is split as a shell would (``cmd:./mybot --level 3``), without a shell running it; its program is found when the
spec is built (a path with a slash: from the current directory; a bare name: on ``PATH``), so a missing or
non-executable program is refused before any hand. It runs in the sandbox of :mod:`razz_env.agents.sandbox` (an empty
working directory of its own, so give files by absolute path), is sent only what its seat may see
(:mod:`razz_env.encoding.protocol`), and is sent ``bye`` and killed when its agent is closed or collected (at once
when a time limit interrupts a read). The spec ``remote:HOST:PORT`` (``remote:127.0.0.1:9000``,
``remote:[::1]:9000``) seats a bot that listens there (:class:`RemoteAgent`, not sandboxed: it runs elsewhere): one
connection per agent, the same lines, closed after ``bye``; a bad address or a refused connection is refused when the
spec is built. Both are one conversation (:class:`BotAgent`) over a transport (:class:`_Process`, :class:`_Socket`):
a bot that dies, answers garbage or an illegal action raises :class:`BotError` naming it and what was wrong, which a
harness reports as that agent's failure.
"""

from __future__ import annotations

import contextlib
import os
import select
import shlex
import shutil
import socket
import subprocess
import time
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from razz_env.agents.registry import COMMAND_PREFIX, REMOTE_PREFIX, AgentSpecError
from razz_env.agents.sandbox import start_sandboxed
from razz_env.encoding import protocol
from razz_env.encoding.interface import Declaration, HandOutcome, Observation

START_SECONDS = 30.0
"""How long a bot may take to answer ``hello`` (start up) unless its spec says otherwise (``start_timeout``)."""
BYE_SECONDS = 1.0
CHUNK = 65536


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


def host_and_port(text: str) -> tuple[str, int]:
    """The host and port of a remote bot's address ``HOST:PORT`` (an IPv6 host in brackets: ``[::1]:9000``);
    :class:`AgentSpecError` naming the spec and what is allowed.

    >>> host_and_port("127.0.0.1:9000"), host_and_port("[::1]:9000")
    (('127.0.0.1', 9000), ('::1', 9000))
    """
    spec = REMOTE_PREFIX + text
    allowed = "write remote:HOST:PORT, e.g. 'remote:127.0.0.1:9000' or 'remote:[::1]:9000', the port 1-65535"
    host, colon, port = text.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    elif ":" in host:
        raise AgentSpecError(f"agent {spec!r}: an IPv6 host goes in brackets; {allowed}")
    if not colon or not host or not port.isascii() or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise AgentSpecError(f"agent {spec!r}: not a host and port; {allowed}")
    return host, int(port)


class BotAgent:
    """A bot, as an agent: the protocol's conversation over a transport (a process's pipes, a socket).

    ``reset`` sends ``hand``, ``act`` sends ``act`` and reads the action, ``hand_over`` sends ``hand_end``. The bot
    answers ``hello`` (``seed`` in it) within ``start_timeout`` seconds, else :class:`BotError`. It reads the seat
    view one decision at a time and states its policy (``action_probabilities``: a ``policy`` request) when its
    ``hello`` answer says ``"policy": true``. Its ``name`` is the one it gives in that answer, else ``default_name``.
    """

    def __init__(self, spec: str, transport: _Process | _Socket, seed: int | None, start_timeout: float,
                 default_name: str) -> None:
        self.spec = spec
        self._transport = transport
        self._end = weakref.finalize(self, transport.end)
        self._buffer = b""
        name, policy = self._ask(protocol.hello_message(seed), protocol.ready_from_reply, start_timeout)
        self.name = name or default_name
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

    def hand_over(self, outcome: HandOutcome) -> None:
        """Tell the bot how one of its hands ended (no answer is read)."""
        self._send(protocol.hand_end_message(outcome))

    def close(self) -> None:
        """Say ``bye``, give the bot a moment to exit, then end it (done anyway when the agent is collected)."""
        self._end()

    def __reduce__(self) -> Any:
        raise TypeError(f"bot {self.spec!r} is a process or connection of its own: give it as a spec ({self.spec!r})")

    def _send(self, message: Mapping[str, Any]) -> None:
        try:
            self._transport.send(protocol.line(message))
        except OSError:
            raise self._transport.ended(self.spec) from None

    def _ask(self, message: Mapping[str, Any], read: Any, seconds: float | None = None) -> Any:
        """Send ``message`` and ``read`` the answer line; the bot is ended if anything goes wrong (a time limit
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
        """End the bot now, without a ``bye`` (it broke the protocol or ran out of time)."""
        self._end.detach()
        self._transport.kill()

    def _line(self, asked: str, seconds: float | None) -> bytes:
        """The bot's next line (without its newline), waiting at most ``seconds`` (None: as long as it takes)."""
        deadline = None if seconds is None else time.monotonic() + seconds
        transport = self._transport
        while b"\n" not in self._buffer:
            if len(self._buffer) > protocol.MAX_LINE:
                raise protocol.ProtocolError(f"sent more than {protocol.MAX_LINE} bytes without a newline")
            if deadline is not None and not select.select([transport.fileno()], [], [],
                                                          max(0.0, deadline - time.monotonic()))[0]:
                raise BotError(f"bot {self.spec!r}: no answer to {asked} within {seconds:g} s")
            try:
                chunk = transport.receive()
            except OSError:
                chunk = b""
            if not chunk:
                raise transport.ended(self.spec)
            self._buffer += chunk
        answer, _, self._buffer = self._buffer.partition(b"\n")
        return answer


class ExternalAgent(BotAgent):
    """The bot ``command`` runs (``cmd:``), in the sandbox; ``hidden``: folders it must not see (a tournament's
    results folder). Its name without one of its own is its command."""

    def __init__(self, command: str, seed: int | None = None, hidden: Sequence[str] = (),
                 start_timeout: float = START_SECONDS) -> None:
        argv = command_line(command)
        self.process = start_sandboxed(argv, hidden)
        super().__init__(COMMAND_PREFIX + command, _Process(self.process), seed, start_timeout, command)


class RemoteAgent(BotAgent):
    """The bot listening at ``address`` (``HOST:PORT``, the spec ``remote:HOST:PORT``): one TCP connection, made
    within ``start_timeout`` seconds, else :class:`AgentSpecError`. Its name without one of its own is its spec."""

    def __init__(self, address: str, seed: int | None = None, start_timeout: float = START_SECONDS) -> None:
        spec = REMOTE_PREFIX + address
        host, port = host_and_port(address)
        try:
            connection = socket.create_connection((host, port), timeout=start_timeout)
        except OSError as err:
            raise AgentSpecError(f"agent {spec!r}: cannot connect to {host} port {port} "
                                 f"({err.strerror or err}); is the bot listening there?") from None
        connection.settimeout(None)
        super().__init__(spec, _Socket(connection), seed, start_timeout, spec)


class _Process:
    """A bot's transport: the stdin and stdout of its (sandbox's) process."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process

    def send(self, data: bytes) -> None:
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def fileno(self) -> int:
        return self.process.stdout.fileno()

    def receive(self) -> bytes:
        return os.read(self.fileno(), CHUNK)

    def ended(self, spec: str) -> BotError:
        """The error for a bot whose process has ended (or closed its end of the pipes)."""
        try:
            status = self.process.wait(BYE_SECONDS)
        except subprocess.TimeoutExpired:
            return BotError(f"bot {spec!r} closed its stdin or stdout; it must read and answer until bye")
        return BotError(f"bot {spec!r} exited (exit status {status}) before bye; it must answer every act")

    def end(self) -> None:
        """Say ``bye``, give the bot a moment to exit, then kill it."""
        process = self.process
        if process.poll() is None:
            with contextlib.suppress(OSError, subprocess.TimeoutExpired):
                process.stdin.write(protocol.line(protocol.BYE))
                process.stdin.close()
                process.wait(BYE_SECONDS)
        self.kill()

    def kill(self) -> None:
        """Kill the sandbox's launcher: its bot and every process the bot started die with it."""
        process = self.process
        if process.poll() is None:
            process.kill()
            process.wait()
        for pipe in (process.stdin, process.stdout):
            with contextlib.suppress(OSError):
                pipe.close()


class _Socket:
    """A remote bot's transport: one TCP connection."""

    def __init__(self, connection: socket.socket) -> None:
        self.connection = connection

    def send(self, data: bytes) -> None:
        self.connection.sendall(data)

    def fileno(self) -> int:
        return self.connection.fileno()

    def receive(self) -> bytes:
        return self.connection.recv(CHUNK)

    def ended(self, spec: str) -> BotError:
        return BotError(f"bot {spec!r} closed the connection before bye; it must answer every act")

    def end(self) -> None:
        """Say ``bye`` and close the connection."""
        with contextlib.suppress(OSError):
            self.connection.sendall(protocol.line(protocol.BYE))
            self.connection.shutdown(socket.SHUT_WR)
        self.kill()

    def kill(self) -> None:
        self.connection.close()
