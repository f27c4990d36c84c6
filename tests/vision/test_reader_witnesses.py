"""How the reader weighs its witnesses: two index corners (the network's probabilities) and the
middle of the card (the pip count or a picture, and the big pips' suit)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.corner_net import RANK_CLASSES, SUIT_CLASSES
from vision.middle import BLOCKED
from vision.reader import UNSURE, weigh_witnesses


def ranks(**p: float) -> np.ndarray:
    """A corner's rank probabilities: the named classes (``r10`` for 10), the rest spread evenly."""
    out = np.zeros(len(RANK_CLASSES))
    for name, value in p.items():
        out[RANK_CLASSES.index(name.removeprefix("r"))] = value
    rest = [i for i in range(len(out)) if out[i] == 0]
    out[rest] = (1 - out.sum()) / len(rest)
    return out


def suits(**p: float) -> np.ndarray:
    out = np.zeros(len(SUIT_CLASSES))
    for name, value in p.items():
        out[SUIT_CLASSES.index(name)] = value
    rest = [i for i in range(len(out)) if out[i] == 0]
    out[rest] = (1 - out.sum()) / len(rest)
    return out


def weigh(
    corners: list[tuple[np.ndarray, np.ndarray]],
    middle: str | None,
    middle_suit: str | None = None,
    whole: bool = False,
    covered: bool = False,
):
    rank_p, suit_p = np.stack([r for r, _ in corners]), np.stack([s for _, s in corners])
    outline = "covered" if covered else "whole" if whole else None
    return weigh_witnesses(rank_p, suit_p, middle, middle_suit, False, outline)


SPADE = suits(S=0.97)


def test_agreeing_corners_read_the_card() -> None:
    code, sure = weigh([(ranks(Q=0.97), SPADE), (ranks(Q=0.9), SPADE)], "court")
    assert code == "QS" and sure >= UNSURE


def test_the_pip_count_settles_a_corner_torn_between_two_ranks() -> None:
    """A small index whose 3 looks like a 5 to the network, on a card with three pips."""
    torn = ranks(r5=0.4, r3=0.3)
    code, sure = weigh([(torn, SPADE), (torn, SPADE)], "3", "S")
    assert code == "3S" and sure >= UNSURE


def test_a_count_one_pip_off_a_corner_s_rank_does_not_name_another_rank() -> None:
    """An outline drawn round a pile's top five and the nine under it: one corner reads 5, the
    other the nine's 9, and the middle counts six (the nine's pip beside the five's five). Six is
    no corner's answer, and a count one pip off the five's names nothing against it: unsure."""
    diamond = np.zeros(len(SUIT_CLASSES))  # as the networks read them, the other classes nought
    diamond[[SUIT_CLASSES.index("D"), SUIT_CLASSES.index("none")]] = 0.999, 0.001
    five = np.zeros(len(RANK_CLASSES))
    five[[RANK_CLASSES.index("5"), RANK_CLASSES.index("6"), RANK_CLASSES.index("8")]] = 0.786, 0.21, 0.004
    nine = np.zeros(len(RANK_CLASSES))
    nine[[RANK_CLASSES.index("9"), RANK_CLASSES.index("Q")]] = 0.979, 0.021
    code, sure = weigh([(five, diamond), (nine, suits(C=0.534, S=0.466))], "6", "D", whole=True)
    assert sure < UNSURE
    code, _ = weigh([(five, diamond), (ranks(r5=0.9), diamond)], "6", "D", whole=True)
    assert code == "5D"  # both corners read five: the count one off does not make it a six


def test_a_confident_index_against_the_middle_is_unsure() -> None:
    code, sure = weigh([(ranks(r6=0.96), SPADE), (ranks(r6=0.6), SPADE)], "court")
    assert sure < UNSURE, code
    code, sure = weigh([(ranks(r4=0.95), suits(H=0.99)), (ranks(r4=0.95), suits(H=0.99))], "4", "D")
    assert sure < UNSURE, code


@pytest.mark.parametrize(("middle", "settled"), [("court", False), (None, False), ("2", True)])
def test_corners_that_disagree_are_unsure_unless_the_count_names_one(middle: str | None, settled: bool) -> None:
    """A picture rules out the pip ranks but does not say which picture; a count names a rank."""
    a, b = (ranks(J=0.9) if middle != "2" else ranks(r2=0.9)), ranks(r3=0.8)
    code, sure = weigh([(a, SPADE), (b, SPADE)], middle, "S" if middle == "2" else None)
    assert (sure >= UNSURE) == settled, (code, sure)
    if settled:
        assert code == "2S"


def test_one_corner_alone_needs_the_middle_to_agree() -> None:
    """A lower card of a pile shows one index, and its outline reaches under the top card. Alone,
    even a certain corner is unsure; with the pip count and the big pips' suit behind it, it is
    read. A picture card has no pips to name its suit, so one corner of it stays unsure."""
    alone = [(ranks(r5=0.99), SPADE)]
    assert weigh(alone, None)[1] < UNSURE
    assert weigh(alone, "7", "S")[1] < UNSURE
    assert weigh(alone, "5", "H")[1] < UNSURE
    code, sure = weigh(alone, "5", "S")
    assert code == "5S" and sure >= UNSURE
    assert weigh([(ranks(K=0.98), SPADE)], "court")[1] < UNSURE


def test_a_covered_card_is_read_from_its_one_corner_at_that_corners_confidence_squared() -> None:
    """A card partly under others is known to be a lower card (its hidden part painted out), so
    its one corner is read; squared, a corner that is only fairly sure stays unsure."""
    code, sure = weigh([(ranks(r5=0.99), SPADE)], None, covered=True)
    assert code == "5S" and sure == pytest.approx(min(0.99, 0.97) ** 2, abs=0.02)
    assert weigh([(ranks(r5=0.8), SPADE)], None, covered=True)[1] < UNSURE
    assert weigh([(ranks(r5=0.99), suits(S=0.8))], None, covered=True)[1] < UNSURE


def test_a_corner_that_barely_shows_an_index_is_not_made_sure_by_the_count() -> None:
    """The network's "no index here" keeps its share against the pip count: a corner half
    believed to be a 5 on a five of spades is not a sure five."""
    code, sure = weigh([(ranks(r5=0.5, none=0.45), SPADE), (ranks(r5=0.5, none=0.45), SPADE)], "5", "S")
    assert sure < UNSURE, code


def test_a_corner_that_barely_shows_a_suit_is_not_made_sure_of_it() -> None:
    """The network's "no suit here" keeps its share: a 0.06 club is not a sure club."""
    faint = suits(C=0.06, none=0.9)
    code, sure = weigh([(ranks(Q=0.96), faint), (ranks(Q=0.96), faint)], "court")
    assert sure < UNSURE, code


def test_a_picture_does_not_push_torn_corners_to_a_rank_neither_said() -> None:
    """Corners leaning to 8, a middle taken for a picture (a shadow across the pips): the court
    rank the corners rate second is no answer."""
    torn = ranks(r8=0.6, Q=0.15)
    code, sure = weigh([(torn, SPADE), (torn, SPADE)], "court")
    assert sure < UNSURE, code


def test_one_corner_read_as_a_joker_needs_more_than_a_picture() -> None:
    joker = ranks(joker=0.95)
    code, sure = weigh([(joker, suits(none=0.9))], "court")
    assert sure < UNSURE, code


def test_one_corner_of_a_whole_picture_card_is_read() -> None:
    """An outline whose every side is an edge in the picture is a card lying whole, not one
    reaching under another: one court index with a picture in the middle then reads (the other
    corner under glare or a thumb), at the corner's own confidence squared."""
    alone = [(ranks(K=0.98), SPADE)]
    code, sure = weigh(alone, "court", whole=True)
    assert code == "KS" and UNSURE <= sure <= 0.98**2 + 1e-9
    assert weigh(alone, "court", whole=False)[1] < UNSURE


def test_a_whole_outline_does_not_speak_for_a_silent_middle() -> None:
    """A blurred 7 whose index the network takes for a J, with no pips counted: nothing but the
    one corner says J."""
    assert weigh([(ranks(J=0.92), SPADE)], None, whole=True)[1] < UNSURE


def test_a_corner_the_picture_rules_out_leaves_the_other_alone() -> None:
    """A blurred court index misread as a number is ruled out by the picture; the other corner
    is then one corner alone for the rank, read at its own confidence (squared), not the fused
    one, on any outline: the picture vouches for a court rank. The suit both corners read."""
    pair = [(ranks(Q=0.98), SPADE), (ranks(r4=0.69), SPADE)]
    for whole in (True, False):
        code, sure = weigh(pair, "court", whole=whole)
        assert code == "QS" and UNSURE <= sure <= 0.98**2 + 1e-9
    weak = [(ranks(Q=0.51), SPADE), (ranks(r8=0.65), SPADE)]  # the picture may be a shadow on an 8
    assert weigh(weak, "court", whole=True)[1] < UNSURE
    assert weigh(weak, "court", whole=False)[1] < UNSURE


def test_a_picture_vouches_for_no_lone_joker_nor_a_lone_suit() -> None:
    """Beside a picture, a corner read as a joker on an outline that is not whole stays unsure
    (a patch of a court card, warped, read as a joker's corner: IMG_2659), and so does a court
    rank whose suit only one corner shows."""
    joker = [(ranks(joker=0.97), suits(none=0.9)), (ranks(r6=0.6), SPADE)]
    assert weigh(joker, "court")[1] < UNSURE
    assert weigh([(ranks(K=0.99), SPADE)], "court")[1] < UNSURE


def test_something_across_the_middle_doubts_a_joker_not_a_pip_card() -> None:
    """A middle something lies across (``BLOCKED``: a shadow, a hand, wood grain running off it)
    hides pips, so two corners reading a 7 read it; a joker's picture would lie within the
    middle, so two corners reading a joker there (a patch of grain) stay unsure."""
    seven = [(ranks(r7=0.98), suits(D=0.97))] * 2
    code, sure = weigh(seven, BLOCKED, "D")
    assert code == "7D" and sure >= UNSURE
    joker = [(ranks(joker=0.95), suits(none=0.9)), (ranks(joker=0.7), suits(none=0.9))]
    assert weigh(joker, None)[1] >= UNSURE
    assert weigh(joker, BLOCKED)[1] < UNSURE


@pytest.mark.parametrize(("middle", "read"), [("9", True), ("10", True), ("8", False), ("5", False), ("court", False)])
def test_a_count_one_pip_off_does_not_overrule_two_sure_corners(middle: str, read: bool) -> None:
    """Glare can wash one pip of a ten out, so the middle counts nine: two corners sure of a 10
    are read all the same. A count further off, or a picture, still overrules them."""
    ten = ranks(r10=0.99)
    code, sure = weigh([(ten, suits(C=0.99)), (ten, suits(C=0.99))], middle, "C" if middle != "court" else None)
    assert (code == "10C" and sure >= UNSURE) == read, (code, sure)


def test_a_count_one_pip_off_does_not_vouch_for_one_corner_alone() -> None:
    """One corner needs the middle to name its rank: a count one off names another."""
    code, sure = weigh([(ranks(r10=0.99), suits(C=0.99))], "9", "C")
    assert sure < UNSURE, (code, sure)


def test_a_picture_in_a_whole_outline_overrules_both_corners_read_as_a_number() -> None:
    """A jack whose J both corners read as a 3, a J their best of the rest, lying whole with a
    picture in the middle: a jack. On an outline that may reach under another card, or with one
    corner alone, the picture does not overrule what the index said."""
    torn = ranks(r3=0.55, J=0.35)
    code, sure = weigh([(torn, SPADE), (torn, SPADE)], "court", whole=True)
    assert code == "JS" and sure >= UNSURE
    assert weigh([(torn, SPADE), (torn, SPADE)], "court")[1] < UNSURE
    assert weigh([(torn, SPADE)], "court", whole=True)[1] < UNSURE
    # Each corner's best of the rest must be the answer: one leaning to a queen leaves it unsure.
    assert weigh([(torn, SPADE), (ranks(r3=0.55, Q=0.35), SPADE)], "court", whole=True)[1] < UNSURE


def test_a_picture_in_a_whole_outline_joins_a_ruled_out_corner_s_best_of_the_rest_to_the_other() -> None:
    """IMG_2621's queen: her top index read A 0.91, Q next; her bottom one Q 0.79. Lying whole
    with a picture in the middle, both corners say Q: a queen, at the fused probability. On an
    outline that may reach under another card, or where the ruled-out corner leans to a king,
    the lone Q is squared (0.62): unsure."""
    misread, queen = ranks(A=0.91, Q=0.05), ranks(Q=0.79, r8=0.18)
    code, sure = weigh([(misread, SPADE), (queen, SPADE)], "court", whole=True)
    assert code == "QS" and sure >= UNSURE
    assert weigh([(misread, SPADE), (queen, SPADE)], "court")[1] < UNSURE
    assert weigh([(ranks(A=0.91, K=0.05), SPADE), (queen, SPADE)], "court", whole=True)[1] < UNSURE


def test_an_index_whose_rank_the_picture_overruled_must_tell_its_suit_clearly() -> None:
    """Its suit only that index tells (a picture has no pips): torn between spade and club, it
    is unsure, where a clear suit is read."""
    torn = ranks(r3=0.55, J=0.35)
    black = suits(S=0.8, C=0.18)
    assert weigh([(torn, black), (torn, black)], "court", whole=True)[1] < UNSURE
    assert weigh([(ranks(J=0.9), black), (ranks(J=0.9), black)], "court", whole=True)[1] >= UNSURE
