"""Energy windows in your own Python code, measured like ``edpbench run``.

    import edpbench
    mon = edpbench.Monitor()                 # power.source auto
    mon.measure_idle(5)                      # optional: dynamic energy
    with mon.window("epoch") as w:
        train_one_epoch()
    print(w.time_s, w.energy_j, w.low_confidence)

The sampler, the lag correction of averaging sensors (Jetson INA3221) and the
judgement of each window are the C++ ones of edpbench (DESIGN sections 3, 4
and 11). Closing a window waits for the sensor's updates that cover its end
(up to about two update intervals, ~0.8 s on a TX2); the GIL is released
meanwhile. Python 3.6 or later.
"""

try:
    from ._edpbench import Error, Measurement, RailMeasurement, version
    from ._edpbench import Monitor as _CoreMonitor
except ImportError as _e:
    # A module built for another Python (cross builds: the target's Python)
    # is not found by name: say which one was built and for whom.
    import glob as _glob
    import os as _os
    import sys as _sys
    _found = sorted(_os.path.basename(p) for p in
                    _glob.glob(_os.path.join(_os.path.dirname(__file__), "_edpbench*")))
    if not _found or getattr(_e, "name", "") != __name__ + "._edpbench":
        raise
    raise ImportError(
        "edpbench: the extension in %s is %s, built for another Python; this is Python "
        "%d.%d (%s). Rebuild edpbench for this Python (-DPYTHON_EXECUTABLE=..., or for a "
        "board's Python a cross build against its root file system: docs/monitor.md)"
        % (_os.path.dirname(__file__), ", ".join(_found), _sys.version_info[0],
           _sys.version_info[1], _sys.executable)) from _e

__all__ = ["Monitor", "Measurement", "RailMeasurement", "Error", "version"]


def _torch_sync():
    """torch.cuda.synchronize() when torch is imported and CUDA is in use."""
    import sys

    torch = sys.modules.get("torch")
    if torch is None:
        try:
            import torch  # noqa: F811  (lazy: no hard dependency)
        except ImportError:
            return
    cuda = getattr(torch, "cuda", None)
    if cuda is None or not cuda.is_available():
        return
    initialized = getattr(cuda, "is_initialized", None)
    if initialized is not None and not initialized():
        return  # nothing was ever queued on a GPU
    cuda.synchronize()


def _sync_function(sync):
    if sync is None:
        return None
    if callable(sync):
        return sync
    if sync == "torch":
        return _torch_sync
    raise ValueError("sync must be None, 'torch' or a callable, not %r" % (sync,))


class Window(object):
    """A window opened by Monitor.window(); after the with-block it carries
    the Measurement's attributes (w.energy_j, w.dict(), ...)."""

    def __init__(self, monitor, name):
        self._monitor = monitor
        self.name = name
        self.measurement = None
        self._state = "not opened yet"

    def __enter__(self):
        self._monitor.begin_window(self.name)
        self._state = "still open"
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            # The block failed: no result; the window does not stay open.
            self._state = "cancelled: the with-block raised %s" % (exc_type.__name__,)
            try:
                self._monitor.cancel_window(self.name)
            except Error:
                pass
            return False
        self.measurement = self._monitor.end_window(self.name)
        return False

    def _why_none(self):
        return "window %r has no result: it is %s" % (self.__dict__.get("name"),
                                                      self.__dict__.get("_state"))

    def __getattr__(self, attr):
        measurement = self.__dict__.get("measurement")
        if measurement is None:
            raise AttributeError("%s (asked for %s)" % (self._why_none(), attr))
        return getattr(measurement, attr)

    def __repr__(self):
        if self.measurement is None:
            return "<Window %s: %s>" % (self.name, self._state)
        return repr(self.measurement)

    def dict(self):
        if self.measurement is None:
            raise Error(self._why_none())
        return self.measurement.dict()


# The config's power.ina226 keys and their types (Monitor(ina226={...})).
_INA226_KEYS = {"bus": str, "address": int, "shunt_ohm": float, "max_current_a": float,
                "averages": int, "conversion_us": int, "poll_ready": bool, "force": bool}


class Monitor(object):
    """A monitor over the board's power sensors.

    source       auto | jetson | ina226 | hwmon | rapl | nvml | trace | none
                 (the command line's --power-source)
    total_rails  None (auto, as ``edpbench run`` chooses) or a list of rails
                 (--total-rails)
    rate_hz      sampler rate, 1 to 10000 (--rate-hz)
    sysfs_root   re-roots every /sys and /dev path (tests, containers; --sysfs-root)
    trace        a CSV t_s,<rail>_w,... to replay; implies source "trace" (--trace)
    sync         None, "torch" (torch.cuda.synchronize() before each window
                 edge when CUDA is in use) or a callable
    interference read who had the CPUs around each window (schedstat and
                 /proc/stat, outside the window): cpu_share, preempted_share,
                 others_cpu_share and ``disturbed``, as ``edpbench run`` does
    threads      the threads the measured code runs, for the shares; 0 =
                 count the threads that wanted a CPU for 10% of the window
    ina226       for source ina226, a dict of the config's power.ina226 keys
                 (bus, address, shunt_ohm, max_current_a, averages,
                 conversion_us, poll_ready, force); the rest at their defaults
    timeline     keep each window's power over time: Measurement.timeline is
                 {"t_s": [...], "power_w": {rail: [...]}, "corrected_power_w":
                 {rail: [...]}, "spacing_s": s}, and write() adds samples.csv
    timeline_hz  its points a second (1 to 1000; a window keeps 2048 at most)

    The options are checked as a config's power: section is (same ranges,
    same messages): an out-of-range rate_hz raises Error.
    """

    def __init__(self, source="auto", total_rails=None, rate_hz=100.0, sysfs_root="",
                 trace=None, trace_loop=True, sampler_cpu=-1, await_period_s=5.0, sync=None,
                 interference=True, threads=0, ina226=None, timeline=False, timeline_hz=20.0):
        self._sync = _sync_function(sync)
        extra = {}
        for key, value in (ina226 or {}).items():
            if key not in _INA226_KEYS:
                raise ValueError("ina226: unknown key %r (valid: %s)"
                                 % (key, ", ".join(sorted(_INA226_KEYS))))
            extra["ina226_" + key] = _INA226_KEYS[key](value)
        self._core = _CoreMonitor(
            str(source), list(total_rails or []), float(rate_hz), str(sysfs_root or ""),
            str(trace or ""), bool(trace_loop), int(sampler_cpu), float(await_period_s),
            bool(interference), int(threads), timeline=bool(timeline),
            timeline_hz=float(timeline_hz), **extra)
        if not self._core.measures_energy() and str(source) != "none":
            # Energy would otherwise be None in every window, in silence.
            import warnings
            warnings.warn("edpbench: no power sensor found, windows measure time only (their "
                          "problem says so; see Monitor.discovery_log). For a dry run without "
                          "a sensor, pass trace='power.csv'.", RuntimeWarning, stacklevel=2)

    # -- windows -----------------------------------------------------------
    def begin_window(self, name):
        if self._sync is not None:
            self._sync()
        self._core.begin_window(str(name))

    def end_window(self, name):
        if self._sync is not None:
            try:
                self._sync()
            except BaseException:
                # The work it waited for failed (an asynchronous CUDA error
                # surfaces here): no result, and the window does not stay open.
                try:
                    self._core.cancel_window(str(name))
                except Error:
                    pass
                raise
        return self._core.end_window(str(name))

    def cancel_window(self, name):
        self._core.cancel_window(str(name))

    def window(self, name):
        """Context manager: ``with mon.window("epoch") as w: ...``."""
        return Window(self, str(name))

    def open_windows(self):
        return self._core.open_windows()

    def measure_idle(self, seconds):
        """Idle power of the total rails over `seconds` after settling; later
        windows report dynamic_energy_j over it. Returns a dict.

        Settling waits three of the sensor's update intervals, at least
        0.5 s; when no interval is observed or stated yet, up to 5 s for one
        to appear. The dict's settle_s says how long it waited."""
        return self._core.measure_idle(float(seconds))

    # -- what "energy" is here ----------------------------------------------
    @property
    def source(self):
        return self._core.source()

    @property
    def rails(self):
        return self._core.rails()

    @property
    def total_rails(self):
        return self._core.total_rails()

    @property
    def total_rails_why(self):
        return self._core.total_rails_why()

    @property
    def discovery_log(self):
        return self._core.discovery_log()

    @property
    def measures_energy(self):
        return self._core.measures_energy()

    @property
    def update_interval_s(self):
        return self._core.update_interval_s()

    # -- edpbench's own files ------------------------------------------------
    def record(self, measurement, workload, size, device, iterations=1, final_loss=None,
               n=0, d_in=0, h=0, d_out=0, threads=0):
        """Keeps a window's Measurement (or a closed Window) as one run of
        (workload, size, device) for write()."""
        if isinstance(measurement, Window):
            measurement = measurement.measurement
        if not isinstance(measurement, Measurement):
            raise TypeError("record() needs a Measurement or a closed Window")
        loss = float("nan") if final_loss is None else float(final_loss)
        self._core.record(measurement, str(workload), str(size), str(device), int(iterations),
                          loss, int(n), int(d_in), int(h), int(d_out), int(threads))

    def write(self, directory):
        """Writes results.csv, runs.csv, rails.csv and context.json into
        `directory`, keeping rows of other configurations already there.
        Writing again replaces this monitor's own earlier rows; rows of the
        same (workload, size, device) that another monitor wrote (another
        process) are never replaced: write() raises Error and writes
        nothing."""
        self._core.write(str(directory))
