"""The Ray backend: the same results as the local one, byte for byte; dead actors retried; nothing trusted.

One local Ray cluster (2 CPUs) serves the whole module: starting Ray takes seconds. The agents
defined here live in this module, which actors import by name before playing.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from razz_env.agents.registry import register
from razz_env.encoding.interface import Declaration
from razz_env.engine.errors import ConfigError
from razz_env.evaluate.blocks import run_task
from razz_env.evaluate.config import TournamentConfig
from razz_env.evaluate.ray_backend import check_backend, checked_reply
from razz_env.evaluate.report import write_reports
from razz_env.evaluate.results import RESULTS_FILE, result_problem
from razz_env.evaluate.runner import run_tournament
from razz_env.evaluate.tasks import Task, build_tasks
from razz_env.evaluate.workers import MAX_ATTEMPTS, BlockError


@register("test_ray_counts_loads", replace=True)
class CountsLoads:
    """Calls; its first construction in a process appends the process id to the file ``log`` (when given).

    Stands for a zoo agent whose model is loaded once per worker process and shared by its blocks.
    """

    name = "counts_loads"
    declaration = Declaration()
    loaded_in: set[tuple[int, str]] = set()

    def __init__(self, log: str | None = None, seed: int | None = None) -> None:
        if log is not None and (os.getpid(), log) not in CountsLoads.loaded_in:
            CountsLoads.loaded_in.add((os.getpid(), log))
            with open(log, "a", encoding="utf-8") as file:
                file.write(f"{os.getpid()}\n")

    def reset(self, seat, num_seats, variant):
        pass

    def act(self, observation):
        return int(observation.action_mask.nonzero()[0][-1])


@register("test_ray_kills_its_worker", replace=True)
class KillsItsWorker(CountsLoads):
    """Kills its own process at its first decision (like the OOM killer)."""

    name = "kills_its_worker"

    def act(self, observation):
        os.kill(os.getpid(), signal.SIGKILL)


@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'razz-env[ray]'): no Ray backend")
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
             runtime_env={"env_vars": {"PYTHONPATH": str(Path(__file__).parent)}})
    yield ray
    ray.shutdown()


def _config(tmp_path: Path, name: str, **overrides) -> TournamentConfig:
    settings = {"name": "ray", "agents": ["random", "calling_station", "test_ray_counts_loads"], "deals": 24,
                "block_deals": 6, "seed": 7, "output": str(tmp_path / name)}
    return TournamentConfig.from_dict({**settings, **overrides})


def _lines(config: TournamentConfig) -> list[str]:
    """The results lines without their timing field and signature (each folder has its own key), in task order."""
    order = {task.task_id: index for index, task in enumerate(build_tasks(config))}
    results = [json.loads(line) for line in (Path(config.output) / RESULTS_FILE).read_text().splitlines()]
    for result in results:
        result.pop("seconds")
        result.pop("mac")
    return [json.dumps(r, separators=(",", ":")) for r in sorted(results, key=lambda r: order[r["task_id"]])]


def test_same_results_as_the_local_backend_byte_for_byte(ray_cluster, tmp_path):
    local = run_tournament(_config(tmp_path, "local", workers=1), progress=False)
    on_ray = run_tournament(_config(tmp_path, "ray", workers=2, records=True), progress=False, backend="ray")
    assert on_ray.blocks_done == on_ray.blocks_total == len(build_tasks(_config(tmp_path, "x"))) == 12
    assert _lines(_config(tmp_path, "ray")) == _lines(_config(tmp_path, "local"))
    reports = {}
    for name, result in (("local", local), ("ray", on_ray)):
        write_reports(result, tmp_path / name, plots=False)
        reports[name] = {p.name: p.read_bytes() for p in sorted((tmp_path / name).iterdir())
                         if p.suffix in (".md", ".csv") or p.name == "summary.json"}
        summary = json.loads(reports[name]["summary.json"])
        assert summary.pop("config")["output"] == str(tmp_path / name)
        reports[name]["summary.json"] = json.dumps(summary)
    assert len(reports["ray"]) >= 3 and reports["ray"] == reports["local"]
    assert len(list((tmp_path / "ray" / "hands").glob("*.jsonl"))) == 12


def test_aivat_results_are_the_local_backends(ray_cluster, tmp_path):
    """The AIVAT sums travel in the blocks like the raw ones: the same lines on Ray as locally."""
    agents = ["random", "razz_heuristic"]
    run_tournament(_config(tmp_path, "local-aivat", workers=1, aivat=True, agents=agents), progress=False)
    run_tournament(_config(tmp_path, "ray-aivat", workers=2, aivat=True, agents=agents), progress=False,
                   backend="ray")
    lines = _lines(_config(tmp_path, "ray-aivat", aivat=True, agents=agents))
    assert lines == _lines(_config(tmp_path, "local-aivat", aivat=True, agents=agents))
    assert all('"aivat_deal_sum"' in line for line in lines)


def test_agents_load_once_per_actor_not_once_per_block(ray_cluster, tmp_path):
    loads = tmp_path / "loads.txt"
    agents = ["random", "calling_station", {"type": "test_ray_counts_loads", "log": str(loads)}]
    run_tournament(_config(tmp_path, "loads", workers=2, agents=agents), progress=False, backend="ray")
    pids = loads.read_text().split()
    assert len(set(pids)) == len(pids)
    actors = set(pids) - {str(os.getpid())}  # the driver builds every agent once, to check it
    assert 1 <= len(actors) <= 2


def test_resume_on_ray_plays_only_the_missing_blocks(ray_cluster, tmp_path):
    run_tournament(_config(tmp_path, "grown", deals=12), progress=False, backend="ray")
    before = (tmp_path / "grown" / RESULTS_FILE).read_text().splitlines()
    run_tournament(_config(tmp_path, "grown"), progress=False, backend="ray")
    after = (tmp_path / "grown" / RESULTS_FILE).read_text().splitlines()
    assert after[:len(before)] == before and len(after) == 12
    run_tournament(_config(tmp_path, "whole", workers=1), progress=False)
    assert _lines(_config(tmp_path, "grown")) == _lines(_config(tmp_path, "whole"))


def test_a_dead_actor_is_retried_then_the_run_stops_naming_the_block(ray_cluster, tmp_path):
    config = _config(tmp_path, "dies", agents=["random", "test_ray_kills_its_worker"], deals=6)
    with pytest.raises(BlockError, match=rf"^block 0-1/0: its worker process died {MAX_ATTEMPTS} times"):
        run_tournament(config, progress=False, backend="ray")
    assert (tmp_path / "dies" / RESULTS_FILE).read_text() == ""


def _task_and_result(tmp_path: Path) -> tuple[TournamentConfig, Task, dict]:
    config = _config(tmp_path, "checked")
    task = build_tasks(config)[0]
    return config, task, run_task(config, task)


@pytest.mark.parametrize("tamper, problem", [
    (lambda r: r.update(task_id="0-1/1", block=1, seed="7/1"), "not of this one"),
    (lambda r: r.update(config="0123"), "another configuration"),
    (lambda r: r.update(hands=5), "'hands' should be"),
    (lambda r: r["deal_sum"].append(1.0), "'deal_sum' should be"),
    (lambda r: r.update(deal_sum=[float("nan"), 0.0]), "'deal_sum' should be"),
    (lambda r: r.update(extra=object()), "not plain JSON"),
    (lambda r: r.update(extra=(1, 2)), "JSON round trip"),
    (lambda r: r.update(seconds=-1), "'seconds' is not a duration"),
    (lambda r: r.update(records={}), "'records' should be a list of 12 hand records"),
    (lambda r: r.update(records=[{"players": []}] * 12), r"records\[0\] does not replay"),
])
def test_a_result_from_a_worker_is_checked_before_it_is_kept(tmp_path, tamper, problem):
    config, task, result = _task_and_result(tmp_path)
    assert checked_reply(config, task, ("ok", result)) is result
    tamper(result)
    with pytest.raises(BlockError, match=rf"block 0-1/0: the worker's result is not valid \(.*{problem}"):
        checked_reply(config, task, ("ok", result))


@pytest.mark.parametrize("reply", [None, "ok", ("ok",), ("done", {}), ["ok", {}]])
def test_a_reply_that_is_not_one_is_refused(tmp_path, reply):
    config, task, _ = _task_and_result(tmp_path)
    with pytest.raises(BlockError, match="not a reply"):
        checked_reply(config, task, reply)


def test_backend_choices_are_checked_before_anything_runs(tmp_path):
    with pytest.raises(ConfigError, match="backend: expected one of local, ray, got 'dask'"):
        run_tournament(_config(tmp_path, "bad"), progress=False, backend="dask")
    with pytest.raises(ConfigError, match="address: names a Ray cluster; it needs --backend ray"):
        check_backend("local", "auto")
    assert not (tmp_path / "bad").exists()


def test_cli_tournament_and_exploit_on_ray_match_the_local_backend(ray_cluster, tmp_path, capsys):
    from razz_env.cli import main

    for backend in ("local", "ray"):
        out = tmp_path / f"t-{backend}"
        assert main(["tournament", "--deals", "8", "--seed", "3", "--workers", "2", "--output", str(out), "--quiet",
                     "--no-plots", "--backend", backend]) == 0
        assert main(["exploit", "--agent", "calling_station", "--deals", "4", "--workers", "2", "--quiet",
                     "--no-plots", "--output", str(tmp_path / f"e-{backend}"), "--backend", backend]) == 0
    capsys.readouterr()
    for name in ("t", "e"):
        lines = [json.loads(line) for backend in ("local", "ray")
                 for line in (tmp_path / f"{name}-{backend}" / RESULTS_FILE).read_text().splitlines()]
        for line in lines:
            line.pop("seconds")
            line.pop("mac")
        half = len(lines) // 2
        assert half and sorted(map(json.dumps, lines[:half])) == sorted(map(json.dumps, lines[half:]))


@pytest.mark.parametrize("argv, message", [
    (["tournament", "--address", "auto"], "address: names a Ray cluster; it needs --backend ray"),
    (["exploit", "--agent", "random", "--deals", "2", "--address", "auto"], "it needs --backend ray"),
])
def test_cli_refuses_an_address_without_ray(tmp_path, capsys, argv, message):
    from razz_env.cli import main

    assert main([*argv, "--output", str(tmp_path / "out")]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_cli_refuses_an_unknown_backend(tmp_path, capsys):
    from razz_env.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["tournament", "--backend", "dask", "--output", str(tmp_path / "out")])
    assert stop.value.code == 2 and "invalid choice: 'dask'" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_cli_without_ray_installed_says_how_to_get_it(tmp_path, capsys, monkeypatch):
    from razz_env.cli import main

    monkeypatch.setitem(sys.modules, "ray", None)
    for argv in (["tournament"], ["exploit", "--agent", "random", "--deals", "2"]):
        assert main([*argv, "--backend", "ray", "--output", str(tmp_path / "out"), "--quiet"]) == 2
        err = capsys.readouterr().err
        assert "backend ray: Ray is not installed (pip install 'razz-env[ray]')" in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_an_address_is_refused_when_this_process_already_has_a_ray_session(ray_cluster, tmp_path):
    with pytest.raises(ConfigError, match="already has a Ray session; leave the address out"):
        run_tournament(_config(tmp_path, "joined"), progress=False, backend="ray", address="auto")
    assert not (tmp_path / "joined" / RESULTS_FILE).exists()


def test_the_default_install_and_the_local_backend_do_without_ray():
    import subprocess

    import tomllib

    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())["project"]
    assert not any(dep.startswith("ray") for dep in project["dependencies"])
    extras = project["optional-dependencies"]
    assert extras["ray"] == ["ray>=2.40"] and "ray" in extras["dev"][0]
    code = ("import sys; import razz_env.evaluate.runner, razz_env.exploit.bound, razz_env.cli; "
            "print('ray' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"


@pytest.mark.slow
def test_cli_on_a_cluster_named_by_its_address_ships_the_code_and_matches_the_local_backend(tmp_path):
    """A separate head node (``ray start``), joined by address: the code and zoo files travel with the run."""
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'razz-env[ray]'): no Ray backend")
    import socket
    import subprocess

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    ray_cli = str(Path(sys.executable).with_name("ray"))
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}  # no token files shared with other clusters
    head = subprocess.Popen([ray_cli, "start", "--head", "--block", f"--port={port}", "--num-cpus=2",
                             "--include-dashboard=false", "--disable-usage-stats"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path, env=env)
    try:
        _wait_for_port(port, head)
        for backend in ("local", "ray"):
            address = ["--address", f"127.0.0.1:{port}"] if backend == "ray" else []
            subprocess.run([sys.executable, "-m", "razz_env.cli", "tournament", "--deals", "4", "--workers", "2",
                            "--output", str(tmp_path / backend), "--quiet", "--no-plots", "--backend", backend,
                            *address], check=True, capture_output=True, cwd=tmp_path, env=env)
    finally:
        head.terminate()  # --block: the head stops the Ray processes it started
        head.wait(60)
        current = Path(tempfile.gettempdir()) / "ray" / "ray_current_cluster"
        if current.exists() and current.read_text().strip().endswith(f":{port}"):
            current.unlink()  # what `ray stop` would remove: later ray.init() calls must not look for this head
    lines = {}
    for backend in ("local", "ray"):
        results = [json.loads(line) for line in (tmp_path / backend / RESULTS_FILE).read_text().splitlines()]
        lines[backend] = sorted(json.dumps({k: v for k, v in r.items() if k not in ("seconds", "mac")})
                                for r in results)
    assert lines["ray"] and lines["ray"] == lines["local"]


def _wait_for_port(port: int, head) -> None:
    import socket
    import time

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and head.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"the Ray head on port {port} did not start")


@pytest.mark.parametrize("address, message", [
    ("127.0.0.1:1", "address: cannot reach a Ray cluster at 127.0.0.1:1"),
    ("ray://127.0.0.1:1", "address: cannot reach a Ray cluster at ray://127.0.0.1:1"),
    ("", "address: expected 'auto', 'host:port' or 'ray://host:port', got ''"),
    ("head", "got 'head'"),
    ("head:port", "got 'head:port'"),
])
def test_cli_refuses_an_address_it_cannot_use_at_once(tmp_path, capsys, address, message):
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'razz-env[ray]'): no Ray backend")
    from razz_env.cli import main

    assert main(["tournament", "--backend", "ray", "--address", address, "--output", str(tmp_path / "out")]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


FUZZ_COUNTS: dict[str, int] = {"refused": 0, "kept": 0}
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6)


@settings(max_examples=int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "150")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.dictionaries(
    st.sampled_from(["task_id", "config", "lineup", "block", "deals", "seed", "hands", "deal_sum", "deal_sumsq",
                     "hand_sum", "hand_sumsq", "seconds", "error", "records", "extra"]),
    JSON_VALUES | st.builds(object) | st.tuples(st.integers()), min_size=1, max_size=3))
def test_fuzz_a_tampered_result_is_refused_or_is_exactly_a_valid_result_of_the_block(tmp_path, changes):
    config = _config(tmp_path, "fuzz")
    task = build_tasks(config)[0]
    result = {**_FUZZ_RESULT.setdefault("result", run_task(config, task)), **changes}
    try:
        kept = checked_reply(config, task, ("ok", result))
    except BlockError as err:
        assert str(err).startswith("block 0-1/0: ") and "\n" not in str(err)
        FUZZ_COUNTS["refused"] += 1
        return
    FUZZ_COUNTS["kept"] += 1
    assert result_problem(kept, config) is None and kept["task_id"] == task.task_id
    assert json.loads(json.dumps(kept, allow_nan=False)) == kept


_FUZZ_RESULT: dict[str, dict] = {}
