"""Vision: camera frames to the ``CardSeen`` / ``CardGone`` events the referee consumes.

frames (sources with host timestamps) -> detect (card outlines) -> reader (rank and suit from the
corner indices, with a confidence) -> identify (per frame, a ``seen.SeenCard`` each; cards no
outline read but an index names: by_index) -> tracker (events over frames), with calibration and
zones mapping the camera to the table (and checking it still does), profile for enrolled decks,
and exposure for a camera that clips the cards' paper white.
"""

import cv2

# OpenCV's own warnings (a camera that will not open, a file it cannot decode) go to stderr in
# its words; this package reports those faults itself, naming the camera or file.
cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
