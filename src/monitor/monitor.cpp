// The monitor (include/edpbench/monitor.h): a client of the engine, like
// `run` and `measure`. It builds the engine's session (bench/engine/session.h)
// from its options, which the config's key table checks: discovery, sampler,
// lag correction, the total rails of the board the platform names, settling
// and the idle baseline are the session's. A window is bench::RunWindow, the
// window `run`'s protocol measures each run in: the same clock, energy,
// evidence, interference probe and judgement. Nothing here integrates or
// judges on its own.
#include "edpbench/monitor.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <set>
#include <utility>

#include "bench/engine/window.h"
#include "common/errors.h"
#include "edpbench/config.h"
#include "monitor/monitor_impl.h"
#include "platform/cpu_list.h"

namespace edpbench {

namespace {

// The session's options, in the config's own struct: the key table checks
// them (names, ranges, messages) as it checks a config's power: section.
edp::bench::SessionOptions session_options(const MonitorOptions& o) {
  edp::bench::SessionOptions s;
  // A trace names its source, as --trace does on the command line
  // (cli/power_options.h); beside another source it is an error.
  s.power.source = o.source;
  if (!o.trace_file.empty() && o.source == "auto") s.power.source = "trace";
  if (!o.trace_file.empty() && o.source != "auto" && o.source != "trace")
    throw Error("trace '" + o.trace_file + "' replays a trace, but source is '" + o.source +
                "'; leave out one of them");
  s.power.total_rails = o.total_rails;
  s.power.rate_hz = o.rate_hz;
  s.power.trace.file = o.trace_file;
  s.power.trace.loop = o.trace_loop;
  s.power.sampler_cpu = o.sampler_cpu;
  s.power.settle_s = o.await_period_s;
  s.power.timeline = o.timeline;
  s.power.timeline_hz = o.timeline_hz;
  s.power.ina226.bus = o.ina226_bus;
  s.power.ina226.address = o.ina226_address;
  s.power.ina226.shunt_ohm = o.ina226_shunt_ohm;
  s.power.ina226.max_current_a = o.ina226_max_current_a;
  s.power.ina226.averages = o.ina226_averages;
  s.power.ina226.conversion_us = o.ina226_conversion_us;
  s.power.ina226.poll_ready = o.ina226_poll_ready;
  s.power.ina226.force = o.ina226_force;
  s.sysfs_root = o.sysfs_root;
  return s;
}

// MonitorOptions' names for the session's keys ("power.rate_hz" -> "rate_hz").
std::string option_name(const std::string& path) {
  if (path == "power.settle_s") return "await_period_s";
  if (path == "power.trace.file") return "trace_file";
  if (path == "power.trace.loop") return "trace_loop";
  if (path.rfind("power.ina226.", 0) == 0) return "ina226_" + path.substr(13);
  if (path.rfind("power.", 0) == 0) return path.substr(6);
  return path;
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
                       const std::vector<std::string>& total) {
  WindowResult w;
  w.name = name;
  // The window's fields, one table for both (edpbench/window_fields.h).
#define EDP_COPY_FIELD(type, field, initial, kind) w.field = r.field;
  EDPBENCH_WINDOW_FIELDS(EDP_COPY_FIELD)
#undef EDP_COPY_FIELD
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
  w.problem = problem;
  const edp::power::Timeline& tl = m.timeline;
  if (!tl.empty()) {
    w.timeline.spacing_s = tl.spacing_s;
    w.timeline.t_s = tl.t_s;
    for (const auto& rail : m.rails) w.timeline.rails.push_back(rail.rail);
    w.timeline.power_w = tl.power_w;
    w.timeline.corrected_power_w = tl.corrected_w;
  }
  return w;
}

// Why a monitor measures no energy, for its windows' `problem`.
std::string no_energy_why(const std::string& source) {
  if (source == "none") return "no energy measured: source is none (times only)";
  return "no energy measured: no power sensor was found (see discovery_log); on a machine "
         "without one, source='trace' with a recorded trace gives a dry run";
}

}  // namespace

static std::string new_writer_id() {
  static std::atomic<unsigned> count{0};
  char host[256] = {0};
  ::gethostname(host, sizeof host - 1);
  return std::string(host) + ":" + std::to_string(::getpid()) + ":" + std::to_string(++count) +
         ":" + std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
}

Monitor::Impl::Impl(const MonitorOptions& o)
    : options(o), session(session_options(o), option_name), writer(new_writer_id()) {
  session.throw_problems();  // a missing source, an unknown or nested total rail
  session.advise_short_windows("open the window around more work");
  why = session.total_rails_why();
  if (session.measures_energy()) {
    session.start();
    if (o.await_period_s > 0 && !session.settle())
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
    w = impl_->session.open_window(name, impl_->options.interference);
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
  // The idle baseline of the last measure_idle.
  const auto baseline = impl_->session.current_baseline("host");
  const double baseline_w = baseline ? baseline->total_w : std::nan("");
  edp::bench::WindowJudging judging = impl_->session.judging(baseline_w);
  judging.threads = std::max(0, impl_->options.threads);
  judging.count_busy_threads = impl_->options.threads <= 0;
  // The CPUs the measured code may run on, as `run` passes its team's: more
  // busy threads than these wait for one another, which is the code's own
  // doing, not a neighbour's (bench::judge_interference allows for it).
  judging.cpus = static_cast<int>(edp::platform::allowed_cpus().size());
  edp::report::RunRecord r;
  const std::string problem = guarded([&] { return w->close(judging, 1, r); });
  // Without a sensor a window has a time and no energy: never `ok` in
  // silence (issue 35).
  const std::string why =
      impl_->session.measures_energy() ? problem : no_energy_why(impl_->options.source);
  WindowResult out = to_result(name, w->measurement(), r, why, impl_->session.total_rails());
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
  if (!impl_->session.measures_energy()) return out;
  // The session's baseline, as `run` takes one: settle, then mean power per
  // rail; its total over the total rails judges later windows.
  const edp::bench::Baseline b =
      guarded([&] { return impl_->session.measure_baseline("host", "measure_idle", seconds); });
  out.rails_w = b.idle.power_w;
  out.duration_s = b.idle.duration_s;
  out.settle_s = b.idle.settle_s;
  out.start_unix_s = b.idle.start_unix_s;
  out.power_w = b.total_w;
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->idle = out;
  impl_->have_idle = true;
  return out;
}

std::string Monitor::source() const { return impl_->session.meter().source_name(); }
std::vector<std::string> Monitor::rails() const { return impl_->session.meter().rail_names(); }
std::vector<std::string> Monitor::total_rails() const { return impl_->session.total_rails(); }
std::string Monitor::total_rails_why() const { return impl_->why; }
std::vector<std::string> Monitor::discovery_log() const {
  return impl_->session.meter().discovery_log();
}
bool Monitor::measures_energy() const { return impl_->session.measures_energy(); }
double Monitor::update_interval_s() const {
  return impl_->session.meter().observed_update_interval_s();
}

std::string version() { return std::string("edpbench ") + EDPBENCH_VERSION; }

}  // namespace edpbench
