"""The batched PPO trainer: its per-seat GAE against a slow reference, its baselines against the registered agents,
tiny CPU runs (a seed repeats the final weights), the output-folder refusal and the command line."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba", reason="the batched engine needs numba (the batch extra)")
pytest.importorskip("torch")

import torch

from razz_env.agents.registry import make_agent
from razz_env.batch import BatchEngine
from razz_env.encoding.actions import CHECK_CALL
from razz_env.encoding.interface import Declaration, ObservationBatch
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.train.batch_ppo import (
    BASELINES,
    MIXED,
    POOL,
    Args,
    Opponents,
    Progress,
    baseline_actions,
    baseline_policies,
    carry_over,
    check_opponents,
    draw_seats,
    magnet_log_probs,
    save_checkpoint,
    seat_gae,
    seat_shares,
    table_roles,
    train,
)

torch.set_num_threads(1)
ROOT = Path(__file__).resolve().parents[2]


def reference_gae(actor, values, payoffs, finished, next_actor, next_value, gamma, lam):
    """Per (table, seat): list that seat's decisions, sum its rewards up to its next one, GAE backwards."""
    steps, tables = len(actor), len(actor[0])
    seats = len(payoffs[0][0])
    adv = [[0.0] * tables for _ in range(steps)]
    valid = [[False] * tables for _ in range(steps)]
    for t in range(tables):
        for s in range(seats):
            mine = [i for i in range(steps) if actor[i][t] == s]
            later = 0.0
            for k in reversed(range(len(mine))):
                i = mine[k]
                stop = mine[k + 1] if k + 1 < len(mine) else steps
                reward = sum(payoffs[j][t][s] for j in range(i, stop))
                ended = any(finished[j][t] for j in range(i, stop))
                if ended:
                    delta, carry = reward - values[i][t], 0.0
                elif k + 1 < len(mine):
                    delta, carry = reward + gamma * values[stop][t] - values[i][t], later
                elif next_actor[t] == s:
                    delta, carry = reward + gamma * next_value[t] - values[i][t], 0.0
                else:
                    later = 0.0
                    continue
                later = delta + gamma * lam * carry
                adv[i][t], valid[i][t] = later, True
    return adv, valid


@pytest.mark.parametrize("seed", range(6))
def test_seat_gae_matches_a_slow_reference(seed) -> None:
    rng = np.random.default_rng(seed)
    steps, tables, seats = 12, 7, 2
    actor = rng.integers(0, seats, (steps, tables))
    finished = rng.random((steps, tables)) < 0.25
    payoffs = np.where(finished[:, :, None], rng.normal(size=(steps, tables, seats)), 0.0)
    values = rng.normal(size=(steps, tables))
    next_actor, next_value = rng.integers(0, seats, tables), rng.normal(size=tables)
    gamma, lam = (1.0, 0.95) if seed % 2 else (0.9, 0.7)
    got = seat_gae(torch.tensor(actor), torch.tensor(values), torch.tensor(payoffs), torch.tensor(finished),
                   torch.tensor(next_actor), torch.tensor(next_value), gamma, lam)
    adv, valid = reference_gae(actor.tolist(), values.tolist(), payoffs.tolist(), finished.tolist(),
                               next_actor.tolist(), next_value.tolist(), gamma, lam)
    assert got.valid.numpy().tolist() == valid
    np.testing.assert_allclose(got.advantages.numpy(), np.array(adv), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got.returns.numpy(), np.array(adv) + values, rtol=1e-12, atol=1e-12)


def engine_masks(steps: int = 60, tables: int = 64):
    """The masks and acting seats of a batched engine playing random legal ids: every betting state of razz."""
    engine = BatchEngine(HandConfig.create("razz", num_seats=2), tables, seed=3)
    rng = np.random.default_rng(0)
    for _ in range(steps):
        yield engine.masks.copy(), engine.actor.copy()
        engine.step((engine.masks * rng.random((tables, 5))).argmax(axis=1))


@pytest.mark.parametrize("name", BASELINES)
def test_the_baselines_are_drawn_from_the_registered_agents_policies(name: str) -> None:
    """At every mask of razz play, the trainer's draws follow the registered agent's stated policy (a calling
    station's one id always; random's uniform over the legal ids)."""
    agent = make_agent(name)
    masks = np.unique(np.concatenate([m for m, _ in engine_masks(steps=20, tables=16)]), axis=0)
    policies = baseline_policies((name,), torch.device("cpu"))
    rows = torch.from_numpy(np.repeat(masks, 4000, axis=0) != 0)
    drawn = baseline_actions(policies, torch.zeros(len(rows), dtype=torch.int64), rows,
                             torch.Generator().manual_seed(0)).numpy().reshape(len(masks), 4000)
    expected = agent.action_probabilities_batch(ObservationBatch(np.zeros(len(masks)), masks))
    for row, draws in enumerate(drawn):
        frequencies = np.bincount(draws, minlength=5) / len(draws)
        assert (frequencies[expected[row] == 0] == 0).all()
        np.testing.assert_allclose(frequencies, expected[row], atol=0.03)
    if name == "calling_station":
        assert drawn[:, 0].tolist() == agent.act_batch(ObservationBatch(np.zeros(len(masks)), masks))


def test_each_table_draws_from_its_own_baseline() -> None:
    masks = torch.ones((6, 5), dtype=torch.bool)
    masks[:, 0] = False  # no fold with nothing to call: check/call and raises legal
    opponent = torch.tensor([0, 1, 0, 1, -1, 1])
    policies = baseline_policies(("calling_station", "random"), torch.device("cpu"))
    drawn = baseline_actions(policies, opponent.repeat(500), masks.repeat(500, 1),
                             torch.Generator().manual_seed(1)).reshape(500, 6)
    assert (drawn[:, [0, 2]] == CHECK_CALL).all()
    assert {int(a) for a in drawn[:, [1, 3, 5]].flatten()} == {1, 2, 3, 4}


def test_tables_are_split_between_self_play_and_the_baselines() -> None:
    opponent, at_seat, seat = table_roles(Args(num_tables=8, self_play_fraction=0.5), torch.device("cpu"))
    assert opponent.tolist() == [-1, -1, -1, -1, 0, 1, 0, 1]
    assert at_seat.tolist() == [[k, k] for k in opponent.tolist()]
    assert seat.tolist() == [0, 1] * 4


def test_mixed_multiway_tables_seat_each_opponent_by_its_weight_and_rotate_the_learner() -> None:
    args = Args(num_seats=6, num_tables=100, self_play_fraction=0.2, pool_fraction=0.1, mixed_tables=True,
                opponents=("monte_carlo", "razz_heuristic", "random"), opponent_weights=(3.0, 1.0, 1.0))
    kind, at_seat, seat = table_roles(args, torch.device("cpu"))
    assert (kind[:20] == -1).all() and (kind[20:30] == POOL).all() and (kind[30:] == MIXED).all()
    assert (at_seat[:20] == -1).all() and (at_seat[20:30] == POOL).all()
    assert torch.bincount(at_seat[30:].flatten()).tolist() == [252, 84, 84]  # 70 tables x 6 seats, 3:1:1
    assert len({tuple(row) for row in at_seat[30:].tolist()}) > 1  # tables differ: a mixture, seats rotated
    assert seat.tolist() == [t % 6 for t in range(100)]
    one, each, _ = table_roles(Args(num_seats=6, num_tables=10, self_play_fraction=0.5), torch.device("cpu"))
    assert each.tolist()[5:] == [[k] * 6 for k in one.tolist()[5:]]  # unmixed: one opponent at every other seat


SIX_HANDED_WEIGHTS = (4.0, 2.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 2.0)
"""The six-handed studies' mixed-table weights (Monte Carlo, the heuristic, four exploiters, the calling station,
random, the zoo's six-handed agent); index 4 is the maniac's."""


def test_fixed_mixed_tables_repeat_a_few_layouts_and_never_seat_two_maniacs() -> None:
    """Why ``--seat-draw hand`` exists: dealt once in weighted round robin, 512 six-handed tables hold 13 layouts."""
    args = Args(num_seats=6, num_tables=1024, mixed_tables=True, opponents=tuple(f"x{k}" for k in range(9)),
                opponent_weights=SIX_HANDED_WEIGHTS)
    kind, at_seat, _ = table_roles(args, torch.device("cpu"))
    mixed = at_seat[kind == MIXED]
    assert len({tuple(row) for row in mixed.tolist()}) == 13
    assert int(((mixed == 4).sum(1) >= 2).sum()) == 0


def test_drawn_seats_follow_the_weights_or_each_tables_dirichlet_draw_of_them() -> None:
    torch.manual_seed(3)
    plain = draw_seats(seat_shares(SIX_HANDED_WEIGHTS, torch.device("cpu")), 40_000, 5, 0.0)
    share = torch.bincount(plain.flatten(), minlength=9).double() / plain.numel()
    assert torch.allclose(share, torch.tensor(SIX_HANDED_WEIGHTS, dtype=torch.float64) / 13.0, atol=0.005)
    maniacs = (plain == 4).sum(1)
    assert abs(float((maniacs >= 2).double().mean()) - 0.0512) < 0.006  # binomial: 1 - P(0) - P(1) at p = 1/13
    varied = draw_seats(seat_shares(SIX_HANDED_WEIGHTS, torch.device("cpu")), 40_000, 5, 5.0)
    share = torch.bincount(varied.flatten(), minlength=9).double() / varied.numel()
    assert torch.allclose(share, torch.tensor(SIX_HANDED_WEIGHTS, dtype=torch.float64) / 13.0, atol=0.01)
    pairs = (varied == 4).sum(1) >= 2  # the same shares, but tables of fewer kinds: two maniacs near twice as often
    assert 0.08 < float(pairs.double().mean()) < 0.10
    kinds = lambda seats: float(torch.stack([(seats == k).any(1) for k in range(9)]).sum(0).double().mean())  # noqa: E731
    assert kinds(varied) < kinds(plain) - 0.5


def test_seats_drawn_every_hand_change_between_hands_and_the_run_repeats(tmp_path, monkeypatch) -> None:
    """``--seat-draw hand``: a mixed table's seat meets several opponents over a run (fixed: one, always)."""
    met: dict[str, set[tuple[int, int, int]]] = {"fixed": set(), "hand": set()}
    actions = Opponents.actions
    for draw in met:
        def spy(self, opponent, acting, masks, vectors, actor, engine, seen=met[draw]):
            rows = torch.nonzero(acting & (opponent >= 0)).flatten().tolist()
            seen.update((t, int(actor[t]), int(opponent[t])) for t in rows)
            return actions(self, opponent, acting, masks, vectors, actor, engine)

        monkeypatch.setattr(Opponents, "actions", spy)
        train(tiny(tmp_path, draw, num_seats=6, self_play_fraction=0.25, mixed_tables=True, seat_draw=draw,
                   opponents=("razz_heuristic", "calling_station", "random"), total_steps=4 * 1024))
    for draw, seen in met.items():
        seats: dict[tuple[int, int], set[int]] = {}
        for table, seat, opponent in seen:
            seats.setdefault((table, seat), set()).add(opponent)
        most = max(len(opponents) for opponents in seats.values())
        assert most == 1 if draw == "fixed" else most == 3
    monkeypatch.setattr(Opponents, "actions", actions)
    options = {"num_seats": 6, "self_play_fraction": 0.25, "mixed_tables": True, "seat_draw": "hand",
               "seat_concentration": 2.0, "opponents": ("razz_heuristic", "random")}
    first, again = (torch.load(train(tiny(tmp_path, name, **options))["output"], weights_only=True)["state_dict"]
                    for name in ("one", "two"))
    assert all(torch.equal(first[key], again[key]) for key in first)


def test_pool_tables_come_between_self_play_and_the_baselines() -> None:
    opponent, _, _ = table_roles(Args(num_tables=8, self_play_fraction=0.25, pool_fraction=0.5), torch.device("cpu"))
    assert opponent.tolist() == [-1, -1, POOL, POOL, POOL, POOL, 0, 1]


def test_the_opponents_share_the_tables_as_their_weights_say() -> None:
    args = Args(num_tables=1000, self_play_fraction=0.2, opponents=("monte_carlo", "razz_heuristic", "random"),
                opponent_weights=(5.0, 2.0, 1.0))
    opponent, _, _ = table_roles(args, torch.device("cpu"))
    assert (opponent[:200] == -1).all()
    assert torch.bincount(opponent[200:]).tolist() == [500, 200, 100]


def played_engine(tables: int = 48, steps: int = 9) -> BatchEngine:
    """A heads-up razz engine keeping its views, some random legal ids into its hands."""
    engine = BatchEngine(HandConfig.create("razz", num_seats=2), tables, seed=11, views=True)
    rng = np.random.default_rng(2)
    for _ in range(steps):
        engine.step((engine.masks * rng.random((tables, 5))).argmax(axis=1))
    return engine


def test_an_opponent_reading_the_view_acts_as_the_agent_does_from_the_acting_seats_view() -> None:
    """Where ``monte_carlo`` (deterministic) is to act, the trainer plays its own ``act_batch`` of the acting seats'
    views; elsewhere nothing is asked of it."""
    engine = played_engine()
    tables = engine.num_tables
    opponent = torch.tensor([0, 1, 2, 0] * (tables // 4))  # monte_carlo, calling_station, rock (a view reader too)
    acting = torch.tensor([True, True, False] * (tables // 3))
    masks = torch.from_numpy(engine.masks != 0)
    actor = torch.from_numpy(engine.actor.copy())
    opponents = Opponents(("monte_carlo", "calling_station", "rock"), seed=7, device=torch.device("cpu"))
    asked = []
    agent = opponents.agents[0]
    original = agent.action_probabilities_batch
    agent.action_probabilities_batch = lambda batch: asked.append(batch) or original(batch)
    chosen = opponents.actions(opponent, acting, masks, torch.zeros(tables, 1), actor, engine)
    rows = np.flatnonzero(acting.numpy() & (opponent.numpy() == 0))
    assert len(asked) == 1 and asked[0].seats.tolist() == engine.actor[rows].tolist()
    assert asked[0].vectors is None and asked[0].views.seat.tolist() == engine.actor[rows].tolist()
    expected = make_agent("monte_carlo", seed=7).act_batch(ObservationBatch(
        engine.actor[rows], engine.masks[rows], views=engine.seat_views(rows)))
    assert chosen[rows].tolist() == expected
    rock = np.flatnonzero(acting.numpy() & (opponent.numpy() == 2))
    assert chosen[rock].tolist() == make_agent("rock", seed=7).act_batch(ObservationBatch(
        engine.actor[rock], engine.masks[rock], views=engine.seat_views(rock)))
    station = np.flatnonzero(opponent.numpy() == 1)
    assert chosen[station].tolist() == make_agent("calling_station").act_batch(ObservationBatch(
        engine.actor[station], engine.masks[station]))


def test_an_opponent_reading_vectors_gets_the_acting_seats_rows() -> None:
    engine = played_engine(tables=12)
    vectors = torch.from_numpy(np.random.default_rng(3).random((12, 676), dtype=np.float32))
    opponents = Opponents(("ppo_razz",), seed=1, device=torch.device("cpu"))
    asked = []
    agent = opponents.agents[0]
    original = agent.action_probabilities_batch
    agent.action_probabilities_batch = lambda batch: asked.append(batch) or original(batch)
    acting = torch.tensor([True, False] * 6)
    opponents.actions(torch.zeros(12, dtype=torch.int64), acting, torch.from_numpy(engine.masks != 0), vectors,
                      torch.from_numpy(engine.actor.copy()), engine)
    assert asked[0].views is None and np.array_equal(asked[0].vectors, vectors.numpy()[::2])


def test_an_opponent_reading_another_encoding_gets_the_acting_seats_vectors_in_it(tmp_path) -> None:
    """``ppo_razz_multiway`` reads ``flat8``: the trainer's engine writes them for it (the learner's ``flat`` are
    not its), and a six-seat run of mixed tables trains against it."""
    from razz_env.encoding.encoders import PaddedFlatEncoder

    config = HandConfig.create("razz", num_seats=6)
    engine = BatchEngine(config, 12, seed=11, views=True)
    rng = np.random.default_rng(2)
    for _ in range(9):
        engine.step((engine.masks * rng.random((12, 5))).argmax(axis=1))
    opponents = Opponents(("ppo_razz_multiway",), seed=1, device=torch.device("cpu"), config=config)
    assert opponents.views
    asked = []
    agent = opponents.agents[0]
    original = agent.action_probabilities_batch
    agent.action_probabilities_batch = lambda batch: asked.append(batch) or original(batch)
    acting = torch.tensor([True, False] * 6)
    opponents.actions(torch.zeros(12, dtype=torch.int64), acting, torch.from_numpy(engine.masks != 0),
                      torch.zeros(12, 1782), torch.from_numpy(engine.actor.copy()), engine)
    assert np.array_equal(asked[0].vectors, engine.observe_as(PaddedFlatEncoder(config))[::2])
    result = train(tiny(tmp_path, "six", num_seats=6, mixed_tables=True, opponents=("ppo_razz_multiway", "random"),
                        total_steps=1024))
    assert result["last"]["bb100_vs_mixed_tables"] is not None


def test_a_run_against_view_reading_opponents_logs_each_and_repeats_with_its_seed(tmp_path) -> None:
    def run(name: str) -> dict:
        return train(tiny(tmp_path, name, self_play_fraction=0.25, opponents=("monte_carlo", "razz_heuristic",
                                                                                "calling_station"),
                          opponent_weights=(2.0, 1.0, 1.0), total_steps=2 * 1024))

    first, second = run("a"), run("b")
    assert {"bb100_vs_monte_carlo", "bb100_vs_razz_heuristic", "bb100_vs_calling_station"} <= set(first["last"])
    assert first["last"]["bb100_vs_monte_carlo"] is not None
    saved = [torch.load(result["output"], weights_only=True)["state_dict"] for result in (first, second)]
    assert all(torch.equal(saved[0][key], saved[1][key]) for key in saved[0])


def test_a_run_goes_on_from_another_with_other_opponents_but_not_another_network(tmp_path) -> None:
    args = tiny(tmp_path, "first", self_play_fraction=1.0, total_steps=2 * 1024)

    def keep(progress: Progress) -> bool:
        save_checkpoint(tmp_path / "first.pt", progress, args)
        return False

    train(args, hook=keep)
    later = tiny(tmp_path, "later", self_play_fraction=0.5, opponents=("monte_carlo",), ent_coef=0.02,
                 pool_fraction=0.25, total_steps=4 * 1024)
    carry_over(tmp_path / "first.pt", tmp_path / "later.pt", later)
    seen = []
    result = train(later, resume=tmp_path / "later.pt",
                   hook=lambda progress: seen.append((progress.update, len(progress.pool.networks))) and False)
    assert seen == [(3, 1), (4, 1)] and result["last"]["bb100_vs_monte_carlo"] is not None
    with pytest.raises(ConfigError, match=r"other hidden; a run going on from it may change only opponents"):
        carry_over(tmp_path / "first.pt", tmp_path / "wider.pt", tiny(tmp_path, "wider", hidden=(64, 64)))
    assert not (tmp_path / "wider.pt").exists()


def test_a_run_going_on_takes_its_own_learning_rate(tmp_path) -> None:
    """A later stage may take smaller steps: Adam's state carries over, its learning rate is the new run's (a
    resumed run of the same settings keeps its own)."""
    args = tiny(tmp_path, "first", anneal_lr=False, total_steps=2 * 1024)

    def keep(progress: Progress) -> bool:
        save_checkpoint(tmp_path / "first.pt", progress, args)
        return False

    train(args, hook=keep)
    later = tiny(tmp_path, "later", anneal_lr=False, learning_rate=1e-4, total_steps=4 * 1024)
    carry_over(tmp_path / "first.pt", tmp_path / "later.pt", later)
    rates: list[float] = []
    train(later, resume=tmp_path / "later.pt",
          hook=lambda progress: rates.append(progress.optimizer.param_groups[0]["lr"]) and False)
    assert rates == [1e-4, 1e-4]


class Silent:
    """An agent that states no policy."""

    name = "silent"
    declaration = Declaration(observes=())

    def reset(self, seat, num_seats):
        pass

    def act(self, observation):
        return int(np.flatnonzero(observation.action_mask)[0])


def test_the_uniform_magnet_makes_the_kl_minus_the_entropy_plus_the_log_of_the_legal_count() -> None:
    masks = torch.tensor([[True, True, False, False, False], [False, True, True, True, True]])
    logp = torch.log_softmax(torch.tensor([[0.3, -1.0, 0, 0, 0], [0, 2.0, 0.5, -0.5, 1.0]]).masked_fill(~masks, -1e9),
                             dim=1)
    magnet = magnet_log_probs(None, torch.zeros(2, 3), masks)
    probs = logp.exp()
    kl = torch.where(masks, probs * (logp - magnet), 0.0).sum(dim=1)
    entropy = -torch.where(masks, probs * logp, 0.0).sum(dim=1)
    torch.testing.assert_close(kl, -entropy + torch.log(torch.tensor([2.0, 4.0])))
    assert (magnet[~masks] == 0).all()


def tiny(tmp_path: Path, name: str, **options) -> Args:
    settings = {"output": str(tmp_path / name), "total_steps": 2048, "num_tables": 64, "num_steps": 16,
                "hidden": (32, 32), "num_minibatches": 4, "update_epochs": 2, "log_every": 1, "quiet": True,
                "seed": 5}
    return Args(**{**settings, **options})


def test_a_tiny_cpu_run_saves_a_policy_and_repeats_with_its_seed(tmp_path) -> None:
    first = train(tiny(tmp_path, "a"))
    second = train(tiny(tmp_path, "b"))
    other = train(tiny(tmp_path, "c", seed=6))
    assert first["steps"] == 2048 and first["steps_per_second"] > 0
    assert Path(first["output"]) == tmp_path / "a" / "final.pt"
    assert {"policy_loss", "value_loss", "entropy", "bb100_vs_random", "bb100_vs_calling_station"} <= set(
        first["last"])
    saved = [torch.load(run["output"], weights_only=True) for run in (first, second, other)]
    assert saved[0]["variant"] == "razz" and saved[0]["num_seats"] == 2 and saved[0]["encoding"] == "flat"
    assert saved[0]["layers"][1:] == [32, 32, 5] and saved[0]["steps"] == 2048
    assert saved[0]["args"]["seed"] == 5
    for key, weights in saved[0]["state_dict"].items():
        assert torch.equal(weights, saved[1]["state_dict"][key]), key
    assert not all(torch.equal(w, saved[2]["state_dict"][k]) for k, w in saved[0]["state_dict"].items())
    assert (tmp_path / "a" / "log.jsonl").read_text().count("\n") == 2


def test_only_baselines_and_only_self_play_both_train(tmp_path) -> None:
    assert train(tiny(tmp_path, "sp", self_play_fraction=1.0, total_steps=1024))["steps"] == 1024
    line = train(tiny(tmp_path, "base", self_play_fraction=0.0, opponents=("calling_station",),
                      total_steps=1024))["last"]
    assert line["bb100_vs_calling_station"] is not None


def test_a_pool_run_plays_its_snapshots_and_logs_its_result_against_them(tmp_path) -> None:
    seen = []
    result = train(tiny(tmp_path, "pool", self_play_fraction=0.5, pool_fraction=0.5, snapshot_every=1,
                        max_snapshots=3, total_steps=5 * 1024),
                   hook=lambda progress: seen.append(len(progress.pool.networks)) and False)
    assert seen == [2, 3, 3, 3, 3]  # the untrained network, then one a update, the newest three kept
    assert result["last"]["bb100_vs_pool"] is not None


def test_a_strong_uniform_magnet_holds_the_policy_near_uniform(tmp_path) -> None:
    def entropy(**options) -> float:
        return train(tiny(tmp_path, f"m{len(options)}", self_play_fraction=1.0, learning_rate=0.01, ent_coef=0.0,
                          total_steps=8 * 1024, **options))["last"]["entropy"]

    free, held = entropy(), entropy(magnet_coef=5.0, kl_coef=0.5)
    assert held > free + 0.05


def test_the_regularisation_halves_every_halflife(tmp_path) -> None:
    """With the entropy the only loss besides the value's (no advantages: norm_adv off, clip far), its gradient's
    weight halves each halflife: the entropy rises less with a short halflife than with none."""
    def entropy(**options) -> float:
        return train(tiny(tmp_path, f"h{len(options)}", self_play_fraction=1.0, learning_rate=0.01, ent_coef=1.0,
                          total_steps=8 * 1024, **options))["last"]["entropy"]

    assert entropy(regularisation_halflife=1) < entropy() - 0.01


def test_a_target_kl_stops_an_updates_epochs_once_the_policy_has_moved_that_far(tmp_path) -> None:
    """SB3's rule: a minibatch whose approximate KL from the rollout's policy passes 1.5 times the target is not
    stepped, nor are the rest of the update's (the first, at KL 0, always is); without a target all are."""
    def steps(name: str, **options) -> list[float]:
        taken: list[float] = []
        train(tiny(tmp_path, name, learning_rate=0.01, total_steps=3 * 1024, **options),
              hook=lambda progress: taken.append(progress.last.get("optimizer_steps")) and False)
        return taken

    assert steps("none") == [None, None, None]  # 4 minibatches x 2 epochs, taken and not counted
    assert steps("tight", target_kl=1e-12) == [1.0, 1.0, 1.0]
    assert set(steps("loose", target_kl=1e6)) == {8.0}


def test_a_later_stage_may_change_its_target_kl(tmp_path) -> None:
    args = tiny(tmp_path, "first", total_steps=1024)
    train(args, hook=lambda progress: save_checkpoint(tmp_path / "first.pt", progress, args) and False)
    later = tiny(tmp_path, "later", total_steps=2 * 1024, target_kl=0.02)
    carry_over(tmp_path / "first.pt", tmp_path / "later.pt", later)
    assert train(later, resume=tmp_path / "later.pt")["last"]["optimizer_steps"] >= 1


def test_a_checkpoint_from_before_a_setting_existed_resumes_with_its_default(tmp_path) -> None:
    args = tiny(tmp_path, "old", total_steps=4 * 1024)

    def keep(progress: Progress) -> bool:
        save_checkpoint(tmp_path / "ck.pt", progress, args)
        return True

    train(args, hook=keep)
    state = torch.load(tmp_path / "ck.pt", weights_only=True)
    del state["args"]["regularisation_halflife"]
    torch.save(state, tmp_path / "ck.pt")
    assert train(args, resume=tmp_path / "ck.pt")["steps"] == 4 * 1024


def test_an_ema_magnet_moves_a_share_of_the_way_to_the_actor_each_update(tmp_path) -> None:
    seen = []

    def record(progress: Progress) -> bool:
        magnet = torch.cat([p.flatten() for p in progress.magnet.parameters()])
        actor = torch.cat([p.flatten() for p in progress.agent.actor.parameters()])
        seen.append((magnet.clone(), actor.clone()))
        return False

    train(tiny(tmp_path, "ema", self_play_fraction=1.0, magnet="ema", magnet_coef=0.1, magnet_ema=0.25,
               total_steps=2 * 1024), hook=record)
    (first_magnet, first_actor), (second_magnet, second_actor) = seen
    torch.testing.assert_close(second_magnet, first_magnet + 0.25 * (second_actor - first_magnet))
    assert not torch.equal(first_magnet, first_actor)


def test_a_hook_stops_the_run_and_a_checkpoint_resumes_it(tmp_path) -> None:
    whole = []

    def record(progress: Progress) -> bool:
        whole.append(progress.update)
        if progress.update == 2:
            save_checkpoint(tmp_path / "ck.pt", progress, args)
        return progress.update == 3

    args = tiny(tmp_path, "hooked", total_steps=10 * 1024, magnet="moving", magnet_coef=0.1, kl_coef=0.1)
    stopped = train(args, hook=record)
    assert whole == [1, 2, 3] and stopped["steps"] == 3 * 1024
    resumed = []
    again = train(args, hook=lambda progress: resumed.append(progress.update) or progress.update == 4,
                  resume=tmp_path / "ck.pt")
    assert resumed == [3, 4] and again["steps"] == 4 * 1024
    assert again["steps_per_second"] == pytest.approx(2 * 1024 / again["seconds"])  # its own steps, not the 4 updates
    last = again["last"]  # its seconds are rounded to 0.01 s, its rate to 1 step/s: the rate lies within those
    assert 2 * 1024 / (last["seconds"] + 0.005) - 1 <= last["steps_per_second"] <= 2 * 1024 / max(
        last["seconds"] - 0.005, 1e-9) + 1
    with pytest.raises(ConfigError, match=r"other settings \(learning_rate\)"):
        train(tiny(tmp_path, "hooked", total_steps=10 * 1024, magnet="moving", magnet_coef=0.1, kl_coef=0.1,
                   learning_rate=1e-3, force=True), resume=tmp_path / "ck.pt")
    (tmp_path / "junk.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(ConfigError, match="junk.pt: unreadable"):
        train(tiny(tmp_path, "junk"), resume=tmp_path / "junk.pt")


def test_a_non_empty_output_is_refused_unless_forced(tmp_path) -> None:
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "keep.txt").write_text("mine")
    with pytest.raises(ConfigError, match="not empty; pass --force"):
        train(tiny(tmp_path, "used"))
    assert sorted(p.name for p in (tmp_path / "used").iterdir()) == ["keep.txt"]
    train(tiny(tmp_path, "used", force=True, total_steps=1024))
    assert (tmp_path / "used" / "final.pt").exists()


@pytest.mark.parametrize("options, message", [
    ({"num_seats": 9}, "--num-seats: must be at most 8, got 9"),
    ({"mixed_tables": True}, "--mixed-tables: mixes opponents at a table of 3 or more seats"),
    ({"num_seats": 6, "seat_draw": "hand"}, "--seat-draw hand: draws the seats of mixed tables; add --mixed-tables"),
    ({"num_seats": 6, "mixed_tables": True, "seat_concentration": 5.0}, "--seat-concentration: draws each hand's "
                                                                        "table weights; add --seat-draw hand"),
    ({"seat_draw": "table"}, "--seat-draw: expected one of fixed, hand, got 'table'"),
    ({"opponents": ("no_such_agent",)}, "unknown agent 'no_such_agent'"),
    ({"opponents": ("tests.train.test_batch_ppo:Silent",)}, "states no policy or does not act in batch"),
    ({"opponents": ("ppo_stud",)}, "--opponents: agent 'ppo_stud' plays stud at 2 seats; it cannot be seated at razz"),
    ({"opponents": ("random", "random")}, "--opponents: random named more than once; name each opponent once and "
                                          "give its share with --opponent-weights"),
    ({"opponent_weights": (1.0,)}, r"--opponent-weights: 1 weights for 2 opponents \(random, calling_station\)"),
    ({"opponent_weights": (1.0, 0.0)}, "--opponent-weights: expected positive numbers, got 1.0, 0.0"),
    ({"device": "tpu"}, "--device: expected one of cpu, cuda, got 'tpu'"),
    ({"self_play_fraction": 1.5}, "--self-play-fraction: must be at most 1, got 1.5"),
    ({"num_tables": 0}, "--num-tables: must be at least 1, got 0"), ({"variant": "holdem"}, "--variant: expected one"),
    ({"num_tables": 2.5}, "--num-tables: expected an integer of at least 1, got 2.5"),
    ({"anneal_lr": 1}, "--anneal-lr: expected true/false, got 1"),
    ({"learning_rate": math.nan}, r"--learning-rate: expected a number more than 0, got nan"),
    ({"learning_rate": math.inf}, r"--learning-rate: expected a number more than 0, got inf"),
    ({"learning_rate": -1e-3}, r"--learning-rate: must be more than 0, got -0.001"),
    ({"gamma": 1.5}, r"--gamma: must be at most 1, got 1.5"),
    ({"gae_lambda": math.nan}, r"--gae-lambda: expected a number from 0 to 1, got nan"),
    ({"clip_coef": 0.0}, r"--clip-coef: must be more than 0, got 0"),
    ({"max_grad_norm": math.inf}, r"--max-grad-norm: expected a number more than 0, got inf"),
    ({"ent_coef": -0.1}, r"--ent-coef: must be at least 0, got -0.1"),
    ({"vf_coef": math.nan}, r"--vf-coef: expected a number of at least 0, got nan"),
    ({"self_play_fraction": math.nan}, "--self-play-fraction: expected a number from 0 to 1, got nan"),
    ({"pool_fraction": -0.1}, r"--pool-fraction: must be at least 0, got -0.1"),
    ({"pool_fraction": 0.6, "self_play_fraction": 0.5}, "is more than every table"),
    ({"magnet": "north"}, r"--magnet: expected one of uniform, moving, ema, got 'north'"),
    ({"magnet_ema": 1.5}, r"--magnet-ema: must be at most 1, got 1.5"),
    ({"magnet_coef": -1.0}, r"--magnet-coef: must be at least 0"),
    ({"kl_coef": math.inf}, r"--kl-coef: expected a number of at least 0"),
    ({"max_snapshots": -1}, r"--max-snapshots: must be at least 0"),
    ({"snapshot_every": 0}, r"--snapshot-every: must be at least 1"),
    ({"regularisation_halflife": -1}, r"--regularisation-halflife: must be at least 0"),
    ({"target_kl": -0.01}, r"--target-kl: must be at least 0, got -0.01"),
    ({"num_minibatches": 7}, r"--num-minibatches: 7 does not divide a rollout's 1024 decisions \(--num-tables 64 "
                             r"x --num-steps 16\); choose a divisor, e.g. 8"),
])
def test_bad_settings_are_refused_by_name(tmp_path, options, message) -> None:
    with pytest.raises(ConfigError, match=message):
        train(tiny(tmp_path, "bad", **options))
    assert not (tmp_path / "bad").exists()


def test_a_trained_opponent_plays_only_at_its_own_table(tmp_path) -> None:
    trained = train(tiny(tmp_path, "small", stacks=200, total_steps=1024))["output"]
    check_opponents(Args(stacks=200, opponents=(trained,)))
    with pytest.raises(ConfigError, match="--opponents: .* was trained at stacks 200; it cannot be seated at a table "
                                          "of stacks 1000"):
        check_opponents(Args(opponents=(trained,)))


class OwnEncodingReader(Silent):
    """States its policy from vectors of an encoding a user registered (its declaration given in the test, once the
    encoding is), which the batched engine does not write."""

    name = "own_encoding_reader"

    def action_probabilities(self, observation):
        return observation.action_mask / observation.action_mask.sum()

    def act_batch(self, observations):
        return [self.act(observation) for observation in observations]

    def action_probabilities_batch(self, observations):
        return np.stack([self.action_probabilities(observation) for observation in observations])


def test_an_opponent_reading_an_encoding_the_engine_does_not_write_is_refused(monkeypatch) -> None:
    from razz_env.encoding import ENCODINGS, FlatEncoder

    monkeypatch.setitem(ENCODINGS, "test_own", FlatEncoder)
    import importlib

    seated = importlib.import_module("tests.train.test_batch_ppo").OwnEncodingReader  # the class the spec names
    monkeypatch.setattr(seated, "declaration", Declaration(observes=("vector",), encoding="test_own",
                                                                      states_policy=True, acts_in_batch=True),
                        raising=False)
    with pytest.raises(ConfigError, match="'tests.train.test_batch_ppo:OwnEncodingReader' reads 'test_own' vectors; "
                                          "the trainer's engine writes 'flat', 'ranks', 'flat8', 'ranks8' ones"):
        check_opponents(Args(opponents=("tests.train.test_batch_ppo:OwnEncodingReader",)))


def test_an_opponent_reading_views_is_refused_on_cuda_by_name() -> None:
    """The GPU engine keeps no views (checked without a GPU: the opponents' check comes before the device's)."""
    with pytest.raises(ConfigError, match="'monte_carlo' reads the seat's view, which only the CPU engine gives; on "
                                          "--device cuda the opponents are those that read the legal actions alone"):
        check_opponents(Args(device="cuda", opponents=("random", "monte_carlo")))
    check_opponents(Args(device="cuda", opponents=("random", "calling_station")))


def run_cli(*flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "razz_env.cli", "ppo", *flags], capture_output=True,
                          text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=120)


def test_the_command_line_shows_its_flags_and_refuses_in_one_line(tmp_path) -> None:
    shown = run_cli("--help")
    assert shown.returncode == 0
    assert "--self-play-fraction" in shown.stdout and "--device" in shown.stdout
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    refused = run_cli("--output", str(tmp_path / "full"))
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.strip().splitlines()[-1].startswith("razz ppo: --output")
    assert "tables played in lockstep (an integer of at least 1; default: 1024)" in " ".join(shown.stdout.split())
    for flags, message in ((("--learning-rate", "nan"), "razz ppo: --learning-rate: expected a number more than 0, "
                                                        "got nan"),
                           (("--num-minibatches", "7", "--num-tables", "128"), "razz ppo: --num-minibatches: 7 "
                                                                              "does not divide a rollout's 4096")):
        refused = run_cli(*flags, "--output", str(tmp_path / "unused"))
        assert refused.returncode == 2 and refused.stderr.startswith(message), refused.stderr
        assert refused.stderr.count("\n") == 1 and not (tmp_path / "unused").exists()



@pytest.mark.slow
def test_it_learns_to_beat_random_play(tmp_path) -> None:
    """About 40 s: 262,144 decisions on 512 tables; the learner's last logged result against ``random`` is well
    above zero (random play loses well over 100 bb/100 to any sensible policy)."""
    result = train(Args(output=str(tmp_path / "learn"), total_steps=262_144, num_tables=512, log_every=4, quiet=True,
                        seed=2))
    assert result["last"]["bb100_vs_random"] > 50


def test_a_six_handed_run_trains_one_seat_among_mixed_opponents_and_its_policy_plays_six_handed(tmp_path) -> None:
    from razz_env.agents.registry import make_agent
    from razz_env.encoding.interface import seating_problem
    from razz_env.evaluate.blocks import play_deals

    options = {"num_seats": 6, "self_play_fraction": 0.25, "mixed_tables": True, "total_steps": 2 * 1024,
               "opponents": ("razz_heuristic", "calling_station", "random")}
    result = train(tiny(tmp_path, "six", **options))
    assert result["last"]["bb100_vs_mixed_tables"] is not None and "bb100_vs_random" not in result["last"]
    saved = torch.load(result["output"], weights_only=True)
    assert saved["num_seats"] == 6 and saved["args"]["mixed_tables"]
    policy = make_agent({"type": result["output"], "seed": 1})
    assert seating_problem(policy, "razz", 6) is None and seating_problem(policy, "razz", 2) is not None
    tables = play_deals([policy, *(make_agent(name, seed=k) for k, name in enumerate(
        ("random", "calling_station", "razz_heuristic", "rock", "tag")))],
        HandConfig.create("razz", num_seats=6, stacks=1000), deals=2, seed="six", duplicate=False)
    assert len(tables) == 2 and all(sum(t.payoffs) == 0 for t in tables)
    again = train(tiny(tmp_path, "again", **options))
    first, second = (torch.load(r["output"], weights_only=True)["state_dict"] for r in (result, again))
    assert all(torch.equal(first[key], second[key]) for key in first)  # a six-handed run repeats with its seed
