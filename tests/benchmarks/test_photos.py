"""The development photographs' split: every photograph in one part, the validation part a third
of each camera's, and no validation photograph named anew anywhere in the project."""

from __future__ import annotations

import pytest

from benchmarks.photos import NAME, missing, named_in_project, photos_folder, split

pytestmark = pytest.mark.skipif(missing() is not None, reason=str(missing()))


def test_every_photograph_is_in_one_part_and_a_third_of_each_cameras_is_kept_for_validation() -> None:
    parts = split()
    photos = {p.name for p in photos_folder().iterdir() if NAME.fullmatch(p.name)}
    assert set(parts["tuning"]) | set(parts["validation"]) == photos
    assert not set(parts["tuning"]) & set(parts["validation"])
    for camera in ("IMG_", "cam_image"):
        mine = [p for p in photos if p.startswith(camera)]
        kept = [p for p in parts["validation"] if p.startswith(camera)]
        assert abs(len(kept) / len(mine) - 1 / 3) < 0.05, camera


def test_no_validation_photograph_is_named_anew() -> None:
    """A photograph named in the code, the tests, the benchmarks or the documents has had a rule,
    a threshold or a check written for it. Those named when the split was made are the debt
    (``named_then``); none may be added."""
    parts = split()
    assert set(parts["named_then"]) <= set(parts["validation"])
    assert named_in_project() & set(parts["validation"]) <= set(parts["named_then"])


def test_the_photographs_an_enrolled_deck_learns_from_are_in_the_tuning_part() -> None:
    from benchmarks.bench_vision import ENROLMENT

    assert not set(ENROLMENT.values()) & set(split()["validation"])
