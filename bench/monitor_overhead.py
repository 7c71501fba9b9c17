#!/usr/bin/env python3
"""Overhead of the monitor on the measured Python code (docs/monitor.md).

A tight Python loop (`--loop` additions) is timed with time.perf_counter
with no monitor, with a monitor whose sampler runs but no window is open,
and inside an open window; the order is interleaved and each variant is
timed `--reps` times; the median of each and the difference in percent are
printed. Also the cost of one begin_window/end_window pair (trace source:
end_window returns after one sampler tick).

    PYTHONPATH=build/python python3 bench/monitor_overhead.py --trace tests/fixtures/power/traces/tx2_idle.csv
"""
import argparse
import statistics
import time

import edpbench


def loop(n):
    x = 0
    for i in range(n):
        x += i
    return x


def timed(n):
    t0 = time.perf_counter()
    loop(n)
    return time.perf_counter() - t0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trace", required=True)
    p.add_argument("--rate-hz", type=float, default=100.0)
    p.add_argument("--loop", type=int, default=200000)
    p.add_argument("--reps", type=int, default=100)
    a = p.parse_args()

    for _ in range(20):  # warm-up: clocks and caches
        timed(a.loop)
    bare, idle, inside = [], [], []
    rounds = 5  # no monitor / monitor alternate in blocks, so drift hits both
    for _ in range(rounds):
        bare += [timed(a.loop) for _ in range(a.reps // rounds)]
        mon = edpbench.Monitor(source="trace", trace=a.trace, rate_hz=a.rate_hz)
        for _ in range(a.reps // rounds):
            idle.append(timed(a.loop))
            mon.begin_window("w")
            inside.append(timed(a.loop))
            mon.end_window("w")
        del mon  # stops the sampler
    mon = edpbench.Monitor(source="trace", trace=a.trace, rate_hz=a.rate_hz)
    edges = []
    for r in range(a.reps):
        t0 = time.perf_counter()
        mon.begin_window("e")
        mon.end_window("e")
        edges.append(time.perf_counter() - t0)
    m_bare, m_idle, m_in = (statistics.median(v) for v in (bare, idle, inside))
    print("loop of %d additions, median of %d each, sampler %.0f Hz" % (a.loop, len(bare), a.rate_hz))
    print("  no monitor              %8.3f ms" % (m_bare * 1e3))
    print("  sampler on, no window   %8.3f ms  (%+.1f%%)" % (m_idle * 1e3, 100 * (m_idle / m_bare - 1)))
    print("  inside an open window   %8.3f ms  (%+.1f%%)" % (m_in * 1e3, 100 * (m_in / m_bare - 1)))
    print("  begin+end_window pair   %8.3f ms  (median; p90 %.3f ms)" % (
        statistics.median(edges) * 1e3, sorted(edges)[int(0.9 * len(edges))] * 1e3))


if __name__ == "__main__":
    main()
