"""The monitor as a newcomer meets it (issue 35): the same power options as
the command line, windows judged from the first one on, and results that say
what they are (a cancelled window, a monitor without a sensor, a second
process writing the same configuration, the report's idle baseline).

Run as test_monitor.py is (PYTHONPATH=<build>/python, EDPBENCH_FIXTURES,
EDPBENCH_BINARY). Python 3.6 syntax (JetPack 4).
"""

import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest
import warnings

import edpbench

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.environ.get("EDPBENCH_FIXTURES", os.path.join(ROOT, "tests", "fixtures"))
# VDD_IN 7.5 W, VDD_SYS_GPU 2.5 W, one row every 10 ms, never changing.
CONSTANT_TRACE = os.path.join(FIXTURES, "cli", "constant_7w5.csv")
BINARY = os.environ.get("EDPBENCH_BINARY", "")


class FirstWindow(unittest.TestCase):
    def test_a_short_first_window_is_flagged_with_its_reason(self):
        # The one-liner printed False: the trace never changes, so no
        # interval had been observed, and the window was not judged by length.
        m = edpbench.Monitor(trace=CONSTANT_TRACE)
        self.assertEqual(m.source, "trace")  # the trace names its source
        w = m.window("a")
        with w:
            time.sleep(0.01)
        self.assertTrue(w.low_confidence)
        self.assertIn("sensor updates of 0.01 s (fewer than 10)", w.note)
        self.assertIn("open the window around more work", w.note)
        self.assertAlmostEqual(w.update_interval_s, 0.01)
        # Every later window is judged the same way.
        for _ in range(3):
            with m.window("b") as later:
                time.sleep(0.01)
            self.assertTrue(later.low_confidence)

    def test_trace_beside_another_source_is_an_error(self):
        with self.assertRaises(edpbench.Error) as e:
            edpbench.Monitor(source="rapl", trace=CONSTANT_TRACE)
        self.assertIn("leave out one of them", str(e.exception))

    def test_measure_idle_on_a_stated_interval_does_not_wait_5_s(self):
        # It waited 5 s for an interval to be observed on a constant trace,
        # although the trace states one (measure_idle(1) took ~7 s).
        m = edpbench.Monitor(trace=CONSTANT_TRACE, await_period_s=0)
        t0 = time.monotonic()
        idle = m.measure_idle(1)
        took = time.monotonic() - t0
        self.assertLess(idle["settle_s"], 1.0)
        self.assertLess(took, 3.5)
        self.assertAlmostEqual(idle["power_w"], 7.5)


class ResultsSayWhatTheyAre(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="edpbench-first-hour-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_a_cancelled_window_says_it_was_cancelled(self):
        m = edpbench.Monitor(trace=CONSTANT_TRACE, await_period_s=0)
        w = m.window("boom")
        with self.assertRaises(ValueError):
            with w:
                raise ValueError("inside")
        with self.assertRaises(AttributeError) as e:
            w.energy_j
        # It said "it is still open", which it is not.
        self.assertIn("cancelled: the with-block raised ValueError", str(e.exception))
        self.assertNotIn("still open", str(e.exception))
        self.assertEqual(m.open_windows(), [])
        self.assertIn("cancelled", repr(w))

    def test_a_monitor_without_a_sensor_says_so(self):
        # An empty root: no jetson, hwmon or rapl; nvml is skipped under a
        # re-rooted sysfs. It gave ok=True, energy_j=None in silence.
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            m = edpbench.Monitor(sysfs_root=self.dir, await_period_s=0)
        self.assertFalse(m.measures_energy)
        self.assertTrue(any("no power sensor found" in str(c.message) for c in caught))
        with m.window("w") as w:
            pass
        self.assertFalse(w.ok)
        self.assertIn("no power sensor was found", w.problem)
        self.assertIsNone(w.dict()["energy_j"])
        # Asking for no energy is not a warning, but still not "ok" energy.
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            none = edpbench.Monitor(source="none", await_period_s=0)
        self.assertEqual([c for c in caught if "edpbench" in str(c.message)], [])
        with none.window("w") as w:
            pass
        self.assertIn("source is none", w.problem)

    @unittest.skipUnless(BINARY, "EDPBENCH_BINARY is not set")
    def test_report_of_a_monitor_shows_one_idle_baseline_and_rounded_numbers(self):
        m = edpbench.Monitor(trace=CONSTANT_TRACE)
        m.measure_idle(0.5)
        for _ in range(2):
            with m.window("w") as w:
                time.sleep(0.1)
            m.record(w, "mine", "small", "cpu")
        m.write(self.dir)
        with open(os.path.join(self.dir, "context.json")) as f:
            ctx = json.load(f)
        # The baseline per rail, as `run` writes it (the report said "No idle
        # baseline power recorded" beside "Idle baseline, total 7.5 W").
        self.assertEqual(ctx["power"]["baseline_w"], {"VDD_IN": 7.5, "VDD_SYS_GPU": 2.5})
        self.assertEqual(ctx["power"]["update_interval_s"], 0.01)  # it wrote 0.0
        for key in ("duration_s", "settle_s", "start_unix_s"):
            value = ctx["monitor"]["idle_baseline"][key]
            self.assertEqual(value, round(value, 6), key)
        out = subprocess.run([BINARY, "report", self.dir], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        with open(os.path.join(self.dir, "report.html")) as f:
            page = f.read()
        self.assertNotIn("No idle baseline power recorded", page)
        self.assertIn("Idle baseline power per rail", page)


if __name__ == "__main__":
    unittest.main()
