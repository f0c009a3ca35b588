"""The batched engine against the scalar one: same decks, same random legal actions, every step compared.

Each table of a :class:`BatchEngine` is shadowed by a ``HandState`` built on the deck the table deals
(``engine.decks[t]``) with the table's stacks; before every step the acting seat, the five-id mask, the
street, the stacks, the bets and the acting seat's vector in ``encoding`` (``"flat"`` unless given; from
``observe()``, or written by the previous ``step(actions, out=...)``, at random) must agree, and every hand
that ends must report the same payoffs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from razz_env.batch import BatchEngine
from razz_env.batch.engine import check_stacks
from razz_env.encoding import make_encoder
from razz_env.encoding.actions import ENGINE_TO_ID, ActionTable
from razz_env.engine.config import HandConfig
from razz_env.engine.state import HandState


class Played(NamedTuple):
    """What a differential run covered."""

    hands: int
    decisions: int
    showdowns: int
    community: int
    overflows: int


def host(array: Any) -> np.ndarray:
    """A device array's host copy (``CudaEngine``'s arrays), or the host array itself."""
    return array.copy_to_host() if hasattr(array, "copy_to_host") else array


def play(config: HandConfig, tables: int, hands: int, seed: int, short_stacks: bool = False,
         fold_weight: float = 1.0, encoding: str = "flat", views: bool = False,
         engine_class: Callable[..., Any] = BatchEngine) -> Played:
    """Play until ``hands`` hands have ended; ``AssertionError`` at the first difference. Actions are drawn
    uniformly from the legal ids, a fold with ``fold_weight`` times the others' weight (low: more showdowns).
    With ``views``, every table's ``seat_views()`` row must also equal the scalar view of its acting seat and
    hold no card hidden from that seat. ``engine_class``: the engine played (``CudaEngine`` too: its device
    arrays are copied to the host to compare)."""
    rng = np.random.default_rng(seed)
    n = config.num_seats
    stacks = None
    if short_stacks:  # above the ante (a hand always needs a decision), often below a few bets; whole chips
        chip = config.stakes.chip
        low = config.stakes.ante // chip + 1
        stacks = rng.integers(low, low + 4 * config.big_bet // chip, size=(tables, n)) * chip
        stacks[rng.random((tables, n)) < 0.4] = max(config.stacks)
    encoder = make_encoder(encoding, config)
    options = {"views": True} if views else {}
    engine = engine_class(config, tables, seed=seed, stacks=stacks, encoder=encoder, **options)
    starting = check_stacks(config, tables, stacks)
    table_configs = [dataclasses.replace(config, stacks=tuple(int(s) for s in starting[t])) for t in range(tables)]
    action_table = ActionTable()
    decks = host(engine.decks)
    scalar = [HandState(table_configs[t], deck=decks[t].tolist()) for t in range(tables)]
    done = decisions = showdowns = community = overflows = 0
    overflow_flags = encoder.layout.slices["history_overflow"]
    fused = engine.observe()  # an array of the engine's kind (host or device) for step(out=...)
    stepped_with_vectors = False
    while done < hands:
        masks, actor, street, stacks, bets, decks = (host(engine.masks), host(engine.actor), host(engine.street),
                                                     host(engine.stacks), host(engine.bets), host(engine.decks))
        vectors = host(fused) if stepped_with_vectors else host(engine.observe())
        overflows += int(vectors[:, overflow_flags].any(axis=1).sum())
        seat_views = engine.seat_views() if views else None
        weights = np.cumsum(masks * np.array([fold_weight, 1, 1, 1, 1]), axis=1)
        actions = (weights < rng.random((tables, 1)) * weights[:, -1:]).sum(axis=1)
        for t, hand in enumerate(scalar):
            where = f"table {t}, deck {decks[t].tolist()}, history {hand.history}"
            assert not hand.is_over, where
            assert actor[t] == hand.actor, where
            assert masks[t].tolist() == action_table.mask(hand.legal_actions()).tolist(), where
            assert street[t] == hand.street, where
            assert stacks[t].tolist() == hand.stacks, where
            assert bets[t].tolist() == hand.bets, where
            expected = encoder.encode(hand, hand.actor)
            assert np.array_equal(vectors[t], expected), f"{where}: vector differs at {vectors[t] != expected}"
            if seat_views is not None:
                assert seat_views.view(t) == hand.view(hand.actor), where
                hidden = {c for s in range(n) if s != hand.actor for c in hand.down_cards(s)}
                hidden |= set(engine.decks[t].tolist()) - {c for s in range(n) for c in hand.cards[s]}
                assert not hidden & set(seat_views.cards[t].ravel().tolist()), where
        stepped_with_vectors = bool(rng.random() < 0.5)  # half the steps write the next vectors themselves
        result = engine.step(actions, out=fused) if stepped_with_vectors else engine.step(actions)
        payoffs, finished, decks = host(result.payoffs), host(result.finished), host(engine.decks)
        decisions += tables
        for t, hand in enumerate(scalar):
            hand.act(action_table.to_engine("test", int(actions[t]), hand.legal_actions()))
            if hand.is_over:
                where = f"table {t}, history {hand.history}"
                assert finished[t] == 1, where
                assert payoffs[t].tolist() == hand.payoffs, where
                done += 1
                showdowns += sum(not f for f in hand.folded) > 1
                community += hand.community is not None
                scalar[t] = HandState(table_configs[t], deck=decks[t].tolist())
            else:
                assert finished[t] == 0 and not payoffs[t].any(), f"table {t}"
    return Played(done, decisions, showdowns, community, overflows)


def replay(config: HandConfig, deck: list[int], actions: tuple[str, ...],
           engine_class: Callable[..., Any] = BatchEngine) -> HandState:
    """Deal ``deck`` on one table of ``engine_class`` and play ``actions`` (record names); before each one and after
    the last (unless the hand is over: the table deals the next), the acting seat, mask, street, stacks, bets and
    bring-in seat must be the scalar engine's, and a finished hand's payoffs. Returns the scalar hand."""
    engine = engine_class(config, 1, decks=[deck])
    hand = HandState(config, deck=deck)
    action_table = ActionTable()
    for index in range(len(actions) + 1):
        where = f"{config.variant.name} {config.rules.preset}, before action {index}, history {hand.history}"
        if hand.is_over:
            break
        assert host(engine.actor)[0] == hand.actor, where
        assert host(engine.masks)[0].tolist() == action_table.mask(hand.legal_actions()).tolist(), where
        assert host(engine.street)[0] == hand.street, where
        assert host(engine.stacks)[0].tolist() == hand.stacks, where
        assert host(engine.bets)[0].tolist() == hand.bets, where
        assert host(engine.bring_in_seat)[0] == hand.bring_in_seat, where
        if index == len(actions):
            break
        hand.act(actions[index])
        action = np.array([ENGINE_TO_ID[hand.history[-1].action]], dtype=np.int64)
        result = engine.step(action)
        if hand.is_over:
            assert host(result.payoffs)[0].tolist() == hand.payoffs, where
    return hand


CASES = [
    # (variant, seats, options)
    ("razz", 2, {}),
    ("razz", 6, {"bring_in_tie_break": "position"}),
    ("razz", 8, {"heads_up_uncapped": True}),
    ("action_razz", 4, {"raise_cap": None}),
    ("stud", 8, {}),
    ("stud", 3, {"open_pair_big_bet": False}),
    ("stud8", 8, {}),
    ("stud8", 5, {"street_bets": [3, 4, 5, 8, 13], "ante": 2}),
    ("minirazz", 2, {}),
    ("minirazz", 5, {}),
    ("minirazz_tiny", 2, {}),
    ("minirazz_small", 3, {"raise_cap": 1}),
    ("minirazz_large", 3, {"ante": 0}),
    ("razz", 2, {"rules": "wsop_2023"}),
    ("razz", 5, {"rules": "wsop_2024"}),
    ("action_razz", 3, {"rules": "wsop_2023"}),
    ("stud", 4, {"rules": "wsop_2023"}),
    ("stud8", 8, {"rules": "wsop_2023"}),
    ("stud8", 2, {"rules": "wsop_2023", "raise_cap": 2}),
    ("minirazz", 3, {"rules": "wsop_2023"}),
    ("stud8", 5, {"rules": "wsop_2023", "chip": 25, "ante": 25, "bring_in": 50, "small_bet": 100, "big_bet": 200,
                  "stacks": 5000}),
    ("razz", 4, {"chip": 5, "ante": 5, "bring_in": 5, "small_bet": 10, "big_bet": 20, "stacks": 400}),
    ("stud", 3, {"rules": "wsop_2022", "bring_in_tie_break": "position", "chip": 2, "ante": 2, "bring_in": 2,
                 "small_bet": 4, "big_bet": 8}),
]
"""Every variant, 2 to 8 seats, the rule options (each tie-break by position on its own and both together), the
short-deck community cases (stud and stud8 at 8 seats, minirazz at 5, minirazz_small at 3), every variant under
a WSOP preset (tied later boards by position but in stud high, by position there too in ``wsop_2022``; cap 5, no
open-pair big bet, no cap once the tournament is heads-up) and chips above 1 (odd chips of 25, 5 and 2)."""


def case_id(variant: str, seats: int, options: dict) -> str:
    """A case's test id: variant, seats, and the preset and chip when set."""
    tags = [options["rules"]] if "rules" in options else []
    tags += [f"chip{options['chip']}"] if "chip" in options else []
    return "-".join([variant, str(seats), *tags])


CASE_IDS = [case_id(*case) for case in CASES]


def config_for(variant: str, seats: int, options: dict) -> HandConfig:
    return HandConfig.create(variant, num_seats=seats, **options)
