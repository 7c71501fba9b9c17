// edpbench._edpbench: the pybind11 binding of include/edpbench/monitor.h.
// python/edpbench/__init__.py builds the user-facing API on it.
//
// The GIL is released in every call that can block (opening the monitor,
// which may wait for the sensor's update interval; begin_window, which takes
// the sampler's lock; end_window, which waits for the lag tail; measure_idle),
// so other Python threads run meanwhile. The sampler is a C++ thread that
// never calls into Python.
//
// Only pybind11 features of 2.2 and later are used (PYBIND11_MODULE,
// py::init with a factory, gil_scoped_release, register_exception), so the
// module builds with the pybind11 of Ubuntu 20.04 (2.4), 22.04 (2.9) and
// Debian 12 (2.10).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <string>

#include "edpbench/monitor.h"

namespace py = pybind11;
using edpbench::IdleResult;
using edpbench::Monitor;
using edpbench::MonitorOptions;
using edpbench::RailResult;
using edpbench::RunLabel;
using edpbench::WindowResult;

namespace {

// NaN becomes None in dict(): "not measured" is not a number.
py::object num(double v) {
  return std::isnan(v) ? py::object(py::none()) : py::object(py::float_(v));
}

py::dict rail_dict(const RailResult& r) {
  py::dict d;
  d["rail"] = r.rail;
  d["sensor"] = r.sensor;
  d["total"] = r.total;
  d["energy_j"] = num(r.energy_j);
  d["energy_uncorrected_j"] = num(r.energy_uncorrected_j);
  d["power_w_mean"] = num(r.power_w_mean);
  d["update_interval_s"] = r.update_interval_s;
  d["lag_correction_s"] = r.lag_correction_s;
  d["frozen"] = r.frozen;
  d["samples"] = r.samples;
  d["distinct_values"] = r.distinct_values;
  d["read_failures"] = r.read_failures;
  return d;
}

py::object field_value(double v, bool measured) { return measured ? num(v) : py::float_(v); }
py::object field_value(std::uint64_t v, bool) { return py::int_(v); }
py::object field_value(bool v, bool) { return py::bool_(v); }
py::object field_value(const std::string& v, bool) { return py::str(v); }

// The window's fields (edpbench/window_fields.h; a measured one that is NaN
// is None), then its name, the energy per rail, the threads, ok and problem.
// The window's power over time: {"spacing_s", "t_s": [...], "power_w":
// {rail: [...]}, "corrected_power_w": {rail: [...]}}, None for NaN; empty
// lists when the monitor keeps no timeline.
py::dict timeline_dict(const edpbench::Timeline& t) {
  py::dict d;
  d["spacing_s"] = t.spacing_s;
  py::list times;
  for (double v : t.t_s) times.append(v);
  d["t_s"] = times;
  py::dict raw, corrected;
  for (size_t r = 0; r < t.rails.size(); ++r) {
    py::list a, b;
    for (double v : t.power_w[r]) a.append(num(v));
    for (double v : t.corrected_power_w[r]) b.append(num(v));
    raw[py::str(t.rails[r])] = a;
    corrected[py::str(t.rails[r])] = b;
  }
  d["power_w"] = raw;
  d["corrected_power_w"] = corrected;
  return d;
}

py::dict window_dict(const WindowResult& w) {
  py::dict d;
  d["name"] = w.name;
#define EDP_DICT_FIELD(type, field, initial, kind) \
  d[#field] = field_value(w.field, std::string(#kind) == "measured");
  EDPBENCH_WINDOW_FIELDS(EDP_DICT_FIELD)
#undef EDP_DICT_FIELD
  py::dict per_rail;
  for (const auto& r : w.rails) per_rail[py::str(r.rail)] = num(r.energy_j);
  d["energy_j_per_rail"] = per_rail;
  d["threads"] = w.threads;
  d["ok"] = w.ok();
  d["problem"] = w.problem;
  py::list rails;
  for (const auto& r : w.rails) rails.append(rail_dict(r));
  d["rails"] = rails;
  return d;
}

}  // namespace

PYBIND11_MODULE(_edpbench, m) {
  m.doc() = "edpbench monitor (C++ core); use the package edpbench";
  py::register_exception<edpbench::Error>(m, "Error");
  m.def("version", &edpbench::version);

  py::class_<RailResult>(m, "RailMeasurement")
      .def_readonly("rail", &RailResult::rail)
      .def_readonly("sensor", &RailResult::sensor)
      .def_readonly("total", &RailResult::total)
      .def_readonly("energy_j", &RailResult::energy_j)
      .def_readonly("energy_uncorrected_j", &RailResult::energy_uncorrected_j)
      .def_readonly("power_w_mean", &RailResult::power_w_mean)
      .def_readonly("update_interval_s", &RailResult::update_interval_s)
      .def_readonly("lag_correction_s", &RailResult::lag_correction_s)
      .def_readonly("frozen", &RailResult::frozen)
      .def_readonly("samples", &RailResult::samples)
      .def_readonly("distinct_values", &RailResult::distinct_values)
      .def_readonly("read_failures", &RailResult::read_failures)
      .def("dict", &rail_dict)
      .def("__repr__", [](const RailResult& r) {
        return "<RailMeasurement " + r.rail + " " + std::to_string(r.energy_j) + " J>";
      });

  py::class_<WindowResult> measurement(m, "Measurement");
  // The window's fields as attributes (edpbench/window_fields.h).
#define EDP_ATTRIBUTE(type, field, initial, kind) \
  measurement.def_readonly(#field, &WindowResult::field);
  EDPBENCH_WINDOW_FIELDS(EDP_ATTRIBUTE)
#undef EDP_ATTRIBUTE
  measurement.def_readonly("name", &WindowResult::name)
      .def_readonly("rails", &WindowResult::rails)
      .def_property_readonly("energy_j_per_rail",
                             [](const WindowResult& w) {
                               py::dict d;
                               for (const auto& r : w.rails) d[py::str(r.rail)] = r.energy_j;
                               return d;
                             })
      .def_readonly("threads", &WindowResult::threads)
      .def_readonly("problem", &WindowResult::problem)
      .def_property_readonly("ok", &WindowResult::ok)
      .def_property_readonly("timeline",
                             [](const WindowResult& w) { return timeline_dict(w.timeline); })
      .def("dict", &window_dict)
      .def("__repr__", [](const WindowResult& w) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "<Measurement %s: %.6g s, %.6g J%s>", w.name.c_str(),
                      w.time_s, w.energy_j, w.low_confidence ? ", low confidence" : "");
        return std::string(buf);
      });

  py::class_<Monitor>(m, "Monitor")
      .def(py::init([](const std::string& source, const std::vector<std::string>& total_rails,
                       double rate_hz, const std::string& sysfs_root, const std::string& trace_file,
                       bool trace_loop, int sampler_cpu, double await_period_s, bool interference,
                       int threads, const std::string& ina226_bus, int ina226_address,
                       double ina226_shunt_ohm, double ina226_max_current_a, int ina226_averages,
                       int ina226_conversion_us, bool ina226_poll_ready, bool ina226_force,
                       bool timeline, double timeline_hz) {
             MonitorOptions o;
             o.source = source;
             o.total_rails = total_rails;
             o.rate_hz = rate_hz;
             o.sysfs_root = sysfs_root;
             o.trace_file = trace_file;
             o.trace_loop = trace_loop;
             o.sampler_cpu = sampler_cpu;
             o.await_period_s = await_period_s;
             o.interference = interference;
             o.threads = threads;
             o.ina226_bus = ina226_bus;
             o.ina226_address = ina226_address;
             o.ina226_shunt_ohm = ina226_shunt_ohm;
             o.ina226_max_current_a = ina226_max_current_a;
             o.ina226_averages = ina226_averages;
             o.ina226_conversion_us = ina226_conversion_us;
             o.ina226_poll_ready = ina226_poll_ready;
             o.ina226_force = ina226_force;
             o.timeline = timeline;
             o.timeline_hz = timeline_hz;
             py::gil_scoped_release release;
             return std::unique_ptr<Monitor>(new Monitor(o));
           }),
           py::arg("source"), py::arg("total_rails"), py::arg("rate_hz"), py::arg("sysfs_root"),
           py::arg("trace_file"), py::arg("trace_loop"), py::arg("sampler_cpu"),
           py::arg("await_period_s"), py::arg("interference"), py::arg("threads"),
           py::arg("ina226_bus") = MonitorOptions().ina226_bus,
           py::arg("ina226_address") = MonitorOptions().ina226_address,
           py::arg("ina226_shunt_ohm") = MonitorOptions().ina226_shunt_ohm,
           py::arg("ina226_max_current_a") = MonitorOptions().ina226_max_current_a,
           py::arg("ina226_averages") = MonitorOptions().ina226_averages,
           py::arg("ina226_conversion_us") = MonitorOptions().ina226_conversion_us,
           py::arg("ina226_poll_ready") = MonitorOptions().ina226_poll_ready,
           py::arg("ina226_force") = MonitorOptions().ina226_force,
           py::arg("timeline") = MonitorOptions().timeline,
           py::arg("timeline_hz") = MonitorOptions().timeline_hz)
      .def("begin_window",
           [](Monitor& mon, const std::string& name) {
             py::gil_scoped_release release;
             mon.begin_window(name);
           })
      .def("end_window",
           [](Monitor& mon, const std::string& name) {
             py::gil_scoped_release release;
             return mon.end_window(name);
           })
      .def("cancel_window",
           [](Monitor& mon, const std::string& name) {
             py::gil_scoped_release release;  // may wait for the sampler's lock
             mon.cancel_window(name);
           })
      .def("open_windows", &Monitor::open_windows)
      .def("measure_idle",
           [](Monitor& mon, double seconds) {
             IdleResult r;
             {
               py::gil_scoped_release release;
               r = mon.measure_idle(seconds);
             }
             py::dict d;
             d["power_w"] = num(r.power_w);
             d["rails_w"] = r.rails_w;
             d["duration_s"] = r.duration_s;
             d["settle_s"] = r.settle_s;
             d["start_unix_s"] = r.start_unix_s;
             return d;
           })
      .def("source", &Monitor::source)
      .def("rails", &Monitor::rails)
      .def("total_rails", &Monitor::total_rails)
      .def("total_rails_why", &Monitor::total_rails_why)
      .def("discovery_log", &Monitor::discovery_log)
      .def("measures_energy", &Monitor::measures_energy)
      .def("update_interval_s", &Monitor::update_interval_s)
      .def("record",
           [](Monitor& mon, const WindowResult& w, const std::string& workload,
              const std::string& size, const std::string& device, int iterations, double final_loss,
              long long n, long long d_in, long long h, long long d_out, int threads) {
             RunLabel l;
             l.workload = workload;
             l.size = size;
             l.device = device;
             l.iterations = iterations;
             l.final_loss = final_loss;
             l.n = n;
             l.d_in = d_in;
             l.h = h;
             l.d_out = d_out;
             l.threads = threads;
             mon.record(l, w);
           })
      .def("write", [](const Monitor& mon, const std::string& dir) {
        py::gil_scoped_release release;
        mon.write(dir);
      });
}
