"""``razz serve`` in a real browser: headless Chromium plays whole hands through the page, watches agents and
replays a televised hand, driven over the DevTools protocol on a pipe (no extra package), and checks what a
player sees. ``RAZZ_SCREENSHOTS=docs/serve pytest tests/serve/test_browser.py -n 0`` saves the docs' pictures."""

from __future__ import annotations

import base64
import fcntl
import json
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")

from razz_env.envs.render import COLOURS  # noqa: E402
from razz_env.serve.app import address, create_app, listening_socket  # noqa: E402

OFFERED = {name: name for name in ("calling_station", "razz_heuristic", "random", "monte_carlo")}
PHH = Path(__file__).resolve().parents[1] / "data" / "phh"


class Browser:
    """Headless Chromium and one page, spoken to with the DevTools protocol over ``--remote-debugging-pipe``."""

    def __init__(self, program: str) -> None:
        to_browser, self._commands = os.pipe()
        self._events, from_browser = os.pipe()
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_browser, from_browser)]

        def wire() -> None:  # in the child: the pipe ends on the descriptors the protocol names, 3 and 4
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self.process = subprocess.Popen(
            [program, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--remote-debugging-pipe",
             "--window-size=1320,900", "--no-first-run", "--no-default-browser-check", "about:blank"],
            preexec_fn=wire, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for fd in (to_browser, from_browser, *high):
            os.close(fd)
        self._buffer, self._next = b"", 0
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]

    def send(self, method: str, params: dict[str, Any] | None = None, page: bool = False) -> dict[str, Any]:
        self._next += 1
        message = {"id": self._next, "method": method, "params": params or {}}
        if page:
            message["sessionId"] = self.session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            while b"\0" not in self._buffer:
                chunk = os.read(self._events, 1 << 20)
                assert chunk, "the browser closed its pipe"
                self._buffer += chunk
            raw, _, self._buffer = self._buffer.partition(b"\0")
            reply = json.loads(raw)
            if reply.get("id") == self._next:
                assert "error" not in reply, reply["error"]
                return reply["result"]
        raise AssertionError(f"no answer to {method}")

    def evaluate(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True}, page=True)
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    def until(self, expression: str, seconds: float = 30) -> Any:
        """The value of ``expression`` once it is truthy (an error while the page loads counts as not yet)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            value = self.evaluate(f"(() => {{ try {{ return ({expression}); }} catch (error) {{ return null; }} }})()")
            if value:
                return value
            time.sleep(0.1)
        raise AssertionError(f"the page never showed {expression}")

    def screenshot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode(self.send("Page.captureScreenshot", {"format": "png"}, page=True)["data"]))

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        os.close(self._commands)
        os.close(self._events)


@pytest.fixture(scope="module")
def served():
    """The app on a free local port, served by uvicorn in a thread; its address."""
    app = create_app(OFFERED)
    sock = listening_socket("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    yield address(sock), app
    server.should_exit = True
    thread.join(10)
    sock.close()


@pytest.fixture(scope="module")
def browser():
    program = next((shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome")
                    if shutil.which(name)), None)
    if program is None:
        pytest.skip("no Chromium on this machine (Debian: apt-get install chromium); the page is not driven")
    opened = Browser(program)
    yield opened
    opened.close()


def _shot(browser: Browser, tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    browser.screenshot(path)
    assert path.stat().st_size > 10_000
    wanted = os.environ.get("RAZZ_SCREENSHOTS")
    if wanted:
        Path(wanted).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(wanted) / name)


SEATS = "[...document.querySelectorAll('#table g[data-seat]')]"
FACE_DOWN = f"{SEATS}.map((g) => g.querySelectorAll('rect[fill=\"{COLOURS['back']}\"]').length)"
OWN_FACE_UP = f"{SEATS}.map((g) => g.querySelectorAll('rect[fill=\"{COLOURS['hole_face']}\"]').length)"
BUTTONS = "[...document.querySelectorAll('#actions button')].map((b) => b.firstChild.textContent)"
LOG = "document.querySelectorAll('#log li').length"


def _freed(app: Any, how: str) -> None:
    """Every table of the server freed within 10 seconds (``how`` says what should have freed it)."""
    deadline = time.monotonic() + 10
    while len(app.state.tables) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(app.state.tables) == 0, f"{how} did not free its table"


def _press(browser: Browser, key: str) -> None:
    """A key pressed on the page, as a player would."""
    browser.evaluate(f"document.dispatchEvent(new KeyboardEvent('keydown', {{key: {json.dumps(key)}}})) || true")


def _load(browser: Browser, url: str, mode: str) -> None:
    """The page loaded afresh in ``mode`` (a new document: the same address with another hash would not be)."""
    browser.send("Page.navigate", {"url": "about:blank"}, page=True)
    browser.until("document.readyState === 'complete' && location.href === 'about:blank'")
    browser.send("Page.navigate", {"url": f"{url}#mode={mode}"}, page=True)


def _open(browser: Browser, url: str, mode: str, agents: list[str], seed: int) -> None:
    _load(browser, url, mode)
    browser.until("document.querySelectorAll('#agent-seats select').length > 0")
    browser.evaluate(f"""(() => {{
        const selects = [...document.querySelectorAll('#agent-seats select')];
        {json.dumps(agents)}.forEach((name, i) => {{ selects[i].value = name; }});
        document.getElementById('seed').value = '{seed}';
        document.getElementById('open').click();
        return true; }})()""")


def test_a_person_plays_hands_through_the_page_and_sees_only_their_seat(served, browser, tmp_path):
    url, app = served
    _open(browser, url, "play", ["calling_station"], seed=5)
    shots = 0
    for hand in range(1, 3):
        while True:
            state = browser.until(f"""(() => {{
                const buttons = {BUTTONS};
                const next = [...document.querySelectorAll('#controls button')].find((b) =>
                    b.firstChild.textContent === 'next hand');
                if (buttons.length) return {{turn: true, buttons, where: document.getElementById('where').textContent,
                                             down: {FACE_DOWN}, mine: {OWN_FACE_UP}, log: {LOG}}};
                if (next && !next.disabled) return {{over: true}};
                return null; }})()""")
            if state.get("over"):
                break
            assert state["where"] == f"hand {hand}: your turn"
            assert state["down"][1] >= 2 and state["down"][0] == 0  # the opponent's down cards face down, mine not
            assert state["mine"][0] >= 2 and state["mine"][1] == 0  # my own down cards face up (their colour)
            session = next(iter(app.state.tables))
            assert state["buttons"] == [action["label"] for action in session.view()["legal"]]
            if shots == 0:
                _shot(browser, tmp_path, "play.png")
                shots += 1
            key = next((k for k, label in (("c", "call"), ("c", "check"), ("i", "bring in"))
                        if any(b.startswith(label) for b in state["buttons"])), None)
            if key is not None:  # the keyboard, as a player would
                _press(browser, key)
            else:
                browser.evaluate("document.querySelector('#actions button').click() || true")
            browser.until(f"{LOG} > {state['log']}", seconds=10)  # the move reached the table's log
        # a calling station goes to the showdown: every card face up, the result in the running figures
        assert browser.evaluate(f"{FACE_DOWN}.every((n) => n === 0)")
        assert browser.evaluate(f"document.querySelector('#results').textContent.includes('after {hand} hand')")
        if hand == 1:
            _shot(browser, tmp_path, "showdown.png")
            _press(browser, "n")
            browser.until("document.getElementById('where').textContent.startsWith('hand 2')")
    browser.evaluate("[...document.querySelectorAll('#controls button')].find((b) => "
                     "b.textContent === 'replay hands').click() || true")  # the two hands, as this seat saw them
    where = browser.until("document.getElementById('where').textContent.includes('hand 1 of 2') && "
                          "document.getElementById('where').textContent")
    assert where.startswith("table ") and browser.evaluate(f"{FACE_DOWN}[1] === 2")  # the deal: theirs face down
    browser.evaluate("[...document.querySelectorAll('button.tab')].find((b) => b.textContent === 'Play').click() "
                     "|| true")
    _open(browser, url, "play", ["random"], seed=1)  # a new page: the old one freed its table as it went
    browser.until(f"{BUTTONS}.length > 0")
    assert len(app.state.tables) == 1
    browser.evaluate("[...document.querySelectorAll('#controls button')].find((b) => "
                     "b.textContent === 'leave table').click() || true")
    _freed(app, "leaving the table")


def test_watching_agents_shows_their_stated_policy_and_the_aivat_result(served, browser, tmp_path):
    url, app = served
    _open(browser, url, "watch", ["razz_heuristic", "monte_carlo"], seed=2)
    browser.until("[...document.querySelectorAll('#controls button')].some((b) => b.firstChild.textContent === "
                  "'step' && !b.disabled)")
    _press(browser, "s")
    stated = browser.until("document.getElementById('policy').textContent.includes('stated') && "
                           "document.getElementById('policy').textContent")
    assert "%" in stated
    assert browser.evaluate(f"{FACE_DOWN}.every((n) => n === 0)")  # a watcher sees every card
    _press(browser, "h")
    browser.until("document.getElementById('policy').textContent.includes('AIVAT this hand')", seconds=60)
    _shot(browser, tmp_path, "watch.png")
    browser.send("Page.navigate", {"url": "about:blank"}, page=True)  # the tab goes: pagehide frees the table
    _freed(app, "closing the tab")


def test_a_televised_hand_replays_step_by_step(served, browser, tmp_path):
    url, _ = served
    path = sorted(PHH.glob("*razz.phh"))[0]
    _load(browser, url, "replay")
    browser.until("document.getElementById('replay-form').hidden === false")
    browser.evaluate(f"""(() => {{
        const file = new File([{json.dumps(path.read_text())}], {json.dumps(path.name)});
        const files = new DataTransfer();
        files.items.add(file);
        document.getElementById('replay-file').files = files.files;
        document.getElementById('replay-open').click();
        return true; }})()""")
    where = browser.until("document.getElementById('where').textContent.includes('step 0') && "
                          "document.getElementById('where').textContent")
    assert where.startswith(f"{path.name}: hand 1 of 1")
    for _ in range(6):
        _press(browser, "ArrowRight")
    assert "step 6 of" in browser.evaluate("document.getElementById('where').textContent")
    _shot(browser, tmp_path, "replay.png")
