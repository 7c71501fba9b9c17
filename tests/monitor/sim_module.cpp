// Test-only Python binding of the simulated TX2 INA3221 (tests/power/
// ina3221_sim.h), so the Python module's tests get the same known answers as
// the C++ power tests: a sysfs tree written like the ina3221x driver's, a
// chip thread publishing averaged values, and the exact true energy.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>

#include "power/clock.h"
#include "power/ina3221_sim.h"

namespace py = pybind11;
using edp::testing::Ina3221Sim;
using edp::testing::Ina3221SimOptions;

PYBIND11_MODULE(_edpbench_sim, m) {
  m.def("now_s", &edp::power::now_s, "steady_clock seconds (the monitor's monotonic clock)");
  py::class_<Ina3221Sim>(m, "Ina3221Sim")
      .def(py::init([](double update_period_s, double noise_w, double idle_w, unsigned seed) {
             Ina3221SimOptions o;
             o.update_period_s = update_period_s;
             o.noise_w = noise_w;
             o.idle_w = idle_w;
             o.seed = seed;
             return std::unique_ptr<Ina3221Sim>(new Ina3221Sim(o));
           }),
           py::arg("update_period_s") = 0.43, py::arg("noise_w") = 0.01, py::arg("idle_w") = 2.0,
           py::arg("seed") = 1u)
      .def_property_readonly("root", &Ina3221Sim::root)
      .def("set_power_w", &Ina3221Sim::set_power_w)
      .def("freeze", &Ina3221Sim::freeze, py::arg("rail"), py::arg("frozen") = true)
      .def("true_energy_j", &Ina3221Sim::true_energy_j)
      .def("wait_updates",
           [](const Ina3221Sim& s, const std::string& rail, size_t n) {
             py::gil_scoped_release release;
             s.wait_updates(rail, n);
           })
      .def("wait_phase", [](const Ina3221Sim& s, const std::string& rail, double phase) {
        py::gil_scoped_release release;
        return s.wait_phase(rail, phase);
      });
}
