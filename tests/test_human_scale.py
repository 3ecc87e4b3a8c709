"""The human solver's difficulty scale (solvers/human/scale.py) and its choice of step: SE's
length bonus, the weights of chains by their strong links and of almost locked sets, and the
rule that the lightest step of any technique is taken."""
from __future__ import annotations

import pytest

from models import Geometry, Model, Puzzle
from solvers.human import Board, Step
from solvers.human.scale import BASE, als_weight, chain_weight, length_bonus, one_digit_weight
from solvers.human.solver import TECHNIQUES, Technique, next_step, weight_of


@pytest.mark.parametrize("length, bonus", [(4, 0.0), (5, 0.1), (6, 0.1), (7, 0.2), (8, 0.2), (9, 0.3),
                                           (12, 0.3), (13, 0.4), (16, 0.4), (17, 0.5), (24, 0.5), (25, 0.6),
                                           (32, 0.6), (33, 0.7), (48, 0.7), (49, 0.8)])
def test_the_length_bonus_adds_a_tenth_past_each_of_ses_thresholds(length: int, bonus: float) -> None:
    assert length_bonus(length) == bonus


@pytest.mark.parametrize("strong, box, rows, cols, grouped, weight", [
    (2, False, True, False, False, 4.0),  # skyscraper: two rows
    (2, False, True, True, False, 4.1),  # two-string kite: a row and a column
    (2, True, True, False, False, 4.2),  # turbot fish: a box
    (2, False, True, False, True, 4.3),  # grouped: empty rectangle, finned X-wing
    (3, False, False, True, False, 5.4), (3, False, True, True, False, 5.5), (3, True, True, True, False, 5.6),
    (3, True, True, True, True, 5.7), (4, False, True, False, False, 5.8), (4, True, True, True, True, 6.1),
    (5, False, True, False, False, 6.9),  # SE's X-chain: 6.6 and ten nodes' bonus
    (8, False, True, False, False, 7.0)])  # sixteen nodes
def test_a_chain_of_one_digit_weighs_by_its_strong_links_and_where_they_lie(
        strong: int, box: bool, rows: bool, cols: bool, grouped: bool, weight: float) -> None:
    assert one_digit_weight(strong, box, rows, cols, grouped) == weight


def test_a_loop_of_one_digit_past_four_links_weighs_ses_x_cycle() -> None:
    assert one_digit_weight(5, False, True, True, False, loop=True) == 6.7  # 6.5, eight nodes' bonus
    assert one_digit_weight(3, False, True, True, False, loop=True) == 5.5  # as the chain


@pytest.mark.parametrize("cells, only_two, weight", [(3, True, 4.4), (4, True, 5.5), (5, True, 6.2), (6, True, 6.6),
                                                     (7, True, 7.2), (4, False, 7.0), (6, False, 7.1)])
def test_an_als_xz_weighs_the_wing_of_its_cells_or_ses_chain(cells: int, only_two: bool, weight: float) -> None:
    assert als_weight(cells, only_two) == weight


def test_ses_weights_are_kept_for_the_techniques_it_has() -> None:
    se = {"hidden single": 1.2, "naked single": 2.3, "pointing": 2.6, "claiming": 2.8, "naked pair": 3.0,
          "X-wing": 3.2, "hidden pair": 3.4, "naked triple": 3.6, "swordfish": 3.8, "hidden triple": 4.0,
          "XY-wing": 4.2, "XYZ-wing": 4.4, "unique rectangle": 4.5, "naked quad": 5.0, "jellyfish": 5.2,
          "hidden quad": 5.4, "BUG+1": 5.6, "XY-loop": 6.5, "AIC": 7.0, "Nishio forcing chain": 7.5,
          "cell forcing chain": 8.0, "region forcing chain": 8.0, "forcing net": 8.5,
          "forcing net with basic techniques": 9.0}
    assert {name: BASE[name] for name in se} == se
    assert chain_weight("AIC", 9) == 7.3


def test_every_technique_has_a_weight_and_guessing_weighs_most() -> None:
    assert all(t.name in BASE for t in TECHNIQUES)
    assert max(BASE.values()) == BASE["guess"] == 10.0


def fake(name: str, weight: float, calls: list[str], bounded: bool = False) -> Technique:
    """A technique named for a real one that always finds a step of this weight, noting each call."""
    def find(board: Board, below: float = float("inf")) -> Step:
        calls.append(name)
        return Step(name, f"{name} step", weight=weight)
    return Technique(name, find, bounded=bounded)


def board() -> Board:
    return Board.start(Model.from_puzzle(Puzzle(Geometry.of(3, 3), (0,) * 81)))


def test_the_lightest_step_of_any_technique_is_taken_and_heavier_ones_are_not_asked() -> None:
    calls: list[str] = []
    techniques = (fake("X-chain", 5.5, calls, bounded=True),  # can weigh 4.0: asked, finds 5.5
                  fake("naked quad", 5.0, calls),  # lighter than 5.5: asked, and taken
                  fake("hidden quad", 5.4, calls),  # 5.4 cannot beat 5.0: not asked
                  fake("AIC", 7.0, calls, bounded=True))
    step = next_step(board(), techniques)
    assert step is not None and step.technique == "naked quad" and weight_of(step) == 5.0
    assert calls == ["X-chain", "naked quad"]


def test_of_equal_weights_the_first_technique_listed_wins() -> None:
    calls: list[str] = []
    step = next_step(board(), (fake("skyscraper", 4.0, calls), fake("X-chain", 4.0, calls, bounded=True)))
    assert step is not None and step.technique == "skyscraper" and calls == ["skyscraper"]
