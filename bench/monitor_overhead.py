#!/usr/bin/env python3
"""Overhead of the monitor on the measured Python code (docs/monitor.md).

A tight Python loop (`--loop` additions) is timed with time.perf_counter in
three variants: no monitor at all, a monitor whose sampler runs but no
window is open, and inside an open window. Variants alternate rep by rep
(ABC, BCA, CAB, ...), so drift of the machine (clocks, neighbours) falls on
all three alike. Printed: each variant's median, and the median of the
paired ratios against "no monitor" with a bootstrap 95% interval, so a
difference inside the interval is not an overhead. Also the cost of one
begin_window/end_window pair, with and without the interference probe
(trace source: end_window returns after one sampler tick, no lag tail).
The machine's load average before and after says whether it was quiet.

    PYTHONPATH=build/python python3 bench/monitor_overhead.py --trace tests/fixtures/power/traces/tx2_idle.csv
"""
import argparse
import os
import random
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


def ratio_ci(pairs, rng, rounds=2000):
    """Median of the ratios and a bootstrap 95% interval of that median."""
    med = statistics.median(pairs)
    boots = sorted(statistics.median(rng.choices(pairs, k=len(pairs))) for _ in range(rounds))
    return med, boots[int(0.025 * rounds)], boots[int(0.975 * rounds)]


def edge_cost(mon, reps):
    edges = []
    for _ in range(reps):
        t0 = time.perf_counter()
        mon.begin_window("e")
        mon.end_window("e")
        edges.append(time.perf_counter() - t0)
    edges.sort()
    return statistics.median(edges), edges[int(0.9 * len(edges))]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trace", required=True)
    p.add_argument("--rate-hz", type=float, default=100.0)
    p.add_argument("--loop", type=int, default=200000)
    p.add_argument("--reps", type=int, default=300)
    a = p.parse_args()
    rng = random.Random(1)
    load0 = os.getloadavg()[0]

    for _ in range(20):  # warm-up: clocks and caches
        timed(a.loop)
    bare, idle, inside = [], [], []
    r_idle, r_inside = [], []
    mon = None
    order = ["bare", "idle", "inside"]
    for rep in range(a.reps):
        got = {}
        for v in order[rep % 3:] + order[:rep % 3]:
            if v == "bare":
                if mon is not None:
                    del mon  # stops the sampler
                    mon = None
                got[v] = timed(a.loop)
            else:
                if mon is None:
                    mon = edpbench.Monitor(source="trace", trace=a.trace, rate_hz=a.rate_hz,
                                           await_period_s=0)
                if v == "idle":
                    got[v] = timed(a.loop)
                else:
                    mon.begin_window("w")
                    got[v] = timed(a.loop)
                    mon.end_window("w")
        bare.append(got["bare"])
        idle.append(got["idle"])
        inside.append(got["inside"])
        r_idle.append(got["idle"] / got["bare"])
        r_inside.append(got["inside"] / got["bare"])
    mon = None
    with_probe = edge_cost(edpbench.Monitor(source="trace", trace=a.trace, rate_hz=a.rate_hz,
                                            await_period_s=0), a.reps)
    without = edge_cost(edpbench.Monitor(source="trace", trace=a.trace, rate_hz=a.rate_hz,
                                         await_period_s=0, interference=False), a.reps)
    load1 = os.getloadavg()[0]

    print("loop of %d additions, %d reps each, variants alternating, sampler %.0f Hz, %d CPUs"
          % (a.loop, a.reps, a.rate_hz, os.cpu_count()))
    print("load average (1 min) %.2f before, %.2f after: %s" % (
        load0, load1, "quiet" if max(load0, load1) < 0.5 * os.cpu_count() else "NOT quiet"))
    print("  no monitor              %8.3f ms" % (statistics.median(bare) * 1e3))
    for name, times, ratios in (("sampler on, no window", idle, r_idle),
                                ("inside an open window", inside, r_inside)):
        med, lo, hi = ratio_ci(ratios, rng)
        print("  %-22s  %8.3f ms  ratio %.4f [%.4f, %.4f]" % (
            name, statistics.median(times) * 1e3, med, lo, hi))
    print("  begin+end_window pair   %8.3f ms  (median; p90 %.3f ms), interference probe on"
          % (with_probe[0] * 1e3, with_probe[1] * 1e3))
    print("  begin+end_window pair   %8.3f ms  (median; p90 %.3f ms), interference=False"
          % (without[0] * 1e3, without[1] * 1e3))


if __name__ == "__main__":
    main()
