// The monitor (include/edpbench/monitor.h): a client of the engine, like
// `run` and `measure`. Discovery, sampler, lag correction: power::EnergyMeter.
// Total rails: power::choose_total_rails with bench::rail_roles of the board
// the platform names, as `run` does. A window is bench::RunWindow, the
// window `run`'s protocol measures each run in: the same clock, energy,
// evidence, interference probe and judgement. Nothing here integrates or
// judges on its own.
#include "edpbench/monitor.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <set>
#include <utility>

#include "bench/board_rails.h"
#include "bench/window.h"
#include "common/errors.h"
#include "edpbench/config.h"
#include "monitor/monitor_impl.h"
#include "platform/board.h"
#include "platform/cpu_list.h"
#include "power/total_rails.h"

namespace edpbench {

namespace {

edp::power::PowerOptions power_options(const MonitorOptions& o) {
  if (!(o.rate_hz > 0 && o.rate_hz <= 10000))
    throw Error("rate_hz must be in (0, 10000], got " + std::to_string(o.rate_hz));
  if (!(o.await_period_s >= 0))
    throw Error("await_period_s must not be negative, got " + std::to_string(o.await_period_s));
  edp::power::PowerOptions p;
  p.source = o.source;
  p.sysfs_root = o.sysfs_root;
  p.rate_hz = o.rate_hz;
  p.sampler_cpu = o.sampler_cpu;
  p.trace_file = o.trace_file;
  p.trace_loop = o.trace_loop;
  return p;
}

// Runs `f`, turning the engine's exceptions into edpbench::Error (the public
// header exposes no internal type).
template <class F>
auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(e.what());
  }
}

WindowResult to_result(const std::string& name, const edp::power::Measurement& m,
                       const edp::report::RunRecord& r, const std::string& problem,
                       const std::vector<std::string>& total, double baseline_w) {
  WindowResult w;
  w.name = name;
  w.time_s = r.time_s;
  w.energy_j = r.energy_j;
  w.power_w_mean = r.power_w_mean;
  w.dynamic_energy_j = r.dynamic_energy_j;
  w.baseline_w = baseline_w;
  w.edp_js = r.edp_js;
  for (const auto& rail : m.rails) {
    RailResult x;
    x.rail = rail.rail;
    x.sensor = rail.sensor;
    x.energy_j = rail.energy_j;
    x.energy_uncorrected_j = rail.energy_uncorrected_j;
    x.power_w_mean = rail.power_w_mean;
    x.update_interval_s = rail.update_interval_s;
    x.lag_correction_s = rail.lag_correction_s;
    x.total = std::find(total.begin(), total.end(), rail.rail) != total.end();
    x.frozen = rail.frozen;
    x.samples = rail.samples;
    x.distinct_values = rail.distinct_values;
    x.read_failures = rail.read_failures;
    w.rails.push_back(x);
  }
  w.update_interval_s = r.update_interval_s;
  w.lag_correction_s = r.lag_correction_s;
  w.low_confidence = r.low_confidence;
  w.frozen = r.frozen;
  w.read_failures = r.read_failures;
  w.missed_deadlines = r.missed_deadlines;
  w.samples = r.samples;
  w.distinct_values = r.distinct_values;
  w.largest_gap_s = r.largest_gap_s;
  w.start_unix_s = r.start_unix_s;
  w.end_unix_s = r.end_unix_s;
  w.start_monotonic_s = r.start_monotonic_s;
  w.end_monotonic_s = r.end_monotonic_s;
  w.cpu_share = r.cpu_share;
  w.preempted_share = r.preempted_share;
  w.others_cpu_share = r.others_cpu_share;
  w.disturbed = r.disturbed;
  w.problem = problem;
  w.note = r.note;
  return w;
}

}  // namespace

Monitor::Impl::Impl(const MonitorOptions& o)
    : options(o), meter(edp::power::EnergyMeter::open(power_options(o))) {
  if (meter.measures_energy()) {
    const edp::platform::BoardInfo board =
        edp::platform::read_board(edp::platform::SysfsRoot(o.sysfs_root));
    const edp::power::TotalRails chosen = edp::power::choose_total_rails(
        meter.rails(), edp::bench::rail_roles(board.model, board.compatible, board.soc),
        o.total_rails);
    total = chosen.rails;
    why = chosen.why;
    meter.set_total_rails(total);
    meter.start();
    if (o.await_period_s > 0 && !meter.await_averaging_periods(o.await_period_s))
      why += (why.empty() ? "" : "\n") +
             std::string("the sensor's update interval was still unknown after ") +
             std::to_string(o.await_period_s) +
             " s: windows are not lag-corrected and are marked low confidence";
  }
}

Monitor::Monitor(const MonitorOptions& options)
    : impl_(guarded([&] { return std::make_unique<Impl>(options); })) {}
Monitor::~Monitor() = default;
Monitor::Monitor(Monitor&&) noexcept = default;
Monitor& Monitor::operator=(Monitor&&) noexcept = default;

void Monitor::begin_window(const std::string& name) {
  if (name.empty()) throw Error("a window needs a name");
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    if (impl_->idling)
      throw Error("begin_window('" + name +
                  "') while measure_idle runs: the idle baseline must not include a window's "
                  "work; open the window after measure_idle returns");
    if (!impl_->open.emplace(name, nullptr).second)
      throw Error("window '" + name +
                  "' is already open; end or cancel it first, or give the new one another name");
  }
  // Opened outside the lock: begin_window may wait for the sampler's lock,
  // and the interference probe reads procfs.
  std::unique_ptr<edp::bench::RunWindow> w;
  try {
    w = std::make_unique<edp::bench::RunWindow>(impl_->meter, name, impl_->options.interference);
  } catch (const std::exception& e) {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->open.erase(name);
    throw Error(e.what());
  }
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->open[name] = std::move(w);
}

std::unique_ptr<edp::bench::RunWindow> Monitor::Impl::take(const std::string& name,
                                                           const char* how_to_open) {
  std::lock_guard<std::mutex> lock(mutex);
  const auto it = open.find(name);
  if (it == open.end() || !it->second)
    throw Error("window '" + name + "' is not open" + how_to_open);
  auto w = std::move(it->second);
  open.erase(it);
  return w;
}

WindowResult Monitor::end_window(const std::string& name) {
  auto w = impl_->take(name, "; open it with begin_window first");
  double baseline_w;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    baseline_w = impl_->baseline_w;
  }
  edp::bench::WindowJudging judging;
  judging.total_rails = impl_->total;
  judging.baseline_total_w = baseline_w;
  judging.rate_hz = impl_->options.rate_hz;
  judging.threads = std::max(0, impl_->options.threads);
  judging.count_busy_threads = impl_->options.threads <= 0;
  // The CPUs the measured code may run on, as `run` passes its team's: more
  // busy threads than these wait for one another, which is the code's own
  // doing, not a neighbour's (bench::judge_interference allows for it).
  judging.cpus = static_cast<int>(edp::platform::allowed_cpus().size());
  edp::report::RunRecord r;
  const std::string problem = guarded([&] { return w->close(judging, 1, r); });
  WindowResult out = to_result(name, w->measurement(), r, problem, impl_->total, baseline_w);
  out.threads = w->threads_judged();  // 0 when the probe is off
  return out;
}

void Monitor::cancel_window(const std::string& name) {
  auto w = impl_->take(name, "");
  guarded([&] { w->cancel(); });
}

std::vector<std::string> Monitor::open_windows() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  std::vector<std::string> names;
  for (const auto& w : impl_->open) names.push_back(w.first);
  return names;
}

IdleResult Monitor::measure_idle(double seconds) {
  if (!(seconds > 0 && seconds <= 3600))
    throw Error("measure_idle needs a duration in (0, 3600] seconds, got " +
                std::to_string(seconds));
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    if (!impl_->open.empty())
      throw Error("measure_idle with window '" + impl_->open.begin()->first +
                  "' open: the baseline must be idle; end or cancel the windows first");
    if (impl_->idling)
      throw Error(
          "measure_idle while another measure_idle runs (from another thread); "
          "take one baseline at a time");
    impl_->idling = true;  // begin_window refuses until the baseline is taken
  }
  struct Done {
    Monitor::Impl& impl;
    ~Done() {
      std::lock_guard<std::mutex> lock(impl.mutex);
      impl.idling = false;
    }
  } done{*impl_};
  IdleResult out;
  out.power_w = std::nan("");
  if (!impl_->meter.measures_energy()) return out;
  const auto idle = guarded([&] { return impl_->meter.measure_idle(seconds); });
  out.rails_w = idle.power_w;
  out.duration_s = idle.duration_s;
  out.settle_s = idle.settle_s;
  out.start_unix_s = idle.start_unix_s;
  double total = 0;
  for (const auto& rail : impl_->total) {
    const auto it = idle.power_w.find(rail);
    if (it == idle.power_w.end()) {
      total = std::nan("");
      break;
    }
    total += it->second;
  }
  out.power_w = impl_->total.empty() ? std::nan("") : total;
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->baseline_w = out.power_w;
  impl_->idle = out;
  impl_->have_idle = true;
  return out;
}

std::string Monitor::source() const { return impl_->meter.source_name(); }
std::vector<std::string> Monitor::rails() const { return impl_->meter.rail_names(); }
std::vector<std::string> Monitor::total_rails() const { return impl_->total; }
std::string Monitor::total_rails_why() const { return impl_->why; }
std::vector<std::string> Monitor::discovery_log() const { return impl_->meter.discovery_log(); }
bool Monitor::measures_energy() const { return impl_->meter.measures_energy(); }
double Monitor::update_interval_s() const { return impl_->meter.observed_update_interval_s(); }

std::string version() { return std::string("edpbench ") + EDPBENCH_VERSION; }

}  // namespace edpbench
