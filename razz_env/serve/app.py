"""``razz serve``: a local web app to play any game against the zoo, watch agents play, and replay hands.

A small Starlette app (served by uvicorn) over :mod:`razz_env.serve.tables`: a JSON API the page in ``static/``
calls, and the page itself (HTML, CSS and two scripts, one of them the table drawing the replay page shares,
:func:`razz_env.envs.render.table_script`); nothing is fetched from the network. The browser picks agents from
the list the server offers (the registered agents, and the specs given with ``--agent``), never a spec of its
own, so a page cannot make the server run a program. The server binds to 127.0.0.1 unless ``--host`` says
otherwise, and then answers only requests addressed to a local name (no DNS rebinding).

API (every answer JSON; an error is ``{"error": "..."}`` with status 400, 404 or 503):

- ``GET /api/options``: the games, rule presets and offered agents (the tables each plays).
- ``POST /api/tables`` with a :class:`~razz_env.serve.tables.Setup`: opens a table, answers its view.
- ``GET /api/tables/{id}?since=K``: the view, with the hand's steps from K on.
- ``POST /api/tables/{id}/act`` ``{"action": "call"}``, ``.../step`` ``{"decisions": 1}``, ``.../next``.
- ``GET /api/tables/{id}/hands.jsonl``: the hands played, as the seat saw them.
- ``DELETE /api/tables/{id}`` (or ``POST .../close``, which a closing tab sends): frees the table.
- ``POST /api/replay`` ``{"name": "hand.phh", "text": "...", "seat": null}``: a file's hands, step by step.
"""

from __future__ import annotations

import functools
import socket
import tempfile
import threading
import time
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from razz_env.engine.checks import limited
from razz_env.engine.errors import ConfigError, labelled

MAX_BODY = 8 * 2**20
"""The largest request a browser may send (a replayed file's text): 8 MiB."""
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")


@dataclass(frozen=True)
class Args:
    """``razz serve``'s settings (its flags; :func:`run`)."""

    host: str = "127.0.0.1"
    """the address to listen on (another than 127.0.0.1 lets other machines in: anyone who reaches it can play)"""
    port: int = limited(8000, minimum=0, maximum=65535)
    """the port (0: any free one)"""
    agent: tuple[str, ...] = ()
    """more agents to offer besides the registered ones: a model file, a cmd: bot or module:Class (repeatable)"""
    max_tables: int = limited(32, minimum=1)
    """tables open at once; more are refused until one closes"""
    idle_minutes: float = limited(30.0, minimum=0.1)
    """a table nobody has looked at for this long is freed (a tab closed without saying so)"""


class Tables:
    """The open tables by id, freed when closed or idle too long; at most ``limit`` at once."""

    def __init__(self, offered: dict[str, Any], limit: int, idle_seconds: float) -> None:
        self.offered, self.limit, self.idle_seconds = offered, limit, idle_seconds
        self._open: dict[str, Any] = {}
        self._opening = 0
        self._lock = threading.Lock()

    def open(self, data: Any) -> Any:
        from razz_env.serve.tables import Session, Setup

        setup = Setup.from_request(data, self.offered)
        self.sweep()
        with self._lock:  # the check and the reservation at once: concurrent opens cannot pass the limit
            if len(self._open) + self._opening >= self.limit:
                raise Busy(f"{self.limit} tables are open, the most this server keeps; close one (a tab's "
                           f"'leave table') or wait for an idle one to be freed")
            self._opening += 1
        try:
            session = Session(setup, self.offered)
        finally:
            with self._lock:
                self._opening -= 1
        with self._lock:
            self._open[session.id] = session
        return session

    def get(self, table_id: str) -> Any:
        self.sweep()
        with self._lock:
            session = self._open.get(table_id)
        if session is None:
            raise Missing(f"no table {table_id!r}: it was closed, or freed after {self.idle_seconds / 60:g} idle "
                          f"minutes; open a new one")
        return session

    def close(self, table_id: str) -> None:
        with self._lock:
            session = self._open.pop(table_id, None)
        if session is None:
            raise Missing(f"no table {table_id!r} to close")
        session.close()

    def close_all(self) -> None:
        """Free every table (the server stops)."""
        with self._lock:
            sessions, self._open = list(self._open.values()), {}
        for session in sessions:
            session.close()

    def sweep(self) -> None:
        """Free every table idle longer than ``idle_seconds`` (its agents closed)."""
        now = time.monotonic()
        with self._lock:
            stale = [s for s in self._open.values() if now - s.touched > self.idle_seconds and not s.busy]
            for session in stale:
                del self._open[session.id]
        for session in stale:
            session.close()

    def __len__(self) -> int:
        return len(self._open)

    def __iter__(self) -> Any:
        """The open tables (a snapshot)."""
        with self._lock:
            return iter(list(self._open.values()))


class Missing(ConfigError):
    """No such table (404)."""


class Busy(ConfigError):
    """The server keeps no more tables (503)."""


@functools.cache
def declared_by(spec: str) -> Any:
    """The declaration of the agent ``spec`` builds (built once a server, then closed: a model file or a bot)."""
    from razz_env.agents.registry import make_agent
    from razz_env.encoding.interface import declaration_of

    agent = make_agent(spec, seed=0)
    closing = getattr(agent, "close", None)
    if callable(closing):
        closing()
    return declaration_of(agent)


def offered_agents(extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """Label to spec: every registered agent that can be built without arguments, then ``extra`` (each checked by
    building it once; a bad one is a :class:`ConfigError` naming it)."""
    from razz_env.agents.registry import AgentSpecError, available_agents, describe_agent

    offered: dict[str, Any] = {name: name for name in available_agents() if describe_agent(name).tables_known}
    for spec in extra:
        with labelled(f"--agent {spec!r}", AgentSpecError, ValueError, TypeError, OSError):
            declared_by(spec)
        offered[spec] = spec
    return offered


def options(offered: dict[str, Any]) -> dict[str, Any]:
    """What the page's menus offer: games (title, seats), rule presets, agents (the games and seats each plays)."""
    from razz_env.agents.registry import available_agents, describe_agent
    from razz_env.engine.config import MAX_SEATS, MIN_SEATS, max_seats
    from razz_env.engine.presets import PRESETS
    from razz_env.engine.variants import VARIANTS

    agents, registered = [], set(available_agents())
    for label, spec in offered.items():
        if spec in registered:
            info = describe_agent(spec)
            variants, seats, idea = info.variants, info.seat_counts, info.idea
        else:
            declared = declared_by(spec)
            variants, seats, idea = declared.variants, declared.seat_counts, f"given with --agent: {label}"
        agents.append({"label": label, "variants": variants, "seats": seats, "idea": idea})
    return {"variants": [{"name": name, "title": variant.title, "max_seats": max_seats(variant)}
                         for name, variant in VARIANTS.items()],
            "rules": list(PRESETS), "min_seats": MIN_SEATS, "max_seats": MAX_SEATS, "agents": agents,
            "stack": 1000}


def replay(data: Any) -> dict[str, Any]:
    """A hand-record (JSONL) or PHH file's hands as the page's steps (``razz show``'s replay, one file)."""
    from razz_env.envs.render import layout
    from razz_env.show import load_hands

    if not isinstance(data, dict) or not isinstance(data.get("text"), str) or not isinstance(data.get("name"), str):
        raise ConfigError("expected {\"name\": the file's name, \"text\": its contents, \"seat\": null or a seat}")
    seat = data.get("seat")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat < 0):
        raise ConfigError(f"seat: expected null (every card face up) or a seat number, got {seat!r}")
    name = Path(data["name"]).name or "hands.jsonl"
    suffix = ".phhs" if name.lower().endswith(".phhs") else ".phh" if name.lower().endswith(".phh") else ".jsonl"
    with tempfile.TemporaryDirectory(prefix="razz-serve-") as folder:
        path = Path(folder) / f"upload{suffix}"
        path.write_text(data["text"], encoding="utf-8")
        try:
            hands = load_hands([str(path)], viewer=seat)
        except ConfigError as err:
            raise ConfigError(str(err).replace(str(path), name)) from None
    shapes = sorted({(len(hand.steps[0].seats), hand.steps[0].cards_per_seat) for hand in hands})
    return {"name": name, "layouts": {f"{n}/{cards}": layout(n, cards) for n, cards in shapes},
            "hands": [{"number": hand.number, "source": hand.source.replace(str(path), name),
                       "steps": [{"state": s.to_dict()} for s in hand.steps]} for hand in hands]}


def create_app(offered: dict[str, Any] | None = None, max_tables: int = 32, idle_minutes: float = 30.0,
               local_only: bool = True) -> Any:
    """The Starlette app: the page, its assets and the API over one :class:`Tables`."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    from razz_env.envs.render import table_script

    tables = Tables(offered if offered is not None else offered_agents(), max_tables, idle_minutes * 60)
    static = files("razz_env.serve").joinpath("static")
    assets = {"app.js": ("application/javascript", static.joinpath("app.js").read_text(encoding="utf-8")),
              "style.css": ("text/css", static.joinpath("style.css").read_text(encoding="utf-8")),
              "table.js": ("application/javascript", table_script())}
    page = static.joinpath("index.html").read_text(encoding="utf-8")
    menus = options(tables.offered)

    def answer(work: Any) -> Response:
        try:
            return JSONResponse(work())
        except ConfigError as err:  # a missing table 404, a full server 503, any other refusal 400
            status = 404 if isinstance(err, Missing) else 503 if isinstance(err, Busy) else 400
            return JSONResponse({"error": str(err)}, status_code=status)

    async def body(request: Request) -> Any:
        import json

        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise ConfigError(f"the request is {len(raw)} bytes; at most {MAX_BODY} are read")
        if not raw.strip():
            return {}
        try:
            return json.loads(raw)
        except (ValueError, UnicodeDecodeError) as err:
            raise ConfigError(f"the request is not JSON ({err})") from None

    def endpoint(work: Any) -> Any:
        """An async endpoint: the JSON body read, then ``work(request, data)`` in a worker thread."""
        from starlette.concurrency import run_in_threadpool

        async def handle(request: Request) -> Response:
            try:
                data = await body(request)
            except ConfigError as err:
                return JSONResponse({"error": str(err)}, status_code=400)
            return await run_in_threadpool(answer, lambda: work(request, data))

        return handle

    def since(request: Request) -> int:
        text = request.query_params.get("since", "0")
        if not text.isdigit():
            raise ConfigError(f"since: expected a step number (0 or more), got {text!r}")
        return int(text)

    def table(request: Request) -> Any:
        return tables.get(request.path_params["id"])

    def opened(request: Request, data: Any) -> dict[str, Any]:
        session = tables.open(data)
        return {**session.view(), "layouts": session.layouts()}

    def acted(request: Request, data: Any) -> dict[str, Any]:
        session = table(request)
        if not isinstance(data, dict) or not isinstance(data.get("action"), str):
            raise ConfigError("expected {\"action\": the name of a legal action, e.g. \"call\"}")
        session.act(data["action"])
        return session.view(since(request))

    def stepped(request: Request, data: Any) -> dict[str, Any]:
        session = table(request)
        session.step(data.get("decisions", 1) if isinstance(data, dict) else 1)
        return session.view(since(request))

    def dealt(request: Request, data: Any) -> dict[str, Any]:
        session = table(request)
        session.next_hand()
        return session.view()

    def closed(request: Request, data: Any) -> dict[str, Any]:
        tables.close(request.path_params["id"])
        return {"closed": request.path_params["id"]}

    async def viewed(request: Request) -> Response:
        return answer(lambda: table(request).view(since(request)))

    async def hands(request: Request) -> Response:
        try:
            text = table(request).records_jsonl()
        except Missing as err:
            return JSONResponse({"error": str(err)}, status_code=404)
        return Response(text, media_type="application/x-ndjson",
                        headers={"Content-Disposition": 'attachment; filename="razz-serve-hands.jsonl"'})

    async def index(request: Request) -> Response:
        return HTMLResponse(page)

    async def asset(request: Request) -> Response:
        found = assets.get(request.path_params["name"])
        if found is None:
            return JSONResponse({"error": f"no asset {request.path_params['name']!r}; there are "
                                          f"{', '.join(assets)}"}, status_code=404)
        return Response(found[1], media_type=found[0])

    async def offered_options(request: Request) -> Response:
        return JSONResponse(menus)

    async def not_found(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": f"no such page or API call: {request.method} {request.url.path}"},
                            status_code=getattr(exc, "status_code", 404))

    routes = [
        Route("/", index),
        Route("/static/{name}", asset),
        Route("/api/options", offered_options),
        Route("/api/tables", endpoint(opened), methods=["POST"]),
        Route("/api/tables/{id}", viewed, methods=["GET"]),
        Route("/api/tables/{id}", endpoint(closed), methods=["DELETE"]),
        Route("/api/tables/{id}/close", endpoint(closed), methods=["POST"]),
        Route("/api/tables/{id}/act", endpoint(acted), methods=["POST"]),
        Route("/api/tables/{id}/step", endpoint(stepped), methods=["POST"]),
        Route("/api/tables/{id}/next", endpoint(dealt), methods=["POST"]),
        Route("/api/tables/{id}/hands.jsonl", hands),
        Route("/api/replay", endpoint(lambda request, data: replay(data)), methods=["POST"]),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=list(LOCAL_HOSTS))] if local_only else []
    app = Starlette(routes=routes, middleware=middleware, exception_handlers={404: not_found, 405: not_found})
    app.state.tables = tables
    return app


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` and listening; :class:`ConfigError` when it cannot be (in use, no such
    address); the socket it could not bind is closed, not left to the garbage collector."""
    sock = None
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
        sock.listen(64)
    except OSError as err:
        if sock is not None:
            sock.close()
        raise ConfigError(f"--host {host} --port {port}: cannot listen there ({err.strerror or err}); give another "
                          f"--port, or --port 0 for any free one") from None
    return sock


def address(sock: socket.socket) -> str:
    """The page's address for a listening socket."""
    host, port = sock.getsockname()[:2]
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def run(args: Args) -> int:
    """``razz serve``: offer the agents, listen, print the address, serve until Ctrl-C."""
    import uvicorn

    offered = offered_agents(args.agent)
    local = args.host.strip("[]") in {h.strip("[]") for h in LOCAL_HOSTS}
    app = create_app(offered, args.max_tables, args.idle_minutes, local_only=local)
    sock = listening_socket(args.host, args.port)
    print(f"razz serve: open {address(sock)} in a browser (Ctrl-C stops); {len(offered)} agents offered", flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops on Ctrl-C, then raises it again
        print("razz serve: stopped", flush=True)
    finally:
        app.state.tables.close_all()
    return 0
