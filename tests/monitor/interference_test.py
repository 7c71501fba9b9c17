"""Interference around the monitor's windows (DESIGN §3 "Interference").

A window is the engine's own window (bench::RunWindow), so it reads who had
the CPUs as `edpbench run` does: the measured threads' run-queue wait from
/proc/self/task/*/schedstat, others' CPU time from /proc/stat. The answers
here are known by construction: a loop pinned to one CPU beside a spinning
process pinned to the same CPU waits about half the time (CFS shares the CPU
equally between two runnable tasks); a sleeping thread is not counted.

Python 3.6 syntax (JetPack 4).
"""

import math
import os
import signal
import threading
import time
import unittest

import edpbench

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.environ.get("EDPBENCH_FIXTURES", os.path.join(ROOT, "tests", "fixtures"))
IDLE_TRACE = os.path.join(FIXTURES, "power", "traces", "tx2_idle.csv")

HAVE_SCHEDSTAT = os.path.exists("/proc/self/schedstat")


def spin(seconds):
    t0 = time.monotonic()
    x = 0
    while time.monotonic() - t0 < seconds:
        x += 1
    return x


def start_spinner(cpu):
    """A process that spins on `cpu` until killed. Forked rather than started
    with sys.executable: under qemu-user (the cross build runs these tests
    with the target's Python there) an emulated process cannot exec another
    target binary without binfmt_misc."""
    pid = os.fork()
    if pid == 0:  # the child only spins; it never returns into the tests
        try:
            os.sched_setaffinity(0, {cpu})
            while True:
                pass
        finally:
            os._exit(0)
    return pid


def spin_until_run(min_s, share=0.2, limit_s=10.0):
    """Spins at least min_s, until this (the main) thread has run `share` of
    the time spun: a thread is counted when it ran a tenth of the window, and
    how much of a CPU it gets is the scheduler's (a busy machine gave it less
    than that in 0.5 s). Gives up after limit_s; returns the share it ran."""
    path = "/proc/self/task/%d/schedstat" % os.getpid()

    def run_s():
        with open(path) as f:
            return int(f.read().split()[0]) * 1e-9

    t0 = time.monotonic()
    r0 = run_s()
    while True:
        spin(0.05)
        elapsed = time.monotonic() - t0
        ran = (run_s() - r0) / elapsed
        if (elapsed >= min_s and ran >= share) or elapsed >= limit_s:
            return ran


def thread_run_ns():
    """{tid: run time in ns} of this process's threads (schedstat field 1)."""
    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open("/proc/self/task/%s/schedstat" % tid) as f:
                out[tid] = int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return out


def wait_until_other_threads_rest(limit_s=3.0):
    """Waits until no thread but this one runs over 2 ms in 100 ms: a
    framework's pool threads (OpenMP, OpenBLAS) spin a while after their
    last work before they sleep, and would be counted as busy."""
    me = str(threading.get_native_id()) if hasattr(threading, "get_native_id") else None
    t_end = time.monotonic() + limit_s
    while time.monotonic() < t_end:
        a = thread_run_ns()
        time.sleep(0.1)
        b = thread_run_ns()
        if all(b[t] - a.get(t, 0) < 2000000 for t in b if t != me):
            return


def monitor(**kw):
    return edpbench.Monitor(source="trace", trace=IDLE_TRACE, **kw)


@unittest.skipUnless(HAVE_SCHEDSTAT, "this kernel has no schedstat (CONFIG_SCHEDSTATS/SCHED_INFO)")
class Interference(unittest.TestCase):
    def setUp(self):
        self.affinity = os.sched_getaffinity(0)

    def tearDown(self):
        os.sched_setaffinity(0, self.affinity)

    def test_a_spinner_on_the_same_cpu_makes_the_window_disturbed(self):
        cpu = min(self.affinity)
        os.sched_setaffinity(0, {cpu})
        spinner = start_spinner(cpu)
        try:
            time.sleep(0.2)  # the spinner is running
            mon = monitor(threads=1)
            with mon.window("crowded") as w:
                spin(1.0)
        finally:
            os.kill(spinner, signal.SIGKILL)
            os.waitpid(spinner, 0)
        m = w.measurement
        # Two runnable tasks on one CPU: each waits about half the time.
        self.assertGreater(m.preempted_share, 0.3, m.dict())
        self.assertLess(m.cpu_share, 0.7, m.dict())
        self.assertEqual(m.threads, 1)
        self.assertTrue(m.disturbed, m.dict())
        self.assertIn("disturbed", m.note)
        self.assertTrue(m.dict()["disturbed"])
        # The energy is still reported: disturbed is evidence, not a failure.
        self.assertTrue(m.ok)
        self.assertGreater(m.energy_j, 0)

    def test_counted_threads_leave_a_sleeping_thread_out(self):
        stop = threading.Event()
        sleeper = threading.Thread(target=lambda: stop.wait(60))
        sleeper.start()
        try:
            mon = monitor()  # threads=0: count those that ran 10% of the window
            wait_until_other_threads_rest()
            with mon.window("alone") as w:
                ran = spin_until_run(0.5)
        finally:
            stop.set()
            sleeper.join()
        m = w.measurement
        if ran < 0.12:
            self.skipTest("not judged: this machine was so busy that the loop ran only "
                          "%.0f%% of the window" % (100 * ran))
        self.assertEqual(m.threads, 1, m.dict())
        # The loop ran (or, on a busy machine, waited) for the whole window.
        self.assertGreater(m.cpu_share + m.preempted_share, 0.8, m.dict())

    def test_interference_off_reads_nothing(self):
        mon = monitor(interference=False)
        with mon.window("off") as w:
            spin(0.1)
        m = w.measurement
        self.assertTrue(math.isnan(m.cpu_share))
        self.assertTrue(math.isnan(m.preempted_share))
        self.assertTrue(math.isnan(m.others_cpu_share))
        self.assertEqual(m.threads, 0)
        self.assertFalse(m.disturbed)


if __name__ == "__main__":
    unittest.main()
