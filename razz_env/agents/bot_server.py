"""Serve a bot that speaks the bot protocol on its stdin and stdout over TCP, for the spec ``remote:HOST:PORT``.

``python -m razz_env.agents.bot_server --port 9000 -- ./examples/bots/raiser.sh`` listens on 127.0.0.1 port 9000
(``--host`` for another address, ``--port 0`` for any free port) and starts the command once for each connection,
with the connection as its stdin and stdout, as ``inetd`` or ``socat TCP-LISTEN:9000,reuseaddr,fork EXEC:...`` would.
The harness connects once for each agent it builds (one per block) and closes after ``bye``, so each block gets a
fresh process. The command runs as it is, in the current directory, not sandboxed: serve only bots you trust. The
standard library only, so it runs wherever Python does.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import socket
import socketserver
import subprocess
import sys
from collections.abc import Sequence


class _Connection(socketserver.BaseRequestHandler):
    """One connection: the command runs with the socket as its stdin and stdout, until it exits."""

    server: _Server

    def handle(self) -> None:
        fd = self.request.fileno()
        with subprocess.Popen(self.server.command, stdin=fd, stdout=fd) as child:
            child.wait()


class _Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True

    def __init__(self, host: str, port: int, command: Sequence[str]) -> None:
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.command = list(command)
        super().__init__((host, port), _Connection)


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 0 (any free one) to 65535, got {text!r}")
    return int(text)


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the command given after ``--`` until interrupted; it prints ``listening on HOST:PORT`` first."""
    parser = argparse.ArgumentParser(prog="python -m razz_env.agents.bot_server",
                                     description="Serve a stdin/stdout bot of the bot protocol over TCP: one "
                                                 "process per connection (docs/protocol.md).")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=_port, required=True, help="the port to listen on (0: any free one)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the bot's command and its arguments")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the bot's command after --, e.g. -- ./examples/bots/raiser.sh")
    if shutil.which(command[0]) is None:
        parser.error(f"no executable program {command[0]!r} (a path such as ./mybot, or a name on PATH)")
    try:
        server = _Server(args.host, args.port, command)
    except OSError as err:
        parser.error(f"cannot listen on {args.host} port {args.port}: {err.strerror or err}")
    with server:
        host, port = server.server_address[:2]
        print(f"listening on {f'[{host}]' if ':' in host else host}:{port}", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
