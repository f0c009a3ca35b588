"""The red team's attacks, run by isolated agents: none reaches the process holding the hands, the results folder,
or outlives its block.

The hostile agents live in this module: the isolated process imports it by name. Each runs its attacks in ``reset``
and reports what it found by raising, so the report comes back as the block's failure message. On a machine where
the sandbox's namespaces cannot be made the attacks are skipped, with the reason.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from razz_env.agents.registry import register
from razz_env.agents.sandbox import sandbox_problem
from razz_env.encoding.interface import Declaration
from razz_env.evaluate.api import match
from razz_env.evaluate.config import TournamentConfig
from razz_env.evaluate.runner import run_tournament

PROBLEM = sandbox_problem()
needs_sandbox = pytest.mark.skipif(PROBLEM is not None, reason=f"no namespaces here: {PROBLEM}")
PTRACE_ATTACH = 16


class _Iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("length", ctypes.c_size_t)]


def _errno_of(call) -> str:
    """``"SUCCEEDED"`` if ``call`` works, else the name of the error it raised."""
    try:
        call()
    except OSError as err:
        return f"refused: {os.strerror(err.errno) if err.errno else err}"
    return "SUCCEEDED"


def _libc_call(name: str, *args):
    def call() -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        if getattr(libc, name)(*args) == -1:
            number = ctypes.get_errno()
            raise OSError(number, os.strerror(number))

    return call


def _read(path: str):
    def call() -> None:
        with open(path, "rb") as file:
            file.read(1 << 20)

    return call


def _write(path: str, mode: str = "a"):
    def call() -> None:
        with open(path, mode) as file:
            file.write('{"forged": true}\n')

    return call


def attacks(target: int, results: str) -> dict[str, object]:
    """Every attack of the red team on process ``target`` (the harness's main process) and the folder ``results``."""
    local = ctypes.create_string_buffer(64)
    mine, theirs = _Iovec(ctypes.addressof(local), 64), _Iovec(0x400000, 64)
    parent = os.getppid()
    found: dict[str, object] = {
        "parent": parent,
        "pids seen": sorted(int(name) for name in os.listdir("/proc") if name.isdigit()),
        "mem": _errno_of(_read(f"/proc/{target}/mem")),
        "environ": _errno_of(_read(f"/proc/{target}/environ")),
        "ptrace": _errno_of(_libc_call("ptrace", PTRACE_ATTACH, target, None, None)),
        "process_vm_readv": _errno_of(_libc_call("process_vm_readv", target, ctypes.byref(mine), 1,
                                                 ctypes.byref(theirs), 1, 0)),
        "kill": _errno_of(lambda: os.kill(target, 0)),
        "append results": _errno_of(_write(os.path.join(results, "matches.jsonl"))),
        "create in results": _errno_of(_write(os.path.join(results, "forged.txt"), "x")),
        "list results": _errno_of(lambda: os.listdir(results)),
        "read the results key": _errno_of(_read(os.path.join(results, ".key"))),
        "write own folder": _errno_of(_write(os.path.join(os.getcwd(), "scratch.txt"))),
        "write beside the code": _errno_of(_write(str(Path(__file__).with_name("forged.txt")), "x")),
        "environment": sorted(os.environ),
    }
    if parent > 0:
        found["parent mem"] = _errno_of(_read(f"/proc/{parent}/mem"))
    with open("/proc/self/status", encoding="ascii") as status:
        found["capabilities"] = [line.split()[1] for line in status if line.startswith("CapEff")][0]
    return found


@register("test_hostile", replace=True)
class Hostile:
    """Attacks in ``reset`` and raises the report."""

    name = "hostile"
    declaration = Declaration()

    def __init__(self, target: int, results: str, seed: int | None = None) -> None:
        self.target, self.results = target, results

    def reset(self, seat, num_seats, variant):
        raise RuntimeError("REPORT " + json.dumps(attacks(self.target, self.results)))

    def act(self, observation):
        return int(observation.action_mask.nonzero()[0][-1])


@register("test_spawner", replace=True)
class Spawner(Hostile):
    """Leaves a child, a grandchild of a double fork and a ``setsid`` child sleeping, each named by ``marker``."""

    def __init__(self, marker: str, seed: int | None = None) -> None:
        self.marker = marker

    def reset(self, seat, num_seats, variant):
        for kind in ("child", "double", "setsid"):
            if os.fork() == 0:
                if kind == "setsid":
                    os.setsid()
                if kind == "double" and os.fork() != 0:
                    os._exit(0)
                os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(120)", self.marker, kind])


@needs_sandbox
@pytest.mark.timeout(120)
def test_an_isolated_agent_cannot_reach_the_harness_nor_the_results(tmp_path, monkeypatch):
    monkeypatch.setenv("RAZZ_TEST_SECRET", "a token the agent must not see")
    results = tmp_path / "results"
    config = TournamentConfig.from_dict({"agents": [{"type": "test_hostile", "isolated": True, "target": os.getpid(),
                                                     "results": str(results)}, "random"],
                                         "deals": 2, "block_deals": 2, "output": str(results)})
    outcome = run_tournament(config, progress=False)
    message = outcome.failures[0]["error"]["message"] if outcome.failures else ""
    found = json.loads(message.split("REPORT ", 1)[1])
    assert found["pids seen"] == [1] and found["parent"] == 0, found  # alone in its PID namespace
    for attack in ("mem", "environ", "ptrace", "process_vm_readv", "kill", "append results", "create in results",
                   "list results", "read the results key", "write beside the code"):
        assert found[attack] != "SUCCEEDED", (attack, found)
    assert found["write own folder"] == "SUCCEEDED" and int(str(found["capabilities"]), 16) == 0, found
    assert "RAZZ_TEST_SECRET" not in found["environment"], found["environment"]
    assert not (results / "forged.txt").exists() and not Path(__file__).with_name("forged.txt").exists()
    lines = (results / "matches.jsonl").read_text().splitlines()
    assert len(lines) == 1 and "forged" not in lines[0]


def _alive(marker: str) -> list[int]:
    alive = []
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/cmdline", "rb") as file:
                if marker.encode() in file.read():
                    alive.append(int(name))
        except OSError:
            continue
    return alive


@needs_sandbox
@pytest.mark.timeout(120)
@pytest.mark.parametrize("workers", [1, 2])
def test_an_isolated_agents_descendants_die_with_its_block(workers):
    marker = f"razz-test-descendant-{os.getpid()}-{workers}"
    try:
        played = match({"type": "test_spawner", "isolated": True, "marker": marker}, "random", deals=2,
                       block_deals=1, workers=workers)
        assert played.hands == 4
        deadline = time.monotonic() + 10
        while _alive(marker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _alive(marker) == []
    finally:
        for pid in _alive(marker):
            os.kill(pid, signal.SIGKILL)


def test_the_process_holding_the_hands_is_not_dumpable():
    code = ("import ctypes; from razz_env.agents.sandbox import protect_this_process; protect_this_process(); "
            "print(ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "0", done.stderr


@needs_sandbox
@pytest.mark.timeout(120)
def test_an_honest_isolated_agent_plays_as_before_in_its_sandbox():
    isolated = match({"type": "razz_heuristic", "isolated": True, "label": "h"}, "random", deals=6, block_deals=3)
    trusted = match({"type": "razz_heuristic", "label": "h"}, "random", deals=6, block_deals=3)
    assert isolated == trusted


def test_a_run_without_namespaces_says_so_once_before_any_block(monkeypatch, caplog, tmp_path):
    from razz_env.evaluate import runner

    monkeypatch.setattr(runner, "sandbox_problem", lambda: "unshare: Operation not permitted")
    config = TournamentConfig.from_dict({"agents": [{"type": "random", "isolated": True}, "calling_station"],
                                         "deals": 2, "block_deals": 2, "output": str(tmp_path / "t")})
    with caplog.at_level("WARNING", logger="razz_env.evaluate.runner"):
        runner.check_agents(config)
    assert len(caplog.records) == 1 and caplog.records[0].getMessage().startswith(
        "isolated agents run without their sandbox here (unshare: Operation not permitted): each")
    caplog.clear()
    runner.check_agents(TournamentConfig.from_dict({"agents": ["random", "calling_station"], "deals": 2}))
    assert caplog.records == []


UNPRIVILEGED = """
import ctypes, encodings.ascii, encodings.utf_8, importlib.util, json, os, sys, tempfile

spec = importlib.util.spec_from_file_location("sandbox", sys.argv[1])
sandbox = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sandbox)
hidden, code = sys.argv[2], sys.argv[3]
os.setgroups([]); os.setgid(65534); os.setuid(65534)
ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)  # dumpable again, as any process this user starts is
workdir = tempfile.mkdtemp(prefix="razz-agent-")
read, write = os.pipe()
sandbox._enter_namespaces()
if os.fork() == 0:
    def attempt(call):
        try:
            return repr(call())
        except OSError as err:
            return "refused: " + err.strerror
    sandbox._seal(workdir, [hidden])
    found = {"pids": sorted(int(n) for n in os.listdir("/proc") if n.isdigit()),
             "list hidden": attempt(lambda: os.listdir(hidden)),
             "write beside the code": attempt(lambda: open(os.path.join(code, "forged.txt"), "x").close()),
             "write /tmp": attempt(lambda: open(os.path.join("/tmp", f"forged-{os.getpid()}"), "x").close()),
             "write own": attempt(lambda: open(os.path.join(workdir, "scratch"), "x").close())}
    os.write(write, json.dumps(found).encode())
    os._exit(0)
os.close(write)
os.wait()
print(os.read(read, 1 << 16).decode())
"""


@needs_sandbox
@pytest.mark.skipif(os.geteuid() != 0, reason="not root: the attack tests above already run the unprivileged path")
def test_an_unprivileged_user_gets_the_same_sandbox_through_a_user_namespace(tmp_path):
    """As root the attacks above run without a user namespace; here a user without privileges enters one (a process
    that drops to ``nobody`` first) and gets the same sealing. The launcher's file runs without numpy, whose threads
    would make ``unshare(CLONE_NEWUSER)`` fail."""
    import tempfile

    from razz_env.agents import sandbox

    hidden = tempfile.mkdtemp(prefix="razz-results-")
    try:
        Path(hidden, "matches.jsonl").write_text("{}\n")
        os.chmod(hidden, 0o755)
        done = subprocess.run([sys.executable, "-I", "-c", UNPRIVILEGED, sandbox.__file__, hidden,
                               str(Path(__file__).parent)], capture_output=True, text=True, timeout=60)
    finally:
        Path(hidden, "matches.jsonl").unlink()
        os.rmdir(hidden)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout)
    assert found["pids"] == [1] and found["list hidden"] in ("[]", "refused: Permission denied"), found
    assert found["write beside the code"] == found["write /tmp"] == "refused: Read-only file system", found
    assert found["write own"] == "None", found


def test_the_launcher_runs_as_a_file_that_imports_only_the_standard_library():
    """``unshare(CLONE_NEWUSER)`` refuses a process with threads: importing razz_env (numpy's thread pool) first would
    leave every user who is not root without the sandbox."""
    import ast

    from razz_env.agents import sandbox

    tree = ast.parse(Path(sandbox.__file__).read_text(encoding="utf-8"))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module and node.level == 0}
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported
    assert sandbox.launcher_command([])[1:] == ["-I", sandbox.__file__]
