#!/usr/bin/env python3
"""Error of a window's energy against a known answer, windows of 0.1 to 10 s
(docs/monitor.md). The simulated TX2 INA3221 of the tests (tests/power/
ina3221_sim.h through the test extension _edpbench_sim, built with the tests)
publishes the mean power of each averaging period like the ina3221x driver;
the load steps from idle to --run-w at the window's start and back just
before its end, at a random phase of the update period. Per window length:
the median and the largest |error| of the lag-corrected energy (what the
monitor reports) and of the energy as read (uncorrected), against the exact
integral of the true power over the window.

    PYTHONPATH=build/python python3 bench/monitor_window_error.py
"""
import argparse
import random
import statistics
import time

import edpbench
import _edpbench_sim


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--period-s", type=float, default=0.43, help="update period (TX2: ~0.43 s)")
    p.add_argument("--windows", default="0.1,0.3,1,3,10")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--idle-w", type=float, default=2.0)
    p.add_argument("--run-w", type=float, default=10.0)
    a = p.parse_args()
    sim = _edpbench_sim.Ina3221Sim(update_period_s=a.period_s, noise_w=0.01, idle_w=a.idle_w)
    mon = edpbench.Monitor(source="jetson", sysfs_root=sim.root, rate_hz=100)
    rng = random.Random(1)
    print("simulated INA3221, update period %.2f s, step %.0f -> %.0f W; %d windows each"
          % (a.period_s, a.idle_w, a.run_w, a.reps))
    print("%9s %12s %12s %14s %14s %8s %6s" % ("window_s", "corr_median", "corr_max",
                                               "uncorr_median", "uncorr_max", "lowconf", "wait_s"))
    for w_s in [float(x) for x in a.windows.split(",")]:
        corr, unc, low, waits = [], [], 0, []
        for _ in range(a.reps):
            sim.wait_phase("VDD_IN", rng.random())
            mon.begin_window("w")
            sim.set_power_w("VDD_IN", a.run_w)
            time.sleep(w_s)
            sim.set_power_w("VDD_IN", a.idle_w)
            t0 = time.monotonic()
            m = mon.end_window("w")
            waits.append(time.monotonic() - t0)
            true_j = sim.true_energy_j("VDD_IN", m.start_monotonic_s, m.end_monotonic_s)
            rail = [r for r in m.rails if r.rail == "VDD_IN"][0]
            corr.append(rail.energy_j / true_j - 1)
            unc.append(rail.energy_uncorrected_j / true_j - 1)
            low += m.low_confidence
            sim.wait_updates("VDD_IN", 3)  # settle on idle
        print("%9.2f %+11.2f%% %11.2f%% %+13.2f%% %13.2f%% %5d/%d %6.2f" % (
            w_s, 100 * statistics.median(corr), 100 * max(abs(e) for e in corr),
            100 * statistics.median(unc), 100 * max(abs(e) for e in unc), low, a.reps,
            statistics.median(waits)))


if __name__ == "__main__":
    main()
