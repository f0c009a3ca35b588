"""razz_env.serve.app: the page, its assets and the JSON API, through Starlette's test client (no network)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from razz_env.engine.errors import ConfigError  # noqa: E402
from razz_env.serve.app import Args, address, create_app, listening_socket, run  # noqa: E402

OFFERED = {name: name for name in ("random", "calling_station", "razz_heuristic", "monte_carlo")}
PHH = Path(__file__).resolve().parents[1] / "data" / "phh"


@pytest.fixture
def client():
    app = create_app(OFFERED, max_tables=3, idle_minutes=5)
    with TestClient(app, base_url="http://127.0.0.1") as test_client:
        yield test_client
    app.state.tables.close_all()


def _until_idle(client: TestClient, table_id: str) -> dict:
    for _ in range(400):
        view = client.get(f"/api/tables/{table_id}").json()
        if not view["busy"]:
            return view
        time.sleep(0.02)
    raise AssertionError("the agents never finished")


def test_the_page_and_its_assets_are_served_from_the_package_and_fetch_nothing_else(client):
    page = client.get("/")
    assert page.status_code == 200 and "razz-env" in page.text
    for src in ("/static/table.js", "/static/app.js", "/static/style.css"):
        assert src in page.text and client.get(src).status_code == 200
    assert "drawTable" in client.get("/static/table.js").text
    for text in (page.text, client.get("/static/app.js").text, client.get("/static/style.css").text):
        assert "http://" not in text.replace('"http://www.w3.org/2000/svg"', "") and "https://" not in text
    assert client.get("/static/evil.js").json()["error"].startswith("no asset 'evil.js'")


def test_options_offer_the_games_presets_and_the_tables_each_agent_plays(client):
    options = client.get("/api/options").json()
    assert {v["name"] for v in options["variants"]} >= {"razz", "stud8", "minirazz"}
    assert next(v for v in options["variants"] if v["name"] == "minirazz")["max_seats"] == 5
    assert "house" in options["rules"] and [a["label"] for a in options["agents"]] == list(OFFERED)


def test_a_hand_played_through_the_api(client):
    view = client.post("/api/tables", json={"agents": ["calling_station"], "seed": 3}).json()
    table_id, layouts = view["id"], view["layouts"]
    assert list(layouts) == ["2/7"]
    for _ in range(30):
        view = _until_idle(client, table_id)
        if view["over"]:
            break
        view = client.post(f"/api/tables/{table_id}/act", json={"action": view["legal"][0]["name"]}).json()
        assert "error" not in view or view["error"] is None
    assert view["over"] and view["results"]["hands"] == 1
    records = client.get(f"/api/tables/{table_id}/hands.jsonl")
    assert records.headers["content-type"].startswith("application/x-ndjson")
    assert json.loads(records.text)["players"] == ["you", "calling_station"]
    assert client.post(f"/api/tables/{table_id}/next").json()["hand"] == 2


@pytest.mark.parametrize("method, path, body, status, message", [
    ("POST", "/api/tables", {"variant": "holdem"}, 400, "variant: expected one of"),
    ("POST", "/api/tables", {"agents": ["cmd:/bin/sh"]}, 400, "is not offered here"),
    ("GET", "/api/tables/nope", None, 404, "no table 'nope'"),
    ("POST", "/api/tables/nope/act", {"action": "call"}, 404, "no table 'nope'"),
    ("GET", "/api/nothing", None, 404, "no such page or API call: GET /api/nothing"),
    ("PUT", "/api/tables", {}, 405, "no such page or API call: PUT /api/tables"),
    ("POST", "/api/replay", {"name": "x.jsonl"}, 400, "expected {\"name\""),
    ("POST", "/api/replay", {"name": "x.jsonl", "text": "{not json"}, 400, "x.jsonl:1"),
])
def test_bad_requests_get_a_clear_error_and_change_nothing(client, method, path, body, status, message):
    before = len(client.app.state.tables)
    response = client.request(method, path, json=body)
    assert response.status_code == status and message in response.json()["error"]
    assert len(client.app.state.tables) == before


def test_a_body_that_is_not_json_is_refused(client):
    response = client.post("/api/tables", content=b"{oops", headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and response.json()["error"].startswith("the request is not JSON")


def test_moves_are_checked_and_a_refused_one_changes_nothing(client):
    table_id = client.post("/api/tables", json={"agents": ["calling_station"], "seed": 1}).json()["id"]
    view = _until_idle(client, table_id)
    for body, message in (({"action": "dance"}, "is not legal now"), ({}, "expected {\"action\"")):
        response = client.post(f"/api/tables/{table_id}/act", json=body)
        assert response.status_code == 400 and message in response.json()["error"]
    assert client.post(f"/api/tables/{table_id}/step", json={"decisions": 1}).status_code == 400
    assert client.get(f"/api/tables/{table_id}?since=x").json()["error"].startswith("since: expected")
    assert client.get(f"/api/tables/{table_id}").json() == view


def test_tables_are_freed_when_closed_or_idle_and_their_number_is_capped(client):
    tables = client.app.state.tables
    ids = [client.post("/api/tables", json={"agents": ["random"]}).json()["id"] for _ in range(3)]
    refused = client.post("/api/tables", json={"agents": ["random"]})
    assert refused.status_code == 503 and "3 tables are open" in refused.json()["error"]
    assert client.post(f"/api/tables/{ids[0]}/close").json() == {"closed": ids[0]}
    assert client.delete(f"/api/tables/{ids[0]}").status_code == 404
    for table_id in ids[1:]:
        _until_idle(client, table_id)
        tables.get(table_id).touched -= 3600
    tables.sweep()
    assert len(tables) == 0 and client.get(f"/api/tables/{ids[1]}").status_code == 404


def test_a_slow_agent_keeps_no_other_request_waiting(client, monkeypatch):
    import razz_env.serve.tables as tables
    from razz_env.encoding.interface import Declaration

    class Slow:
        name, declaration = "slow", Declaration()

        def reset(self, seat, num_seats, variant):
            pass

        def act(self, observation):
            time.sleep(1.5)
            return 1 if observation.action_mask[1] else 3

    monkeypatch.setattr(tables, "make_agent", lambda spec, seed=None: Slow())
    table_id = client.post("/api/tables", json={"seat": None, "agents": ["random", "random"]}).json()["id"]
    client.post(f"/api/tables/{table_id}/step", json={"decisions": None})
    started = time.monotonic()
    assert client.get(f"/api/tables/{table_id}").json()["busy"]
    assert client.get("/api/options").status_code == 200
    assert time.monotonic() - started < 1.0, "a request waited for the slow agent"
    assert client.post(f"/api/tables/{table_id}/step", json={}).json()["error"].startswith("the agents are still")


def test_a_request_for_another_host_is_refused(client):
    response = client.get("/", headers={"host": "attacker.example"})
    assert response.status_code == 400


def test_replay_of_a_televised_phh_hand_and_of_records(client):
    path = sorted(PHH.glob("*razz.phh"))[0]
    data = client.post("/api/replay", json={"name": path.name, "text": path.read_text(), "seat": None}).json()
    assert data["name"] == path.name and len(data["hands"]) == 1 and len(data["hands"][0]["steps"]) > 3
    assert list(data["layouts"]) == [f"{len(data['hands'][0]['steps'][0]['state']['seats'])}/7"]
    table_id = client.post("/api/tables", json={"seat": None, "agents": ["random", "calling_station"]}).json()["id"]
    client.post(f"/api/tables/{table_id}/step", json={"decisions": None})
    _until_idle(client, table_id)
    text = client.get(f"/api/tables/{table_id}/hands.jsonl").text
    again = client.post("/api/replay", json={"name": "mine.jsonl", "text": text, "seat": 0}).json()
    assert again["hands"][0]["steps"][-1]["state"]["over"]


def test_the_command_refuses_a_port_in_use_and_an_unknown_agent_in_one_line():
    with listening_socket("127.0.0.1", 0) as taken:
        port = taken.getsockname()[1]
        assert address(taken) == f"http://127.0.0.1:{port}/"
        with pytest.raises(ConfigError, match=f"--port {port}: cannot listen there"):
            listening_socket("127.0.0.1", port)
    with pytest.raises(ConfigError, match="--agent 'no_such_agent'"):
        run(Args(agent=("no_such_agent",)))


def test_a_port_in_use_leaves_no_socket_open(monkeypatch):
    """The socket that could not bind is closed at once (it was left to the garbage collector: a ResourceWarning)."""
    import socket

    made: list[socket.socket] = []

    class Recorded(socket.socket):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    with listening_socket("127.0.0.1", 0) as taken:
        monkeypatch.setattr(socket, "socket", Recorded)
        with pytest.raises(ConfigError, match="cannot listen there"):
            listening_socket("127.0.0.1", taken.getsockname()[1])
    assert len(made) == 1 and made[0].fileno() == -1


def test_many_tables_play_at_once_each_its_own_hands():
    """Four players at four tables at the same moment, each from a thread of its own: every table plays its hands to
    the end and its records are its own (same seed, same hands; other seeds, other hands)."""
    import threading

    app = create_app(OFFERED, max_tables=4)  # the fixture's server keeps 3
    client = TestClient(app, base_url="http://127.0.0.1")

    seeds = [1, 2, 3, 1]
    records: dict[int, str] = {}
    problems: list[str] = []

    def player(index: int) -> None:
        try:
            table_id = client.post("/api/tables", json={"agents": ["random"], "seed": seeds[index]}).json()["id"]
            for _ in range(3):
                while True:
                    view = _until_idle(client, table_id)
                    if view["over"]:
                        break
                    client.post(f"/api/tables/{table_id}/act", json={"action": view["legal"][-1]["name"]})
                client.post(f"/api/tables/{table_id}/next")
            records[index] = client.get(f"/api/tables/{table_id}/hands.jsonl").text
        except Exception as err:  # noqa: BLE001 - reported below, with the thread that met it
            problems.append(f"player {index}: {err!r}")

    threads = [threading.Thread(target=player, args=(index,)) for index in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert problems == [] and len(records) == 4
    assert all(text.count("\n") == 3 for text in records.values())
    assert records[0] == records[3] and len({records[0], records[1], records[2]}) == 3
    app.state.tables.close_all()


def test_razz_serve_prints_its_address_serves_the_page_and_stops_on_ctrl_c(tmp_path):
    import signal
    import subprocess
    import sys
    import urllib.request

    process = subprocess.Popen([sys.executable, "-W", "always::ResourceWarning", "-m", "razz_env.cli", "serve",
                                "--port", "0"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert line.startswith("razz serve: open http://127.0.0.1:") and "agents offered" in line, line
        url = line.split("open ")[1].split(" ")[0]
        with urllib.request.urlopen(url, timeout=30) as page:
            assert page.status == 200 and b"razz-env" in page.read()
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    assert process.returncode == 0 and "Traceback" not in err, err
    assert "ResourceWarning" not in err, err  # its listening socket closed when it stops


def test_razz_serve_without_the_serve_extra_names_it():
    import subprocess
    import sys

    refuse = ("import sys\nclass Refuse:\n    def find_spec(self, name, path=None, target=None):\n"
              "        if name.split('.')[0] in ('starlette', 'uvicorn'):\n"
              "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
              "sys.meta_path.insert(0, Refuse())\nfrom razz_env.cli import main\nsys.exit(main(['serve']))\n")
    done = subprocess.run([sys.executable, "-c", refuse], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert re.fullmatch(r"razz serve: this needs (starlette|uvicorn), which is not installed: pip install "
                        r"'razz-env\[serve\]'", done.stderr.strip()), done.stderr


def test_a_model_file_given_at_the_command_line_is_offered_for_its_own_game_and_table(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    pytest.importorskip("numba")
    from razz_env.serve.app import offered_agents, options
    from razz_env.train.batch_ppo import Args as PPOArgs
    from razz_env.train.batch_ppo import train

    trained = train(PPOArgs(variant="stud8", output=str(tmp_path / "run"), total_steps=128, num_tables=16,
                            num_steps=8, hidden=(8,), num_minibatches=2, update_epochs=1, quiet=True))["output"]
    import razz_env.agents.registry as registry

    built, make_agent = [], registry.make_agent
    monkeypatch.setattr(registry, "make_agent", lambda spec, **kw: built.append(spec) or make_agent(spec, **kw))
    offered = offered_agents((trained,))
    listed = next(agent for agent in options(offered)["agents"] if agent["label"] == trained)
    assert built == [trained]  # built once to check it and read its declaration, not again for the menus
    assert listed["variants"] == ("stud8",) and listed["seats"] == (2,)
    with TestClient(create_app(offered), base_url="http://127.0.0.1") as test_client:
        view = test_client.post("/api/tables", json={"variant": "stud8", "agents": [trained], "seed": 1}).json()
        assert view["names"] == ["you", trained] and view["error"] is None
        refused = test_client.post("/api/tables", json={"variant": "razz", "agents": [trained]})
        assert refused.status_code == 400 and "stud8" in refused.json()["error"]
        test_client.app.state.tables.close_all()


def test_tables_opened_at_once_never_pass_the_limit():
    import threading

    app = create_app(OFFERED, max_tables=2)
    client = TestClient(app, base_url="http://127.0.0.1")
    statuses: list[int] = []
    threads = [threading.Thread(target=lambda: statuses.append(
        client.post("/api/tables", json={"agents": ["monte_carlo"]}).status_code)) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(statuses) == [200, 200, 503, 503, 503, 503] and len(app.state.tables) == 2
    app.state.tables.close_all()
