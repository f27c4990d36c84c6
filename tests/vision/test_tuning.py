"""A stage's tuned numbers are one frozen dataclass it reads through ``vision.tuning.tuned``; a
test or an experiment changes them for a block, and nothing else sees the change."""

from __future__ import annotations

import dataclasses
import importlib
import threading

import pytest

from vision import indices
from vision.tuning import changed, tuned

STAGES = (
    "by_index",
    "card_size",
    "covered",
    "detect",
    "exposure",
    "fans",
    "frame_check",
    "identify",
    "indices",
    "ink",
    "middle",
    "on_top",
    "pictures",
    "quads",
    "reader",
)


@pytest.mark.parametrize("stage", STAGES)
def test_each_stage_keeps_its_numbers_in_one_frozen_dataclass(stage: str) -> None:
    values = importlib.import_module(f"vision.{stage}").TUNING
    assert dataclasses.is_dataclass(values) and dataclasses.fields(values)
    field = dataclasses.fields(values)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(values, field, None)


def test_a_change_holds_for_its_block_nests_and_ends_with_it() -> None:
    default = indices.TUNING.mirror_reach
    with changed(indices.TUNING, mirror_reach=0.0):
        assert tuned(indices.TUNING).mirror_reach == 0.0
        with changed(indices.TUNING, paper=110):
            now = tuned(indices.TUNING)
            assert (now.mirror_reach, now.paper) == (0.0, 110)
        assert tuned(indices.TUNING).paper == indices.TUNING.paper
    assert tuned(indices.TUNING).mirror_reach == default == indices.TUNING.mirror_reach


def test_a_field_the_stage_lacks_is_refused() -> None:
    with pytest.raises(TypeError, match="mirror_rech"), changed(indices.TUNING, mirror_rech=0.0):
        pass


def test_another_thread_reads_the_stage_s_own_numbers() -> None:
    seen = []
    with changed(indices.TUNING, mirror_reach=0.0):
        thread = threading.Thread(target=lambda: seen.append(tuned(indices.TUNING).mirror_reach))
        thread.start()
        thread.join()
    assert seen == [indices.TUNING.mirror_reach]


def test_the_retune_fixture_changes_the_numbers_for_the_rest_of_the_test(retune) -> None:
    retune(indices.TUNING, mirror_reach=0.0)
    retune(indices.TUNING, paper=110)
    now = tuned(indices.TUNING)
    assert (now.mirror_reach, now.paper) == (0.0, 110)
