#!/usr/bin/env python3
"""The cost of `edpbench exporter` (docs/observability.md, issue 36).

For each scrape rate (0, 1 and 10 scrapes a second by default) it starts the
exporter on a trace at --rate-hz, scrapes /metrics at that rate for
--seconds, and reads back: the exporter process's CPU time (utime + stime
from /proc/PID/stat), the sampler thread's own CPU time and its missed
deadlines (from the exporter's last /metrics), and the scrapes' wall time.
CPU time per scrape is (process CPU - sampler CPU) at that rate, less the
same at 0 scrapes, over the scrape count: what serving costs beyond sampling
(HTTP included); the exporter's own edpbench_exporter_scrape_cpu_seconds_total
over edpbench_exporter_scrapes_total is the part spent building the text.

usage: bench/exporter_overhead.py EDPBENCH TRACE [--seconds 20] [--rate-hz 100]
                                  [--rates 0,1,10]
The host is whatever it is: report the load average printed with the table.
"""
import argparse
import os
import re
import subprocess
import sys
import time
import urllib.request


def proc_cpu_s(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime


def metric(text, name):
    m = re.search(r"^" + re.escape(name) + r" (\S+)$", text, re.M)
    return float(m.group(1)) if m else float("nan")


def one(edpbench, trace, seconds, rate_hz, scrapes_per_s):
    proc = subprocess.Popen(
        [edpbench, "exporter", "--listen", "127.0.0.1:0", "--trace", trace,
         "--rate-hz", str(rate_hz), "--duration-s", str(seconds + 30)],
        stderr=subprocess.PIPE, text=True)
    port = None
    for line in proc.stderr:
        m = re.match(r"edpbench: exporter: serving http://127.0.0.1:(\d+)/metrics", line)
        if m:
            port = int(m.group(1))
            break
    if port is None:
        proc.kill()
        sys.exit("the exporter did not start")
    url = f"http://127.0.0.1:{port}/metrics"
    start = time.monotonic()
    walls = []
    n = 0
    if scrapes_per_s > 0:
        period = 1.0 / scrapes_per_s
        next_t = start
        while time.monotonic() - start < seconds:
            next_t += period
            t0 = time.monotonic()
            urllib.request.urlopen(url, timeout=5).read()
            walls.append(time.monotonic() - t0)
            n += 1
            time.sleep(max(0.0, next_t - time.monotonic()))
    else:
        time.sleep(seconds)
    cpu_before_last = proc_cpu_s(proc.pid)
    last = urllib.request.urlopen(url, timeout=5).read().decode()
    proc.terminate()
    proc.wait()
    sampler_cpu = metric(last, "edpbench_sampler_cpu_seconds_total")
    return {
        "rate": scrapes_per_s, "scrapes": n, "process_cpu_s": cpu_before_last,
        "sampler_cpu_s": sampler_cpu,
        "ticks": metric(last, "edpbench_sampler_ticks_total"),
        "build_cpu_s": metric(last, "edpbench_exporter_scrape_cpu_seconds_total"),
        "served": metric(last, "edpbench_exporter_scrapes_total"),
        "missed": metric(last, "edpbench_sampler_missed_deadlines_total"),
        "wall_ms": 1000 * sorted(walls)[len(walls) // 2] if walls else float("nan"),
        "bytes": len(last.encode()),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("edpbench")
    ap.add_argument("trace")
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--rate-hz", type=float, default=100)
    ap.add_argument("--rates", default="0,1,10")
    a = ap.parse_args()
    rows = [one(a.edpbench, a.trace, a.seconds, a.rate_hz, float(r)) for r in a.rates.split(",")]
    base = rows[0]
    print(f"load average before/after: see below; {a.seconds:g} s per rate, sampler at "
          f"{a.rate_hz:g} Hz, /metrics of {base['bytes']} bytes")
    print("| scrapes/s | scrapes | process CPU s | sampler CPU s | serving CPU per scrape (ms) "
          "| building /metrics CPU per scrape (ms) | median scrape wall (ms) | sampler ticks "
          "| missed deadlines |")
    print("|---|---|---|---|---|---|---|---|---|")
    base_other = base["process_cpu_s"] - base["sampler_cpu_s"]
    for r in rows:
        other = r["process_cpu_s"] - r["sampler_cpu_s"]
        per = (1000 * (other - base_other) / r["scrapes"]) if r["scrapes"] else float("nan")
        build = 1000 * r["build_cpu_s"] / r["served"] if r["served"] else float("nan")
        print(f"| {r['rate']:g} | {r['scrapes']} | {r['process_cpu_s']:.2f} | "
              f"{r['sampler_cpu_s']:.2f} | {per:.2f} | {build:.3f} | {r['wall_ms']:.2f} | "
              f"{r['ticks']:.0f} | {r['missed']:.0f} |")
    print("load average:", " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
