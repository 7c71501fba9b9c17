// A program that uses only the installed header <edpbench/monitor.h>: with
// the trace source (a constant 4.5 W on VDD_IN, 1.2 W on VDD_SYS_GPU) the
// energy of every window is known. Exits 0 when each answer is right, 1
// with the reason otherwise. usage: consumer TRACE.csv OUT_DIR
#include <edpbench/monitor.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAIL", what.c_str());
  if (!ok) ++failures;
}

void sleep_s(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: consumer TRACE.csv OUT_DIR\n");
    return 2;
  }
  edpbench::MonitorOptions o;
  o.source = "trace";
  o.trace_file = argv[1];
  edpbench::Monitor mon(o);
  std::printf("%s, source %s, %s\n", edpbench::version().c_str(), mon.source().c_str(),
              mon.total_rails_why().c_str());
  for (const auto& line : mon.discovery_log()) std::printf("  %s\n", line.c_str());
  check(mon.total_rails().size() == 1 && mon.total_rails()[0] == "VDD_IN", "total rail VDD_IN");

  mon.begin_window("outer");
  mon.begin_window("inner");
  sleep_s(0.2);
  bool refused = false;
  try {
    mon.begin_window("inner");
  } catch (const edpbench::Error& e) {
    refused = std::string(e.what()).find("already open") != std::string::npos;
  }
  check(refused, "a reused open name is an error");
  const edpbench::WindowResult inner = mon.end_window("inner");
  sleep_s(0.1);
  const edpbench::WindowResult outer = mon.end_window("outer");
  for (const auto* w : {&inner, &outer}) {
    std::printf("%s: %.4f s, %.4f J, %.3f W, update interval %g s, low confidence %d\n",
                w->name.c_str(), w->time_s, w->energy_j, w->power_w_mean, w->update_interval_s,
                w->low_confidence);
    check(w->ok() && std::fabs(w->energy_j / (4.5 * w->time_s) - 1) < 0.02,
          w->name + ": energy = 4.5 W x time within 2%");
  }
  check(outer.time_s > inner.time_s + 0.05, "outer window spans inner");
  bool gpu_rail = false;
  for (const auto& r : inner.rails)
    if (r.rail == "VDD_SYS_GPU")
      gpu_rail = !r.total && std::fabs(r.energy_j / (1.2 * inner.time_s) - 1) < 0.02;
  check(gpu_rail, "VDD_SYS_GPU measured, not in the total");

  edpbench::RunLabel label;
  label.workload = "consumer";
  label.size = "small";
  label.device = "cpu";
  mon.record(label, inner);
  mon.write(argv[2]);
  std::FILE* f = std::fopen((std::string(argv[2]) + "/results.csv").c_str(), "r");
  check(f != nullptr, "results.csv written");
  if (f) std::fclose(f);
  return failures ? 1 : 0;
}
