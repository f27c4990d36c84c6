"""A board's numbered edges put back in order, gaps asked for again, the lost ones counted."""

from __future__ import annotations

from firmware_bridge.edge_numbers import WRAP, EdgeNumbers, ahead
from table.units import MS


def test_edges_in_order_pass_straight_on_and_one_twice_is_left_out() -> None:
    n: EdgeNumbers[str] = EdgeNumbers()
    assert n.take(5, "a") == ["a"] and n.take(6, "b") == ["b"]
    assert n.take(6, "b") == [] and n.again == 1


def test_an_edge_after_a_gap_waits_for_it_and_the_gap_is_asked_for_then_given_up() -> None:
    n: EdgeNumbers[str] = EdgeNumbers(wait_ns=10 * MS, asks=3)
    n.start(0)
    assert n.take(0, "a") == ["a"] and n.take(2, "c") == []
    assert n.missing() == 1
    asks = [(t, n.due(t * MS)[0]) for t in range(0, 50, 5)]
    assert [t for t, ask in asks if ask is not None] == [10, 20, 30]
    assert n.lost == 1 and n.expected == 3  # given up at 40 ms: c went on
    n2: EdgeNumbers[str] = EdgeNumbers(wait_ns=10 * MS, asks=3)
    n2.start(0)
    n2.take(0, "a")
    n2.take(2, "c")
    assert n2.due(0)[0] is None and n2.due(10 * MS)[0] == 1
    assert n2.take(1, "b") == ["b", "c"] and n2.missing() == 0  # the edge asked for came


def test_a_later_gap_is_asked_for_in_its_turn() -> None:
    n: EdgeNumbers[str] = EdgeNumbers(wait_ns=10 * MS, asks=1)
    n.start(0)
    n.take(1, "b")
    n.take(3, "d")
    out = [n.due(t * MS) for t in range(0, 60, 2)]
    assert [ask for ask, _ in out if ask is not None] == [0, 2]  # each gap asked for once
    assert n.lost == 2 and [e for _, released in out for e in released] == ["b", "d"]


def test_edges_the_board_no_longer_holds_are_lost_but_those_that_came_go_on() -> None:
    n: EdgeNumbers[int] = EdgeNumbers()
    n.start(10)
    for k in range(11, 21):  # 10 lost on the way, 11-20 came
        assert n.take(k, k) == []
    assert n.gone(10, 14) == list(range(11, 21))  # 10 lost; 11-14 came before the board said so
    assert n.lost == 1 and n.expected == 21
    n.take(22, 22)  # 21 lost: a new gap, seen and waited for
    assert n.missing() == 1 and n.due(0) == (None, [])


def test_numbers_wrap_at_sixteen_bits() -> None:
    assert ahead(0, WRAP - 1) == 1 and ahead(WRAP - 1, 0) == -1
    n: EdgeNumbers[str] = EdgeNumbers()
    n.start(WRAP - 1)
    assert n.take(WRAP - 1, "a") == ["a"] and n.take(0, "b") == ["b"]
