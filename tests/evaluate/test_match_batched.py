"""The tournament on the batched engine (``play_deals_batched``, ``engine: auto|scalar|batch``): the same
decks, the same calls to every agent, the same payoffs, results files, hand records and failures as the
scalar ``play_deals``."""

from __future__ import annotations

import json
import math
import re
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from razz_env.encoding.interface import Declaration

pytest.importorskip("numba", reason="the batched path needs the batch extra (numba)")

from razz_env.agents.registry import make_agent, register
from razz_env.agents.simple import RandomAgent
from razz_env.cli import main
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.engine.record import to_record
from razz_env.evaluate import blocks, workers
from razz_env.evaluate.blocks import batch_problem, play_deals, play_deals_batched, run_task
from razz_env.evaluate.config import TournamentConfig
from razz_env.evaluate.containment import AgentFailure
from razz_env.evaluate.runner import run_tournament
from razz_env.evaluate.tasks import Task


class Recorder(RandomAgent):
    """A seeded random agent reading vectors that logs every call it gets: what both paths must show it alike."""

    def __init__(self, seed: int | None = None, encoding: str = "flat") -> None:
        super().__init__(seed)
        self.declaration = Declaration(observes=("vector",), encoding=encoding, acts_in_batch=True)
        self.log: list[tuple] = []

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        self.log.append(("reset", seat, num_seats, variant))

    def act_batch(self, observations) -> list[int]:
        self.log.append(("batch", [(o.seat, o.action_mask.dtype.str, o.action_mask.tolist(), o.vector.tobytes())
                                   for o in observations]))
        return [self.act(o) for o in observations]


class Scripted(RandomAgent):
    """Seeded random ids until its ``calls``-th batch, then ``bad`` (the whole answer) from then on."""

    declaration = Declaration(observes=(), acts_in_batch=True)

    def __init__(self, bad, calls: int = 3) -> None:
        super().__init__(seed=1)
        self.bad, self.calls = bad, calls

    def act_batch(self, observations):
        self.calls -= 1
        if self.calls > 0:
            return [self.act(o) for o in observations]
        return self.bad(observations)


def _first_illegal(observations):
    ids = [int(np.flatnonzero(o.action_mask)[0]) for o in observations]
    ids[-1] = int(np.flatnonzero(observations[-1].action_mask == 0)[0])  # at most four of the five ids are legal
    return ids


def _raises(observations):
    raise RuntimeError("boom")


def _sleeps(observations):
    time.sleep(0.3)
    return [1] * len(observations)


BROKEN = {
    "illegal id": _first_illegal,
    "out of range": lambda obs: [9] * len(obs),
    "negative": lambda obs: [-1] * len(obs),
    "text": lambda obs: ["call"] * len(obs),
    "none": lambda obs: [None] * len(obs),
    "infinity": lambda obs: [math.inf] * len(obs),
    "nan": lambda obs: [math.nan] * len(obs),
    "too few": lambda obs: [1] * (len(obs) - 1),
    "raises": _raises,
    "timeout": _sleeps,
}


def _per_deal(tables) -> list[tuple]:
    return [(t.deal, tuple(t.positions), tuple(t.payoffs)) for t in tables]


def _failure(play, players, config, deals=6, timeout=60.0):
    with pytest.raises(AgentFailure) as caught:
        play(players, config, deals, "bad", True, timeout)
    return caught.value.position, caught.value.kind, caught.value.message


CASES = [  # variant, seats, duplicate, starting stack, encoding of the recorder
    ("razz", 2, True, 1000, "flat"),
    ("razz", 6, False, 30, "flat"),
    ("stud8", 3, True, 40, "flat"),
    ("action_razz", 4, False, 1000, "ranks"),
    ("stud", 8, False, 60, "flat"),
    ("minirazz", 2, True, 12, "flat"),
    ("minirazz_small", 3, True, 1000, "ranks"),
    ("razz", 3, True, 1000, "flat8"),
    ("razz", 8, False, 40, "ranks8"),
]


@pytest.mark.parametrize(("variant", "seats", "duplicate", "stack", "encoding"), CASES)
def test_batched_payoffs_records_and_agent_calls_equal_the_scalar_path(variant, seats, duplicate, stack, encoding):
    config = HandConfig.create(variant, num_seats=seats, stacks=stack)

    def lineup() -> list:
        return [Recorder(seed=3, encoding=encoding), make_agent("calling_station")] + [
            make_agent("random", seed=10 + i) for i in range(seats - 2)]

    scalar_players, batch_players, record_players = lineup(), lineup(), lineup()
    assert batch_problem(batch_players, config) is None
    scalar = play_deals(scalar_players, config, 24, "same", duplicate, 60.0, first_deal=7)
    batched = play_deals_batched(batch_players, config, 24, "same", duplicate, 60.0, first_deal=7)
    recorded = play_deals_batched(record_players, config, 24, "same", duplicate, 60.0, first_deal=7, records=True)
    assert _per_deal(batched) == _per_deal(scalar) == _per_deal(recorded)
    assert batch_players[0].log == scalar_players[0].log == record_players[0].log
    assert [to_record(t.hand) for t in recorded] == [to_record(t.hand) for t in scalar]
    assert len({t.payoffs[0] for t in batched}) > 2


def test_no_deals_is_no_tables_on_both_paths():
    config = HandConfig.create("razz", num_seats=2)
    players = [make_agent("random"), make_agent("calling_station")]
    assert play_deals_batched(players, config, 0, "none") == play_deals(players, config, 0, "none") == []


class ViewReader(RandomAgent):
    """A seeded random agent that reads the seat view one decision at a time (no act_batch) and logs the views."""

    declaration = Declaration(states_policy=True)

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.seen: list = []

    def act(self, observation) -> int:
        self.seen.append(observation.view)
        return super().act(observation)


def test_batch_problem_names_what_keeps_a_lineup_on_the_scalar_engine(monkeypatch):
    config = HandConfig.create("razz", num_seats=2)
    assert batch_problem([make_agent("random"), make_agent("calling_station")], config) is None
    assert batch_problem([make_agent("random"), ViewReader(1)], config) is None
    assert blocks.one_at_a_time([make_agent("random"), ViewReader(1)]) == [ViewReader.name]
    mixed = batch_problem([Recorder(1), Recorder(1, encoding="ranks")], config)
    assert "different encodings (flat, ranks)" in mixed
    with pytest.raises(ConfigError, match="declaration: encoding: expected one of flat, ranks"):
        Recorder(1, encoding="bits")
    short = HandConfig.create("razz", num_seats=2, stacks=1)
    assert "fewer than two seats with more than the ante (1)" in batch_problem([Recorder(1), Recorder(2)], short)
    monkeypatch.setitem(sys.modules, "razz_env.batch", None)
    assert "needs numba: pip install 'razz-env[batch]'" in batch_problem([Recorder(1), Recorder(2)], config)
    with pytest.raises(ValueError, match="play_deals_batched: .*needs numba"):
        play_deals_batched([Recorder(1), Recorder(2)], config, 1, "s")


@pytest.mark.parametrize("broken", sorted(BROKEN))
def test_a_broken_agent_fails_alike_on_both_paths(broken):
    config = HandConfig.create("razz", num_seats=3, stacks=50)
    timeout = 0.01 if broken == "timeout" else 60.0
    failures = [_failure(play, [make_agent("random", seed=4), Scripted(BROKEN[broken]), make_agent("calling_station")],
                         config, timeout=timeout) for play in (play_deals, play_deals_batched)]
    assert failures[0] == failures[1]
    kind = {"too few": "exception", "raises": "exception", "timeout": "timeout"}.get(broken, "illegal")
    assert failures[0][:2] == (1, kind)


def test_an_agent_whose_id_cannot_be_an_int_is_a_contained_failure_on_the_scalar_path():
    """int(inf) raises OverflowError, which the scalar path let escape as a harness crash."""
    config = HandConfig.create("razz", num_seats=2)
    position, kind, message = _failure(play_deals, [make_agent("random", seed=4), Scripted(BROKEN["infinity"], 1)],
                                       config)
    assert (position, kind) == (1, "illegal") and "cannot convert float infinity to integer" in message


def test_a_failing_reset_fails_alike_on_both_paths():
    class BadReset(RandomAgent):
        declaration = Declaration(observes=())

        def reset(self, seat, num_seats, variant):
            if seat == 1:
                raise KeyError("seat one")

    config = HandConfig.create("razz", num_seats=2)
    failures = [_failure(play, [make_agent("random"), BadReset(seed=1)], config) for play in (play_deals,
                                                                                             play_deals_batched)]
    assert failures[0] == failures[1] == (1, "exception", "reset: KeyError: 'seat one'")


def test_ids_of_other_types_that_int_accepts_play_alike():
    class Loose(RandomAgent):
        declaration = Declaration(observes=(), acts_in_batch=True)

        def act_batch(self, observations):
            kinds = (float, np.int16, str, lambda i: bool(i) if i < 2 else i)
            return [kinds[n % len(kinds)](self.act(o)) for n, o in enumerate(observations)]

    config = HandConfig.create("razz", num_seats=2)
    scalar = play_deals([Loose(seed=2), make_agent("random", seed=3)], config, 20, "loose")
    batched = play_deals_batched([Loose(seed=2), make_agent("random", seed=3)], config, 20, "loose")
    assert _per_deal(scalar) == _per_deal(batched)


# ---------------------------------------------------------------- the tournament: config, run_task, files


class _Lister(RandomAgent):
    declaration = Declaration(observes=())


class _RanksReader(Recorder):
    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, encoding="ranks")


class _BrokenInBatch(Scripted):
    def __init__(self, seed: int | None = None) -> None:
        super().__init__(BROKEN["illegal id"], calls=4)


register("batchtest_random", replace=True)(_Lister)
register("batchtest_ranks", replace=True)(_RanksReader)
register("batchtest_broken", replace=True)(_BrokenInBatch)


def _tournament(tmp_path: Path, name: str, **overrides) -> TournamentConfig:
    settings = {"name": name, "agents": ("random", "calling_station", "batchtest_random"), "deals": 24,
                "block_deals": 12, "workers": 1, "output": str(tmp_path / name), "seed": 5}
    settings.update(overrides)
    return TournamentConfig.from_dict(settings)


def _files(folder: Path) -> dict[str, object]:
    """The results folder's files; result lines without their timing and signature (each folder has its own key),
    the stamp without its engine."""
    files: dict[str, object] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.name not in (".lock", ".key"):
            text = path.read_text()
            if path.suffix == ".jsonl" and path.parent == folder:
                text = [{k: v for k, v in json.loads(line).items() if k not in ("seconds", "mac")}
                        for line in text.splitlines()]
            files[str(path.relative_to(folder))] = text
    return files


@pytest.mark.parametrize("settings", [
    {"records": True},
    {"duplicate": False, "variant": "stud8", "stacks": 45},
    {"format": "table", "variant": "razz", "stacks": 25, "records": True,
     "agents": ("random", "calling_station", "batchtest_random", "batchtest_ranks")},
    {"format": "table", "variant": "minirazz", "records": True, "agents": ("random", "batchtest_ranks")},
    {"agents": ("random", "razz_heuristic", "calling_station")},
    {"agents": ("random", "ppo_razz", "qrdqn_razz"), "deals": 12},
    {"agents": ("random", "batchtest_broken", "calling_station"), "records": True},
], ids=["records", "plain-stud8-short", "table-razz-short", "table-minirazz", "mixed", "sb3", "broken"])
def test_a_tournament_writes_the_same_files_on_both_engines(tmp_path, monkeypatch, settings):
    played = {"scalar": [], "batched": []}
    monkeypatch.setattr(workers, "picklable", lambda config: False)  # blocks in this process, where the spies are
    scalar_play, batched_play = blocks.play_deals, blocks.play_deals_batched
    monkeypatch.setattr(blocks, "play_deals", lambda players, *a, **k: played["scalar"].append(
        tuple(p.name for p in players)) or scalar_play(players, *a, **k))
    monkeypatch.setattr(blocks, "play_deals_batched", lambda players, *a, **k: played["batched"].append(
        tuple(p.name for p in players)) or batched_play(players, *a, **k))
    scalar = run_tournament(_tournament(tmp_path, "scalar", engine="scalar", **settings), progress=False)
    assert played["batched"] == []
    auto = run_tournament(_tournament(tmp_path, "auto", **settings), progress=False)
    batched_lineups = set(played["batched"])
    assert batched_lineups and ("razz_heuristic" not in settings.get("agents", ())
                                or any("razz_heuristic" in lineup for lineup in batched_lineups))
    assert repr(scalar.standings) == repr(auto.standings) and scalar.failures == auto.failures  # nan: no hands
    scalar_files, auto_files = _files(tmp_path / "scalar"), _files(tmp_path / "auto")
    stamps = [json.loads(files.pop("tournament.json")) for files in (scalar_files, auto_files)]
    assert stamps[0]["config_id"] == stamps[1]["config_id"]
    assert scalar_files == auto_files
    assert any(name.startswith("hands/") for name in auto_files) == bool(settings.get("records"))


def test_run_task_keeps_one_at_a_time_view_readers_and_engine_scalar_on_the_scalar_path(tmp_path, monkeypatch):
    register("batchtest_view_reader", replace=True)(ViewReader)
    monkeypatch.setattr(blocks, "play_deals_batched", lambda *a, **k: pytest.fail("took the batched path"))
    reader = _tournament(tmp_path, "h", agents=("random", "batchtest_view_reader"))
    assert "deal_sum" in run_task(reader, Task.for_block(reader, (0, 1), 0, 12))
    scalar = _tournament(tmp_path, "s", engine="scalar")
    assert "deal_sum" in run_task(scalar, Task.for_block(scalar, (0, 1), 0, 12))


def test_engine_batch_plays_a_one_at_a_time_view_reader_as_the_scalar_engine(tmp_path):
    """Under ``engine: batch`` an agent without act_batch reads views built from the engine's arrays, one row at a
    time: the same views, ids and payoffs as on the scalar engine."""
    config = HandConfig.create("stud", num_seats=3, stacks=60)
    scalar_players = [ViewReader(2), make_agent("random", seed=4), make_agent("calling_station")]
    batch_players = [ViewReader(2), make_agent("random", seed=4), make_agent("calling_station")]
    scalar = play_deals(scalar_players, config, 30, "views", True, 60.0)
    batched = play_deals_batched(batch_players, config, 30, "views", True, 60.0)
    assert _per_deal(batched) == _per_deal(scalar)
    assert batch_players[0].seen == scalar_players[0].seen and len(scalar_players[0].seen) > 100


def test_a_folder_played_on_one_engine_resumes_and_extends_on_the_other(tmp_path):
    run_tournament(_tournament(tmp_path, "mixed", engine="scalar", deals=12), progress=False)
    extended = run_tournament(_tournament(tmp_path, "mixed", deals=24), progress=False)
    fresh = run_tournament(_tournament(tmp_path, "fresh", engine="scalar"), progress=False)
    assert repr(extended.standings) == repr(fresh.standings)
    ordered = [sorted(_files(tmp_path / name)["matches.jsonl"], key=lambda r: (r["task_id"], r["deals"]))
               for name in ("mixed", "fresh")]
    assert ordered[0] == ordered[1]


def test_stacks_at_the_ante_play_on_the_scalar_engine_under_auto(tmp_path):
    settings = {"stacks": 1, "agents": ("random", "calling_station")}
    scalar = run_tournament(_tournament(tmp_path, "s", engine="scalar", **settings), progress=False)
    auto = run_tournament(_tournament(tmp_path, "a", **settings), progress=False)
    assert scalar.standings == auto.standings and scalar.pairings[0].hands == 48


@pytest.mark.parametrize(("settings", "message"), [
    ({"agents": ("batchtest_random", "random", "batchtest_ranks", "ppo_razz")},
     "engine: batch cannot play batchtest_ranks vs ppo_razz: the agents read different encodings (flat, ranks)"),
    ({"stacks": 1}, "leave fewer than two seats with more than the ante (1)"),
])
def test_engine_batch_refuses_a_lineup_it_cannot_play_before_any_block(tmp_path, settings, message):
    config = _tournament(tmp_path, "refused", engine="batch", **settings)
    with pytest.raises(ConfigError, match=re.escape(message)) as caught:
        run_tournament(config, progress=False)
    assert "use engine 'auto'" in str(caught.value)
    assert not (tmp_path / "refused").exists()


def test_engine_batch_without_numba_is_refused(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "razz_env.batch", None)
    with pytest.raises(ConfigError, match=r"needs numba: pip install 'razz-env\[batch\]'"):
        run_tournament(_tournament(tmp_path, "nonumba", engine="batch"), progress=False)
    auto = run_tournament(_tournament(tmp_path, "auto", deals=12), progress=False)
    assert auto.blocks_done == 3 and not auto.failures


@pytest.mark.parametrize("engine", ["gpu", "", 1, None, ["batch"], "Batch"])
def test_engine_must_be_auto_scalar_or_batch(tmp_path, engine):
    with pytest.raises(ConfigError, match="engine: expected one of auto, scalar, batch, got"):
        _tournament(tmp_path, "bad", engine=engine)


def test_cli_engine_option(tmp_path, capsys):
    config = tmp_path / "t.yaml"
    config.write_text(f"agents: [random, razz_heuristic]\ndeals: 4\nblock_deals: 4\nworkers: 1\nstacks: 1\n"
                      f"output: {tmp_path / 'out'}\n")
    assert main(["tournament", "--config", str(config), "--engine", "batch", "--quiet", "--no-plots"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("razz tournament: engine: batch cannot play random vs razz_heuristic: stacks [1, 1]")
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "out").exists()
    with pytest.raises(SystemExit) as caught:
        main(["tournament", "--config", str(config), "--engine", "gpu"])
    assert caught.value.code == 2 and "invalid choice: 'gpu'" in capsys.readouterr().err
    assert main(["tournament", "--config", str(config), "--engine", "scalar", "--quiet", "--no-plots"]) == 0
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["config"]["engine"] == "scalar"


SHIPPED = [  # every registered agent, at a table it plays, with settings that keep the test quick
    ("random", "razz", 2), ("calling_station", "stud8", 3), ("razz_heuristic", "razz", 2),
    ("razz_heuristic", "action_razz", 3), ({"type": "monte_carlo", "samples": 20}, "razz", 2),
    ({"type": "monte_carlo", "samples": 20}, "stud", 3), ("maniac", "razz", 2), ("check_raiser", "stud8", 2),
    ("board_bully", "razz", 3), ("rock", "stud", 2), ("tag", "razz", 2), ("minirazz_cfr", "minirazz", 2),
    ({"type": "lbr", "target": "calling_station", "samples": 50}, "razz", 2), ("ppo_razz", "razz", 2),
    ("qrdqn_razz", "razz", 2), ("ppo_razz_pool", "razz", 2), ("ppo_razz_psro", "razz", 2),
    ("ppo_razz_multiway", "razz", 6), ("ppo_stud", "stud", 2),
]


@pytest.mark.parametrize(("spec", "variant", "seats"), SHIPPED,
                         ids=[f"{s if isinstance(s, str) else s['type']}-{v}-{n}" for s, v, n in SHIPPED])
def test_every_shipped_agent_plays_alike_on_both_engines(spec, variant, seats):
    """Every shipped agent, against seeded random players, gives the same hands on the batched engine (its seat
    views as arrays, act_batch over many tables) as on the scalar one."""
    config = HandConfig.create(variant, num_seats=seats, stacks=60 if seats > 2 else 1000)

    def lineup() -> list:
        return [make_agent(spec, seed=11)] + [make_agent("random", seed=20 + i) for i in range(seats - 1)]

    scalar = play_deals(lineup(), config, 16, "shipped", True, 60.0)
    batched = play_deals_batched(lineup(), config, 16, "shipped", True, 60.0)
    assert _per_deal(batched) == _per_deal(scalar)
    assert len({t.payoffs[0] for t in scalar}) > 1
