"""The batched engine: exact against the scalar engine (differential), its seeded streams, decks and input checks."""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

pytest.importorskip("numba", reason="the batched engine needs numba (the 'batch' extra)")

import rulings
from differential import CASE_IDS, CASES, config_for, play, replay

from razz_env.batch import BatchEngine
from razz_env.engine.config import HandConfig
from razz_env.engine.dealing import deck_for
from razz_env.engine.errors import ConfigError
from razz_env.engine.state import HandState


@pytest.mark.parametrize("short", [False, True], ids=["deep", "short"])
@pytest.mark.parametrize(("variant", "seats", "options"), CASES, ids=CASE_IDS)
def test_matches_scalar_engine(variant, seats, options, short):
    played = play(config_for(variant, seats, options), tables=16, hands=150, seed=seats * 7 + short,
                  short_stacks=short)
    assert played.hands >= 150
    assert played.showdowns > 0


@pytest.mark.parametrize(("ruling", "preset"), rulings.CASES, ids=rulings.CASE_IDS)
def test_each_ruling_plays_as_the_scalar_engine_decides_it(ruling, preset):
    """The rulings of ``tests/rulings.py`` (tied door cards and boards, the cap, the open pair, the odd chip, an
    all-in for the ante) under every preset: the same seat acts with the same mask at every decision."""
    hand = replay(ruling.config(preset), ruling.deck(), ruling.actions)
    assert ruling.answer(hand) == ruling.answers[preset]


PADDED_CASES = [("flat8", "razz", 2), ("flat8", "razz", 3), ("ranks8", "razz", 6), ("flat8", "stud", 8),
                ("flat8", "stud8", 6), ("ranks8", "action_razz", 3), ("flat8", "minirazz", 5)]


@pytest.mark.parametrize(("encoding", "variant", "seats"), PADDED_CASES,
                         ids=[f"{e}-{v}-{s}" for e, v, s in PADDED_CASES])
def test_padded_encodings_match_the_encoder(encoding, variant, seats):
    """The padded encodings ("flat8", "ranks8": eight positions, ``seated``, 16 slots) are written exactly."""
    played = play(HandConfig.create(variant, num_seats=seats), tables=16, hands=60, seed=seats,
                  short_stacks=seats == 3, encoding=encoding)
    assert played.hands >= 60


@pytest.mark.parametrize(("variant", "seats", "options"), CASES, ids=CASE_IDS)
def test_seat_views_match_the_scalar_views(variant, seats, options):
    """``seat_views()`` rows read back as the scalar engine's views, with no hidden card in them."""
    played = play(config_for(variant, seats, options), tables=8, hands=40, seed=seats, short_stacks=seats == 3,
                  views=True)
    assert played.hands >= 40


def test_seat_views_keep_whole_raising_wars():
    """A raising war past a street's first slots grows the kept history: every decision stays in the views."""
    config = HandConfig.create("razz", num_seats=2, raise_cap=0, stacks=400)
    engine = BatchEngine(config, 2, seed=4, views=True)
    hands = [HandState(config, deck=engine.decks[t].tolist()) for t in range(2)]
    longest = 0
    while not any(hand.is_over for hand in hands):
        views = engine.seat_views()
        for t, hand in enumerate(hands):
            assert views.view(t) == hand.view(hand.actor)
        longest = max(longest, int(views.history_length.max()))
        actions = engine.masks[:, ::-1].argmax(axis=1)
        actions = engine.masks.shape[1] - 1 - actions  # the most aggressive legal id: raise until all in
        engine.step(actions)
        for t, hand in enumerate(hands):
            hand.act(engine_action(int(actions[t]), hand))
    assert longest > 64


def test_seat_views_need_the_option():
    engine = BatchEngine(HandConfig.create("razz"), 2, seed=1)
    with pytest.raises(ConfigError, match="views=True"):
        engine.seat_views()


def test_community_card_hands_are_compared():
    """Stud at eight seats runs the deck short when five or more reach 7th street: those hands are covered."""
    played = play(HandConfig.create("stud", num_seats=8), tables=64, hands=300, seed=3,
                  fold_weight=0.02)
    assert played.community > 0


def test_history_overflow_vectors_are_compared():
    """Uncapped raising wars overflow the vector's history slots (each street keeps its last S): covered."""
    played = play(HandConfig.create("stud", num_seats=4, raise_cap=0), tables=32, hands=100, seed=1,
                  fold_weight=0.1)
    assert played.overflows > 0


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["razz", "action_razz", "stud", "stud8", "minirazz", "minirazz_tiny",
                                     "minirazz_small", "minirazz_large"])
def test_matches_scalar_engine_soak(variant):
    """At least 100,000 hands per variant over its seat counts, deep and short stacks, default and other rules."""
    total = int(os.environ.get("RAZZ_BATCH_SOAK_HANDS", 100_000))
    cases = [(s, o) for v, s, o in CASES if v == variant]
    cases += [(2, {"heads_up_uncapped": True}), (4 if variant != "minirazz_tiny" else 2, {"raise_cap": None})]
    cases = [(s, o) for s, o in cases if not (variant == "minirazz_tiny" and s > 2)
             and not (variant.startswith("minirazz_") and s > 3)]
    started, counts = time.perf_counter(), []
    for index, (seats, options) in enumerate(cases):
        for short in (False, True):
            share = total // (2 * len(cases)) + 1
            counts.append(play(config_for(variant, seats, options), tables=256, hands=share, seed=index * 2 + short,
                               short_stacks=short, fold_weight=0.2 if short else 1.0))
    hands = sum(c.hands for c in counts)
    print(f"{variant}: {hands} hands, {sum(c.decisions for c in counts)} decisions, "
          f"{sum(c.showdowns for c in counts)} showdowns, {sum(c.community for c in counts)} with a community card, "
          f"{sum(c.overflows for c in counts)} vectors with a history overflow, "
          f"{time.perf_counter() - started:.0f} s")
    assert hands >= total


def test_decks_deal_as_the_scalar_engine():
    config = HandConfig.create("razz", num_seats=3)
    deck = deck_for(["As 2s 3s", "Kd Qd Jd", "5c 6c 7c"], variant="razz")
    engine = BatchEngine(config, 2, decks=[deck, deck])
    hand = HandState(config, deck=deck)
    assert engine.actor.tolist() == [hand.actor, hand.actor]
    assert engine.cards[0, :, :3].tolist() == hand.cards
    assert engine.bring_in_seat[0] == hand.bring_in_seat == 1


def test_seeded_streams_repeat_and_differ_by_table():
    config = HandConfig.create("razz", num_seats=2)
    first, second = BatchEngine(config, 4, seed=5), BatchEngine(config, 4, seed=5)
    assert np.array_equal(first.decks, second.decks)
    assert len({tuple(d) for d in first.decks.tolist()}) == 4
    assert not np.array_equal(first.decks, BatchEngine(config, 4, seed=6).decks)


def test_reset_given_tables_and_decks():
    config = HandConfig.create("razz", num_seats=2)
    engine = BatchEngine(config, 3, seed=1)
    before = engine.decks.copy()
    deck = deck_for(["As 2s 3s", "Kd Qd Jd"], variant="razz")
    engine.reset(tables=[1], decks=[deck])
    assert engine.decks[1].tolist() == deck
    assert np.array_equal(engine.decks[[0, 2]], before[[0, 2]])


def test_stacks_that_leave_no_decision_are_refused():
    """Every seat but one all in from the antes would deal hands with no decision, forever: refused."""
    config = HandConfig.create("razz", num_seats=3, ante=5, bring_in=2, small_bet=10, big_bet=20)
    with pytest.raises(ConfigError, match=r"stacks\[1\]: at least two seats need more than the ante \(5\)"):
        BatchEngine(config, 2, stacks=[[6, 6, 100], [5, 3, 100]])
    BatchEngine(config, 1, stacks=[[6, 3, 100]])


def test_illegal_action_is_refused_and_changes_nothing():
    engine = BatchEngine(HandConfig.create("razz", num_seats=2), 3, seed=1)
    stacks = engine.stacks.copy()
    with pytest.raises(ValueError, match=r"actions\[0\]: id 0 is not legal .* legal ids: 2, 3"):
        engine.step([0, 3, 3])
    assert np.array_equal(engine.stacks, stacks) and engine.masks[:, 3].all()
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        engine.step([3, 3])
    with pytest.raises(ValueError, match="integer action id"):
        engine.step([3.0, 3.0, 3.0])


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"stacks": [[1, 2]]}, r"stacks: expected integer chip counts of shape \(2, 2\)"),
    ({"stacks": [[1, 2], [0, 3]]}, "at least 1 chip"),
    ({"decks": [list(range(52))] * 3}, r"decks: expected card ids of shape \(2, 52\)"),
    ({"decks": [list(range(52)), [0] * 52]}, r"decks\[1\]: must hold every card"),
    ({"seed": -1}, "seed"),
    ({"stacks": np.full((2, 2), 2**63, dtype=np.uint64)}, "at 2 seats holds at most 4,611,686,018,427,387,903 chips"),
])
def test_bad_input_is_named(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        BatchEngine(HandConfig.create("razz", num_seats=2), 2, **kwargs)


def test_a_configured_stack_beyond_int64_is_refused_not_wrapped():
    with pytest.raises(ConfigError, match="holds at most 4,611,686,018,427,387,903 chips, got 1,180,591,620,717,411,"):
        BatchEngine(HandConfig.create("razz", num_seats=2, stacks=2**70), 2)


@pytest.mark.parametrize(("options", "message"), [
    ({"raise_cap": 10**30}, "raise_cap: the batched engine counts in int64, so it is at most "
                            "9,223,372,036,854,775,807, got 1,000,000,000,000,000,000,000,000,000,000"),
    ({"small_bet": 10**30, "big_bet": 10**30}, "small_bet: the batched engine counts chips in int64, so a stake at 2 "
                                                "seats is at most 4,611,686,018,427,387,903 chips, got 1,000,"),
    ({"street_bets": [5, 5, 10, 10, 2**63]}, r"street_bets \(7th street\): the batched engine counts chips in int64"),
    ({"ante": 2**62, "stacks": 2**62 + 1}, "ante: the batched engine counts chips in int64, so a stake at 2 seats"),
])
def test_a_rule_or_stake_beyond_int64_is_refused_like_a_huge_stack(options, message):
    config = HandConfig.create("razz", num_seats=2, **options)
    with pytest.raises(ConfigError, match=message):
        BatchEngine(config, 2)


def test_bad_tables_are_named():
    engine = BatchEngine(HandConfig.create("razz", num_seats=2), 2, seed=1)
    with pytest.raises(ConfigError, match="distinct table indices 0 to 1"):
        engine.reset(tables=[0, 0])
    with pytest.raises(ConfigError, match="distinct table indices"):
        engine.reset(tables=[2])


def test_state_views_are_read_only():
    engine = BatchEngine(HandConfig.create("razz", num_seats=2), 2, seed=1)
    with pytest.raises(ValueError):
        engine.stacks[0, 0] = 5


def test_observe_other_encoders_match():
    """``RanksEncoder`` and a wider ``max_players`` with fewer history slots: the same vectors as the encoder."""
    from razz_env.encoding.encoders import FlatEncoder, RanksEncoder

    config = HandConfig.create("razz", num_seats=3)
    rng = np.random.default_rng(0)
    for encoder in (RanksEncoder(config), FlatEncoder(config, max_players=6, history_slots=2)):
        engine = BatchEngine(config, 8, seed=4, encoder=encoder)
        hands = [HandState(config, deck=engine.decks[t].tolist()) for t in range(8)]
        for _ in range(60):
            vectors = engine.observe()
            for t, hand in enumerate(hands):
                assert np.array_equal(vectors[t], encoder.encode(hand, hand.actor))
            actions = (engine.masks * rng.random((8, 5))).argmax(axis=1)
            result = engine.step(actions)
            for t, hand in enumerate(hands):
                hand.act(engine_action(int(actions[t]), hand))
                if result.finished[t]:
                    hands[t] = HandState(config, deck=engine.decks[t].tolist())


def test_observe_as_writes_another_encoding_of_the_same_hands():
    """An engine encoding ``flat`` and keeping views writes ``flat8`` too, as an engine built with it does; one that
    keeps fewer decisions a street than the other encoding shows refuses it."""
    from razz_env.encoding.encoders import FlatEncoder, PaddedFlatEncoder

    config = HandConfig.create("razz", num_seats=6)
    flat = BatchEngine(config, 16, seed=4, encoder=FlatEncoder(config), views=True)
    padded = BatchEngine(config, 16, seed=4, encoder=PaddedFlatEncoder(config))
    rng = np.random.default_rng(0)
    for _ in range(120):
        assert np.array_equal(flat.observe_as(PaddedFlatEncoder(config)), padded.observe())
        actions = (flat.masks * rng.random((16, 5))).argmax(axis=1)
        flat.step(actions)
        padded.step(actions)
    heads_up = HandConfig.create("razz", num_seats=2)
    with pytest.raises(ConfigError, match="observe_as: 'flat8' shows 16 decisions a street; this engine keeps 6"):
        BatchEngine(heads_up, 2, seed=1, encoder=FlatEncoder(heads_up)).observe_as(PaddedFlatEncoder(heads_up))


def engine_action(action_id, hand):
    from razz_env.encoding.actions import to_engine

    return to_engine(action_id, hand.legal_actions())


def test_observe_input_is_checked():
    from razz_env.encoding.encoders import FlatEncoder

    config = HandConfig.create("razz", num_seats=2)
    with pytest.raises(ConfigError, match="observe: this engine was built without an encoder"):
        BatchEngine(config, 2, seed=1).observe()
    with pytest.raises(ConfigError, match="encoder: expected a table encoder .* of this config"):
        BatchEngine(config, 2, seed=1, encoder=FlatEncoder(HandConfig.create("razz", num_seats=3)))
    engine = BatchEngine(config, 2, seed=1, encoder=FlatEncoder(config))
    with pytest.raises(ValueError, match=r"out: expected float32 of shape \(2, 676\)"):
        engine.observe(np.zeros((2, 5), dtype=np.float32))
    out = np.zeros((2, 676), dtype=np.float32)
    assert engine.observe(out) is out and out.any()


def test_missing_numba_names_the_extra():
    import subprocess
    import sys

    code = ("import sys; sys.modules['numba'] = None\n"
            "try:\n    import razz_env.batch\nexcept ImportError as e:\n    print(e)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "pip install 'razz-env[batch]'" in out


def test_step_writes_the_next_vectors_into_out():
    """``step(actions, out=...)`` writes what ``observe()`` returns after a plain step, for other encoders too
    (a wider ``max_players``, fewer history slots: overflows in uncapped razz)."""
    from razz_env.encoding.encoders import FlatEncoder, RanksEncoder

    config = HandConfig.create("razz", num_seats=4, raise_cap=0)
    for encoder in (FlatEncoder(config), RanksEncoder(config), FlatEncoder(config, max_players=6, history_slots=2)):
        fused, plain = (BatchEngine(config, 16, seed=5, encoder=encoder) for _ in range(2))
        out = np.full((16, encoder.size), 7.0, dtype=np.float32)
        rng = np.random.default_rng(1)
        for _ in range(120):
            actions = (plain.masks * rng.random((16, 5))).argmax(axis=1)
            result = fused.step(actions, out=out)
            expected = plain.step(actions)
            assert np.array_equal(result.payoffs, expected.payoffs)
            assert np.array_equal(out, plain.observe())


def test_step_out_is_checked_before_anything_changes():
    from razz_env.encoding.encoders import FlatEncoder

    config = HandConfig.create("razz", num_seats=2)
    with pytest.raises(ConfigError, match="observe: this engine was built without an encoder"):
        BatchEngine(config, 2, seed=1).step([3, 3], out=np.zeros((2, 676), dtype=np.float32))
    engine = BatchEngine(config, 2, seed=1, encoder=FlatEncoder(config))
    before = engine.decks.copy(), engine.observe()
    read_only = np.zeros((2, 676), dtype=np.float32)
    read_only.flags.writeable = False
    expected = r"out: expected float32 of shape \(2, 676\), got "
    for out, message in ((np.zeros((2, 676), dtype=np.float64), expected + "float64"),
                         (np.zeros((3, 676), dtype=np.float32), expected + r"float32 of shape \(3, 676\)"),
                         ([[0.0] * 676] * 2, expected + "float64"),
                         (read_only, "out: expected a writeable array")):
        with pytest.raises(ValueError, match=message):
            engine.step(np.full(2, 3), out=out)
    assert np.array_equal(engine.decks, before[0]) and np.array_equal(engine.observe(), before[1])


def test_observe_refuses_a_read_only_out():
    """A read-only ``out`` is named (it used to fail inside numba, with a typing error)."""
    from razz_env.encoding.encoders import FlatEncoder

    config = HandConfig.create("razz", num_seats=2)
    engine = BatchEngine(config, 2, seed=1, encoder=FlatEncoder(config))
    read_only = np.zeros((2, 676), dtype=np.float32)
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="out: expected a writeable array"):
        engine.observe(read_only)


def test_chip_amounts_beyond_int32_are_exact():
    """The history keeps int32 amounts unless a table's stacks go beyond them: then int64, still exact."""
    big = 2**33
    config = HandConfig.create("razz", num_seats=3, stacks=[60 * big] * 3, ante=big, bring_in=2 * big,
                               small_bet=4 * big, big_bet=8 * big)
    assert play(config, tables=8, hands=40, seed=2).hands >= 40
    assert BatchEngine(config, 1, seed=0)._tables.history.dtype == np.int64
    assert BatchEngine(HandConfig.create("razz", num_seats=3), 1, seed=0)._tables.history.dtype == np.int32
