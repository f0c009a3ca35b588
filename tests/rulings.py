"""The rule points the presets decide, each set up at the decision it decides (``docs/rules.md``, Rule presets).

A :class:`Ruling` is a deal (each seat's cards in dealing order), the actions that lead to the decision, the
question asked there and its answer under each preset. ``tests/engine/test_presets.py`` asks the scalar engine;
``tests/batch/test_engine.py`` and ``tests/batch/test_cuda_engine.py`` play the same deals on the batched engine and
on the CUDA engine (numba's simulator), held to the scalar engine at every decision on the way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from razz_env.engine.actions import Action
from razz_env.engine.config import HandConfig
from razz_env.engine.dealing import deck_for
from razz_env.engine.state import HandState

WSOP = ("wsop_2022", "wsop_2023", "wsop_2024")
PRESET_NAMES = ("house", *WSOP)
"""The presets every ruling is asked under (``test_presets.py`` holds them to ``PRESETS``)."""
BIG_CHIPS = {"chip": 25_000, "ante": 25_000, "bring_in": 50_000, "small_bet": 100_000, "big_bet": 200_000,
             "stacks": 2_000_000}
"""Stakes in chips of 25,000: an 11-chip pot split two ways leaves an odd chip."""
QUESTIONS = {
    "bring_in": lambda hand: hand.bring_in_seat,
    "actor": lambda hand: hand.actor,
    "can_raise": lambda hand: Action.RAISE in hand.legal_actions(),
    "can_bet_big": lambda hand: Action.BET_BIG in hand.legal_actions(),
    "payoffs": lambda hand: hand.payoffs,
}
"""What a ruling asks the hand once its actions are played."""


@dataclass(frozen=True)
class Ruling:
    """``hands``: each seat's cards in dealing order; ``actions``: record names played first; ``question``: one of
    :data:`QUESTIONS`; ``answers``: preset name -> answer (a preset left out cannot play the actions);
    ``options``: table options beside the preset (stakes, stacks)."""

    name: str
    variant: str
    hands: tuple[str, ...]
    actions: tuple[str, ...]
    question: str
    answers: Mapping[str, Any]
    options: Mapping[str, Any] = field(default_factory=dict)

    def config(self, preset: str) -> HandConfig:
        """The table under ``preset``."""
        return HandConfig.create(self.variant, num_seats=len(self.hands), rules=preset, **self.options)

    def deck(self) -> list[int]:
        """A full deck dealing ``hands``."""
        return deck_for(self.hands, variant=self.variant)

    def play(self, preset: str) -> HandState:
        """The scalar hand under ``preset`` after the actions."""
        hand = HandState(self.config(preset), deck=self.deck())
        for action in self.actions:
            hand.act(action)
        return hand

    def answer(self, hand: HandState) -> Any:
        """The question asked of ``hand``."""
        return QUESTIONS[self.question](hand)


def every(answer: Any) -> dict[str, Any]:
    """The same answer under every preset."""
    return dict.fromkeys(PRESET_NAMES, answer)


def house_and_wsop(house: Any, wsop: Any, **years: Any) -> dict[str, Any]:
    """``house`` under the house rules, ``wsop`` under every WSOP preset but the years named (``wsop_2022=...``)."""
    return {"house": house, **dict.fromkeys(WSOP, wsop), **years}


RAZZ_DOORS = ("2c 3c Kh", "4c 5c Ks", "6c 7c 9d")  # K♥ and K♠: the K♠ is the highest card (seat 1 brings in)
STUD_DOORS = ("Kc Qc 2d", "Kd Qd 2c", "Jc Tc 9d")  # 2♦ and 2♣: the 2♣ is the lowest (seat 1 brings in)
RAZZ_BOARDS = ("Kc Qc 3s 2d", "Kd Qd 3h 2c", "Jc Tc 9d 8d")  # 3♠2♦ and 3♥2♣ on 4th: by suit seat 1 (the lower suits)
HIGH_BOARDS = ("2c 3c Kh Qc", "2d 3d Ks Qd", "4c 5c 3h 4h")  # K♥Q♣ and K♠Q♦ on 4th: by suit seat 1, by position 0
CHECK_DOWN = ("check",) * 8  # 4th to 7th street, two seats

RULINGS = (
    # equal door cards: by suit in every game (Section IX items 1, 2, 4; Live-Action Rule 146's suit order)
    Ruling("razz-tied-doors", "razz", RAZZ_DOORS, (), "bring_in", every(1)),
    Ruling("action_razz-tied-doors", "action_razz", RAZZ_DOORS, (), "bring_in", every(1)),
    Ruling("minirazz-tied-doors", "minirazz", ("Ac 6c", "2d 6d", "3c 4c"), (), "bring_in", every(1)),
    Ruling("stud-tied-doors", "stud", STUD_DOORS, (), "bring_in", every(1)),
    Ruling("stud8-tied-doors", "stud8", STUD_DOORS, (), "bring_in", every(1)),
    # the ace is high for the bring-in in stud and stud8: the 2♦ brings in, not the A♣
    Ruling("stud8-ace-door", "stud8", ("Kc Qc Ac", "Kd Qd 2d", "Jc Tc 9d"), (), "bring_in", every(1)),
    Ruling("stud-ace-door", "stud", ("Kc Qc Ac", "Kd Qd 2d", "Jc Tc 9d"), (), "bring_in", every(1)),
    # equal boards on 4th street: position in razz and stud8, suit in stud high but for 2022
    Ruling("razz-tied-boards", "razz", RAZZ_BOARDS, ("bring_in", "call", "call"), "actor", house_and_wsop(1, 0)),
    Ruling("stud8-tied-boards", "stud8", HIGH_BOARDS, ("bring_in", "call", "call"), "actor", house_and_wsop(1, 0)),
    Ruling("stud-tied-boards", "stud", HIGH_BOARDS, ("bring_in", "call", "call"), "actor",
           house_and_wsop(1, 1, wsop_2022=0)),
    # the cap: a bet and four raises (Rule 100(b)) even when three seats are down to two; none once the tournament
    # is heads-up (two seats dealt in)
    Ruling("razz-cap-three-down-to-two", "razz", ("2c 3c Kh", "4c 5c Qs", "6c 7c Jd"),
           ("bring_in", "complete", "fold", "raise", "raise", "raise"), "can_raise", house_and_wsop(False, True)),
    Ruling("razz-cap-three-down-to-two-fifth", "razz", ("2c 3c Kh", "4c 5c Qs", "6c 7c Jd"),
           ("bring_in", "complete", "fold", "raise", "raise", "raise", "raise"), "can_raise",
           dict.fromkeys(WSOP, False)),
    Ruling("razz-cap-round-starts-two-handed", "razz", ("2c 3c Kh 8h", "4c 5c Qs 9s", "6c 7c Jd Td"),
           ("bring_in", "call", "fold", "bet", "raise", "raise", "raise"), "can_raise", house_and_wsop(False, True)),
    Ruling("razz-no-cap-tournament-heads-up", "razz", ("2c 3c Kh", "4c 5c Qs"),
           ("bring_in", "complete", "raise", "raise", "raise", "raise", "raise"), "can_raise",
           dict.fromkeys(WSOP, True)),
    # no open-pair big bet on 4th street in stud and stud8 (Section IX items 1, 2)
    Ruling("stud-open-pair", "stud", ("2c 3c Kh Kd", "4d 5d 3s 7h"), ("bring_in", "call"), "can_bet_big",
           house_and_wsop(True, False)),
    Ruling("stud8-open-pair", "stud8", ("2c 3c Kh Kd", "4d 5d 3s 7h"), ("bring_in", "call"), "can_bet_big",
           house_and_wsop(True, False)),
    # the odd chip among tied hands: the high card by suit among the five cards played (Rule 73); in razz aces are
    # low, so a wheel's high card is its five: the 5♥ (seat 0) beats the 5♦, whatever the A♠ and K♠ of seat 1
    Ruling("razz-odd-chip", "razz", ("Ad 2h Kc 3h 4h 5h Qc", "As 2d 7c 3d 4d 5d Ks", "Qd Jd 8s"),
           ("bring_in", "complete", "fold", "call", *CHECK_DOWN), "payoffs", every([25_000, 0, -25_000]), BIG_CHIPS),
    # two 9-high straights: the 9♠ (seat 0) beats the 9♦; seat 1's K♠ is not among its five cards
    Ruling("stud-odd-chip", "stud", ("2c 3d 9s 8h 7c 6d 5h", "Ks 3s 9d 8c 7s 6h 5c", "Jc Jd Ah"),
           ("bring_in", "fold", "complete", "call", *CHECK_DOWN), "payoffs", every([25_000, 0, -25_000]), BIG_CHIPS),
    # stud8: the odd chip between the halves goes to the high hand (quads; the wheel takes the low)
    Ruling("stud8-odd-chip", "stud8", ("Ac 3d 2c 4h 5s 7d 9c", "Kc Kd Ks Kh Qh Jh 8s", "Qc Qd Qs"),
           ("bring_in", "complete", "fold", "call", *CHECK_DOWN), "payoffs", every([0, 25_000, -25_000]), BIG_CHIPS),
    # all-in for the ante: the seat to its left brings in (seat 1), not the next weakest door (seat 2)
    Ruling("razz-all-in-for-the-ante", "razz", ("2c 3c Kh", "4c 5c 4s", "6c 7c Qd"), (), "bring_in", every(1),
           {"stacks": [1, 200, 200]}),
    Ruling("stud-all-in-for-the-ante", "stud", ("Kc Qc 2d", "Kd Qd Ac", "Jc Tc 3d"), (), "bring_in", every(1),
           {"stacks": [1, 200, 200]}),
)
"""Every ruling: tied door cards in each game, the ace in the stud games' bring-in, tied 4th-street boards, the
cap, the open pair, the odd chip and an all-in for the ante."""
CASES = [(ruling, preset) for ruling in RULINGS for preset in ruling.answers]
CASE_IDS = [f"{ruling.name}-{preset}" for ruling, preset in CASES]
