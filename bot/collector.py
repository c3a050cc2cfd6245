"""The garbage collector's policy for the bot's process (``python -m bot``).

CPython's cycle collector runs a young collection every 700 new container objects, and every
tenth of those reaches the middle generation. A click allocates thousands of short-lived
objects (discord.py's parsed payloads, aiohttp's requests, renders), so under load the
collector ran about 40 times a second and took 15% of the bot's CPU, while almost everything
it scanned was either freed by reference counting anyway or lives for the whole process
(modules, classes, the tables kept in memory). So the process:

- collects less often (:data:`THRESHOLDS`): a young collection every 10,000 new objects, about
  twice a second under load and some 20 ms each (at 50,000 they cost the same in all, but each
  stalled the event loop for about 100 ms); the middle generation every fifth of those. A
  click's objects outlive a young collection, and many die in cycles (discord.py's interaction
  and its response point at each other, a view and its buttons), so the middle generation is
  where they are freed: at every 50th young collection it held some 200,000 and stalled the
  loop for 200-300 ms, the worst acknowledgements at 200 tables; every 5th, 30-50 ms, for the
  same work in all. The oldest generation is collected far more rarely;
- after the startup restore, freezes what is alive then (:func:`settle`): the modules and the
  tables kept open move to the permanent generation, which full collections never scan again.
  What a frozen table later drops is freed by reference counting; only cyclic garbage among
  the frozen objects stays, and the startup objects make little of it.

Only the process entry point opts in (:func:`tune`): a test process that starts many bots
keeps Python's defaults, and :func:`settle` does nothing there.
"""

from __future__ import annotations

import gc
import logging

log = logging.getLogger(__name__)

THRESHOLDS = (10_000, 5, 100)
"""``gc.set_threshold``: young, middle and old generation (Python's default is 700, 10, 10)."""

_tuned = False


def tune() -> None:
    """Collect less often, and let :func:`settle` freeze the startup objects."""
    global _tuned
    gc.set_threshold(*THRESHOLDS)
    _tuned = True


def tuned() -> bool:
    return _tuned


def settle() -> None:
    """After the startup restore, in a tuned process: collect once, then freeze what lives."""
    if not _tuned:
        return
    gc.collect()
    gc.freeze()
    log.debug("froze %d objects after the restore", gc.get_freeze_count())
