"""Peak resident memory of this process, sampled on a thread (Linux ``/proc/self/statm``)."""

from __future__ import annotations

import os
import threading

_PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_bytes() -> int:
    """The resident set size now."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * _PAGE


class PeakRss:
    """Samples RSS every 5 ms from ``start()`` to ``stop()``; ``peak`` is the highest seen."""

    def __init__(self) -> None:
        self.baseline = rss_bytes()
        self.peak = self.baseline
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(0.005):
            self.sample()

    def sample(self) -> None:
        self.peak = max(self.peak, rss_bytes())

    def start(self) -> PeakRss:
        self._thread.start()
        return self

    def stop(self) -> int:
        """Stops sampling; returns the growth over the baseline, in bytes."""
        self.sample()
        self._stop.set()
        self._thread.join()
        return self.peak - self.baseline
