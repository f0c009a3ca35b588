"""Bots over TCP (``remote:HOST:PORT``): the stdin/stdout bridge serves the shell bot to a match with the results of
``cmd:``, a server that breaks the protocol fails its block by name, and a bad address or a refused connection is
refused when the spec is built. Every port is an ephemeral one, so tests never collide."""

from __future__ import annotations

import contextlib
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from razz_env.agents.external import BotError, RemoteAgent
from razz_env.agents.registry import AgentSpecError, make_agent
from razz_env.engine.errors import ConfigError
from razz_env.evaluate.api import match
from razz_env.evaluate.workers import BlockError

ROOT = Path(__file__).resolve().parents[2]
RAISER = ROOT / "examples" / "bots" / "raiser.sh"


@pytest.fixture
def bridge() -> Iterator[int]:
    """``python -m razz_env.agents.bot_server --port 0 -- raiser.sh`` running; yields the port it listens on."""
    with subprocess.Popen([sys.executable, "-m", "razz_env.agents.bot_server", "--port", "0", "--", str(RAISER)],
                          stdout=subprocess.PIPE, text=True, cwd=ROOT) as server:  # its pipe closed at the end
        try:
            first = server.stdout.readline()
            found = re.fullmatch(r"listening on 127\.0\.0\.1:(\d+)\n", first)
            assert found, first
            yield int(found.group(1))
        finally:
            server.kill()


@pytest.mark.timeout(120)
def test_a_bot_served_over_tcp_plays_a_match_as_its_command_does(bridge):
    remote = match(f"remote:127.0.0.1:{bridge}", "calling_station", deals=6, block_deals=3, seed=3, duplicate=False)
    local = match(f"cmd:{RAISER}", "calling_station", deals=6, block_deals=3, seed=3, duplicate=False)
    assert remote.hands == 6 and remote.bb_per_100 == local.bb_per_100 != 0
    agent = make_agent(f"remote:127.0.0.1:{bridge}")
    assert isinstance(agent, RemoteAgent) and agent.name == "raiser"
    agent.close()


@pytest.fixture
def held() -> Iterator[list[socket.socket]]:
    """The sockets a test opens, closed when it ends (shut down first, so that a thread waiting in ``accept``
    returns): none is left open to the end of the run."""
    sockets: list[socket.socket] = []
    yield sockets
    for sock in sockets:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        sock.close()


def _serve(answer: Callable[[socket.socket, bytes], bool], held: list[socket.socket]) -> int:
    """A bot server in a thread, on an ephemeral port (its listener in ``held``): it answers hello, then calls
    ``answer(connection, line)`` for every other line until that returns False. Returns its port."""
    listener = socket.create_server(("127.0.0.1", 0))
    held.append(listener)

    def converse(connection: socket.socket) -> None:
        with connection, connection.makefile("rb") as lines:
            for line in lines:
                if line.startswith(b'{"type":"hello"'):
                    connection.sendall(b'{"ready":true,"name":"tcpbot"}\n')
                elif not answer(connection, line):
                    return

    def accept() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:  # the test ended: its listener is closed
                return
            threading.Thread(target=converse, args=(connection,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    return listener.getsockname()[1]


def _on_act(reply: bytes | None) -> Callable[[socket.socket, bytes], bool]:
    """Answer every act with ``reply`` (None: hang up); ignore other lines."""
    def answer(connection: socket.socket, line: bytes) -> bool:
        if not line.startswith(b'{"type":"act"'):
            return True
        if reply is None:
            return False
        connection.sendall(reply)
        return True
    return answer


@pytest.mark.parametrize("reply,failure", [
    (b"nonsense\n", "answered 'nonsense', which is not JSON"),
    (None, "closed the connection before bye; it must answer every act"),
    (b'{"action":"bet_big"}\n', "answered action 'bet_big', which is not legal now"),
])
@pytest.mark.timeout(60)
def test_a_remote_bot_that_breaks_the_protocol_fails_its_block_by_name(reply, failure, held):
    port = _serve(_on_act(reply), held)
    with pytest.raises(BlockError, match=re.escape(f"agent mine failed: exception: BotError: bot "
                                                   f"'remote:127.0.0.1:{port}'") + ".*" + re.escape(failure)):
        match({"type": f"remote:127.0.0.1:{port}", "label": "mine"}, "calling_station", deals=1, block_deals=1)


@pytest.mark.timeout(60)
def test_a_remote_bot_that_never_answers_fails_on_the_time_limits(held):
    port = _serve(_on_act(b""), held)
    with pytest.raises(BlockError, match="agent slow failed: timeout: no decision within 0.5 s"):
        match({"type": f"remote:127.0.0.1:{port}", "label": "slow"}, "calling_station", deals=1, block_deals=1,
              decision_timeout=0.5)
    silent = _silent(held)
    with pytest.raises(BotError, match=re.escape(f"bot 'remote:127.0.0.1:{silent}': no answer to hello within 0.3 s")):
        RemoteAgent(f"127.0.0.1:{silent}", start_timeout=0.3)


def _silent(held: list[socket.socket]) -> int:
    """A port that accepts connections (the kernel's backlog) and never says anything (its socket in ``held``)."""
    listener = socket.create_server(("127.0.0.1", 0))
    held.append(listener)
    return listener.getsockname()[1]


def _refused_port(held: list[socket.socket]) -> int:
    """A port nothing listens on: bound (so no one else takes it now) but not listening (its socket in ``held``)."""
    bound = socket.socket()
    bound.bind(("127.0.0.1", 0))
    held.append(bound)
    return bound.getsockname()[1]


@pytest.mark.parametrize("address,message", [
    ("127.0.0.1", "not a host and port; write remote:HOST:PORT"),
    ("127.0.0.1:0", "not a host and port"),
    ("127.0.0.1:65536", "not a host and port"),
    ("127.0.0.1:http", "not a host and port"),
    (":9000", "not a host and port"),
    ("::1:9000", "an IPv6 host goes in brackets; write remote:HOST:PORT, e.g. 'remote:127.0.0.1:9000' or "
                 "'remote:[::1]:9000', the port 1-65535"),
])
def test_a_malformed_address_is_refused_when_the_spec_is_built(address, message):
    with pytest.raises(AgentSpecError, match=re.escape(f"agent 'remote:{address}': {message}")):
        make_agent(f"remote:{address}")


def test_a_refused_connection_is_refused_before_any_block(held):
    port = _refused_port(held)
    with pytest.raises(AgentSpecError, match=re.escape(f"agent 'remote:127.0.0.1:{port}': cannot connect to "
                                                       f"127.0.0.1 port {port}")):
        make_agent(f"remote:127.0.0.1:{port}")
    with pytest.raises(ConfigError, match=rf"agents\[0\] \(remote:127.0.0.1:{port}\): .*cannot connect"):
        match(f"remote:127.0.0.1:{port}", "random", deals=1)
    with pytest.raises(ConfigError, match="a remote bot .* plays on its own machine, over TCP; drop 'isolated'"):
        match({"type": f"remote:127.0.0.1:{port}", "isolated": True}, "random", deals=1)


def test_the_bridge_refuses_a_missing_program_and_a_bad_port():
    for arguments, message in [(["--port", "0", "--", "./no-such-bot"], "no executable program './no-such-bot'"),
                               (["--port", "70000", "--", str(RAISER)], "expected a port from 0"),
                               (["--port", "0"], "give the bot's command after --")]:
        done = subprocess.run([sys.executable, "-m", "razz_env.agents.bot_server", *arguments], capture_output=True,
                              text=True, cwd=ROOT, timeout=30)
        assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr
