"""The results folder: one configuration per folder (stamp and tagged lines), bad lines reported, a lock
against concurrent runs, ``fresh`` removing only what runs wrote."""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

import pytest

from razz_env.engine.errors import ConfigError
from razz_env.evaluate.config import TournamentConfig
from razz_env.evaluate.results import KEY_FILE, LOCK_FILE, MAC, RESULTS_FILE, STAMP_FILE, ResultsFolder, line_mac
from razz_env.evaluate.runner import build_tasks, run_tournament


def _config(tmp_path: Path, **overrides) -> TournamentConfig:
    settings = {"name": "t", "agents": ["random", "calling_station", "razz_heuristic"], "deals": 20,
                "block_deals": 10, "workers": 1, "seed": 7, "output": str(tmp_path / "out")}
    return TournamentConfig.from_dict({**settings, **overrides})


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def finished(tmp_path) -> TournamentConfig:
    config = _config(tmp_path)
    run_tournament(config, progress=False)
    return config


def test_every_result_line_names_its_configuration_and_block(finished):
    lines = [json.loads(line) for line in (Path(finished.output) / RESULTS_FILE).read_text().splitlines()]
    tasks = {t.task_id: t for t in build_tasks(finished)}
    assert len(lines) == len(tasks)
    for line in lines:
        task = tasks[line["task_id"]]
        assert (line["config"], line["lineup"], line["block"], line["deals"], line["seed"]) == (
            finished.config_id, list(task.lineup), task.block, task.deals, task.seed)
    stamp = json.loads((Path(finished.output) / STAMP_FILE).read_text())
    assert stamp == {"config_id": finished.config_id, "config": json.loads(json.dumps(finished.identity()))}


def test_the_stamp_is_written_before_the_first_block(tmp_path):
    config = _config(tmp_path)
    stamps = []
    run_tournament(config, progress=False,
                   on_result=lambda r: stamps.append((Path(config.output) / STAMP_FILE).exists()))
    assert stamps and all(stamps)


def test_results_without_their_stamp_are_refused_not_relabelled(finished, tmp_path):
    """Delete the stamp, change an agent, rerun: refused (today it reported the old agent's numbers)."""
    folder = Path(finished.output)
    (folder / STAMP_FILE).unlink()
    before = _snapshot(folder)
    changed = _config(tmp_path, agents=["random", "calling_station", "monte_carlo"])
    with pytest.raises(ConfigError, match=f"{STAMP_FILE} saying which configuration"):
        run_tournament(changed, progress=False)
    assert _snapshot(folder) == before


@pytest.mark.parametrize("stamp", ["", "{not json", "null", "[]", '{"config_id": "x"}', "\xff\xfe"])
def test_a_garbled_stamp_is_refused(finished, stamp):
    folder = Path(finished.output)
    (folder / STAMP_FILE).write_bytes(stamp.encode("latin-1"))
    before = _snapshot(folder)
    with pytest.raises(ConfigError, match=STAMP_FILE):
        run_tournament(finished, progress=False)
    assert _snapshot(folder) == before


@pytest.mark.parametrize(("change", "named"), [({"seed": 8}, "seed"), ({"variant": "stud"}, "variant"),
                                               ({"agents": ["random", "calling_station", "monte_carlo"]}, "agents"),
                                               ({"format": "table"}, "format")])
def test_another_configuration_is_refused_naming_what_differs(finished, tmp_path, change, named):
    folder = Path(finished.output)
    before = _snapshot(folder)
    with pytest.raises(ConfigError, match=f"another configuration .*{named}"):
        run_tournament(_config(tmp_path, **change), progress=False)
    assert _snapshot(folder) == before


def test_a_lineup_that_only_grew_is_refused_naming_the_first_new_agent(tmp_path):
    """The old message cut both lineups at 60 characters, so a longer lineup read the same as the saved one."""
    long_names = [{"type": "random", "label": f"a_rather_long_label_{i}"} for i in range(3)]
    saved = _config(tmp_path / "saved", agents=["random", "calling_station", *long_names])
    run_tournament(saved, progress=False)
    grown = _config(tmp_path / "saved", agents=["random", "calling_station", *long_names, "rock"])
    with pytest.raises(ConfigError, match=r"agents: 5 entries there, 6 now; entry 5: nothing there, \"rock\" now"):
        run_tournament(grown, progress=False)


@pytest.mark.parametrize(("line", "problem"), [
    ("{}", "no 'task_id'"),
    ("null", "expected a JSON object"),
    ("[1, 2]", "expected a JSON object"),
    ('"text"', "expected a JSON object"),
    ("not json at all", "not valid JSON"),
])
def test_a_line_that_is_not_a_result_is_reported_with_its_number(finished, line, problem):
    path = Path(finished.output) / RESULTS_FILE
    lines = path.read_text().splitlines()
    path.write_text("\n".join([*lines[:2], line, *lines[2:]]) + "\n")
    before = _snapshot(Path(finished.output))
    with pytest.raises(ConfigError, match=f"{RESULTS_FILE}:3: .*{problem}"):
        run_tournament(finished, progress=False)
    assert _snapshot(Path(finished.output)) == before


@pytest.mark.parametrize(("field", "value", "problem"), [
    ("config", "0123456789abcdef", "another configuration"),
    ("lineup", [0, 5], "lineup"),
    ("seed", "99/0", "seed"),
    ("hands", 3, "'hands'"),
    ("deal_sum", [1.0], "'deal_sum'"),
    ("block", -1, "out of range"),
])
def test_a_result_line_that_does_not_fit_this_tournament_is_reported(finished, field, value, problem):
    path = Path(finished.output) / RESULTS_FILE
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    lines[1][field] = value
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(ConfigError, match=f"{RESULTS_FILE}:2: .*{problem}"):
        run_tournament(finished, progress=False)


def test_two_different_results_for_one_block_are_reported(finished):
    """Even when both are signed with the folder's key (two runs of it that disagree)."""
    path = Path(finished.output) / RESULTS_FILE
    lines = path.read_text().splitlines()
    twin = json.loads(lines[0])
    twin["deal_sum"] = [value + 1 for value in twin["deal_sum"]]
    twin[MAC] = line_mac(twin, (Path(finished.output) / KEY_FILE).read_bytes())
    path.write_text("\n".join([*lines, json.dumps(twin)]) + "\n")
    with pytest.raises(ConfigError, match=f"{RESULTS_FILE}:{len(lines) + 1}: block 0-1/0 already has a different "
                                          f"result at line 1"):
        run_tournament(finished, progress=False)


def test_a_forged_line_for_a_block_not_yet_played_is_refused(tmp_path):
    """A kill leaves blocks unplayed; a line written for one of them by anyone without the key (an agent, a
    script) is refused on resume, naming the line, and nothing changes."""
    whole = run_tournament(_config(tmp_path, output=str(tmp_path / "whole")), progress=False)
    config = _config(tmp_path)
    run_tournament(config, progress=False)
    path = Path(config.output) / RESULTS_FILE
    lines = path.read_text().splitlines()
    last = json.loads(lines[-1])
    forged = {**last, "deal_sum": [1000.0] * len(last["deal_sum"])}
    forged.pop(MAC)
    for line in (forged, {**forged, MAC: last[MAC]}, {**forged, MAC: line_mac(forged, b"x" * 32)}):
        path.write_text("\n".join([*lines[:-1], json.dumps(line)]) + "\n")
        before = _snapshot(Path(config.output))
        with pytest.raises(ConfigError, match=f"{RESULTS_FILE}:{len(lines)}: its signature does not match"):
            run_tournament(config, progress=False)
        assert _snapshot(Path(config.output)) == before
    path.write_text("\n".join(lines[:-1]) + "\n")  # the honest state after a kill: the last block is played again
    assert run_tournament(config, progress=False).standings == whole.standings


def test_the_key_is_the_owners_alone_and_results_without_one_are_refused(finished):
    folder = Path(finished.output)
    assert (folder / KEY_FILE).stat().st_mode & 0o777 == 0o600 and len((folder / KEY_FILE).read_bytes()) == 32
    (folder / KEY_FILE).unlink()
    with pytest.raises(ConfigError, match=f"holds results but no {KEY_FILE}"):
        run_tournament(finished, progress=False)
    (folder / KEY_FILE).write_bytes(b"short")
    with pytest.raises(ConfigError, match="damaged"):
        run_tournament(finished, progress=False)
    run_tournament(finished, fresh=True, progress=False)


def test_a_second_run_in_a_locked_folder_is_refused_untouched(finished):
    folder = Path(finished.output)
    before = _snapshot(folder)
    descriptor = os.open(folder / LOCK_FILE, os.O_RDWR)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(ConfigError, match="another razz tournament is running in this folder"):
            run_tournament(finished, progress=False)
        with pytest.raises(ConfigError, match="another razz tournament is running"):
            run_tournament(finished, fresh=True, progress=False)
    finally:
        os.close(descriptor)
    assert _snapshot(folder) == before
    run_tournament(finished, progress=False)


def test_fresh_removes_what_runs_wrote_and_nothing_else(finished):
    folder = Path(finished.output)
    (folder / "notes.txt").write_text("mine")
    (folder / "hands").mkdir()
    (folder / "hands" / "0-1_0.jsonl").write_text("old\n")
    (folder / "hands" / "keep.txt").write_text("mine")
    (folder / "summary.json").write_text("{}")
    with ResultsFolder(finished, folder).open(fresh=True) as done:
        assert done == {}
    assert sorted(p.name for p in folder.iterdir()) == [KEY_FILE, LOCK_FILE, "hands", RESULTS_FILE, "notes.txt",
                                                        STAMP_FILE]
    assert [p.name for p in (folder / "hands").iterdir()] == ["keep.txt"]
    assert (folder / RESULTS_FILE).read_text() == ""


def test_an_output_path_that_is_a_file_is_refused(tmp_path):
    target = tmp_path / "file.txt"
    target.write_text("x")
    for fresh in (False, True):
        with pytest.raises(ConfigError, match="is a file"):
            run_tournament(_config(tmp_path, output=str(target)), fresh=fresh, progress=False)
    with pytest.raises(ConfigError, match="cannot write to"):
        run_tournament(_config(tmp_path, output=str(target / "below")), progress=False)
    assert target.read_text() == "x"


_USER_AGENT = '''
from razz_env.agents.simple import CallingStation


class Bot(CallingStation):
    """A user's agent: {doc}."""
'''


def test_a_changed_module_agent_cannot_extend_its_folder(tmp_path, monkeypatch):
    module = tmp_path / "user_bot_v.py"
    module.write_text(_USER_AGENT.format(doc="first version"), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    config = _config(tmp_path, agents=["random", "user_bot_v:Bot"], deals=10)
    run_tournament(config, progress=False)
    module.write_text(_USER_AGENT.format(doc="second version"), encoding="utf-8")
    extended = _config(tmp_path, agents=["random", "user_bot_v:Bot"], deals=20)
    with pytest.raises(ConfigError, match=r"agents\[1\] \(user_bot_v:Bot\): what plays under this name changed "
                                          r"since these results \(its code"):
        run_tournament(extended, progress=False)


def test_a_zoo_name_pointed_at_another_model_cannot_extend_its_folder(tmp_path, monkeypatch):
    from razz_env.agents import sb3_zoo

    entries = sb3_zoo.manifest()
    name = next(iter(entries))
    config = _config(tmp_path, agents=["random", name], deals=10)
    Path(config.output).mkdir()
    ResultsFolder(config, config.output)._write_stamp()
    changed = {**entries, name: {**entries[name], "sha256": "0" * 64}}
    monkeypatch.setattr(sb3_zoo, "manifest", lambda: changed)
    extended = _config(tmp_path, agents=["random", name], deals=20)
    with pytest.raises(ConfigError, match=rf"agents\[1\] \({name}\): what plays under this name changed since these "
                                          r"results \(its model"):
        ResultsFolder(extended, extended.output).check()


def test_fingerprints_name_the_model_or_the_code(tmp_path):
    from razz_env.agents import sb3_zoo

    name = next(iter(sb3_zoo.manifest()))
    fingerprints = _config(tmp_path, agents=["calling_station", name]).fingerprints
    assert fingerprints[1] == {"model_sha256": sb3_zoo.manifest()[name]["sha256"]}
    assert len(fingerprints[0]["source_sha256"]) == 64


def test_reports_are_written_while_the_folder_is_locked(tmp_path):
    config = _config(tmp_path)
    held = []

    def report(result) -> None:
        try:
            run_tournament(_config(tmp_path, seed=8), fresh=True, progress=False)
        except ConfigError as err:
            held.append((result.blocks_done, str(err)))

    run_tournament(config, progress=False, reports=report)
    assert len(held) == 1 and held[0][0] == 6 and "another razz tournament is running" in held[0][1]
