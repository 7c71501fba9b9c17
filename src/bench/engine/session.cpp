// A measuring session (see session.h).
#include "bench/engine/session.h"

#include <algorithm>
#include <thread>

#include "bench/engine/board_rails.h"
#include "bench/engine/interrupted.h"
#include "common/elapsed.h"
#include "common/errors.h"
#include "common/text.h"
#include "edpbench/config.h"
#include "power/total_rails.h"

namespace edp::bench {
namespace {

power::PowerOptions power_options(const SessionOptions& o) {
  power::PowerOptions p;
  p.source = o.power.source;
  p.sysfs_root = o.sysfs_root;
  p.rate_hz = o.power.rate_hz;
  p.sampler_cpu = o.power.sampler_cpu;
  p.ina226 = o.power.ina226;
  p.trace_file = o.power.trace.file;
  p.trace_loop = o.power.trace.loop;
  p.timeline_hz = o.power.timeline ? o.power.timeline_hz : 0;
  p.simulated = o.power.simulated;
  return p;
}

// The power source, or (its usage error kept in `problems`, under the key
// to fix) an empty meter, so that checking can go on.
power::EnergyMeter open_meter(const SessionOptions& o, std::vector<Session::Problem>& problems) {
  const power::PowerOptions p = power_options(o);
  try {
    return power::EnergyMeter::open(p);
  } catch (const UsageError& e) {
    problems.push_back({o.power.source == "trace" ? "power.trace.file" : "power.source", e.what()});
    return power::EnergyMeter::from_sensors({}, p);
  }
}

SessionOptions checked(SessionOptions o, const OptionNamer& name) {
  validate_session_options(
      o, name ? name : [](const std::string& path) { return path; });
  return o;
}

}  // namespace

double idle_total_w(const std::vector<std::string>& total_rails,
                    const std::map<std::string, double>& idle_w) {
  if (idle_w.empty() || total_rails.empty()) return NAN;
  double total = 0;
  for (const auto& rail : total_rails) {
    auto it = idle_w.find(rail);
    if (it == idle_w.end()) return NAN;
    total += it->second;
  }
  return total;
}

Session::Session(SessionOptions options, const OptionNamer& name)
    : options_(checked(std::move(options), name)),
      prober_(options_.sysfs_root),
      meter_(open_meter(options_, problems_)),
      cadence_(options_.power.baseline_every) {
  choose_total_rails();
}

Session::Session(SessionOptions options, platform::Prober prober, power::EnergyMeter meter)
    : options_(std::move(options)),
      prober_(std::move(prober)),
      meter_(std::move(meter)),
      cadence_(options_.power.baseline_every) {
  choose_total_rails();
}

Session::~Session() = default;

// The rails whose sum is "energy" (DESIGN §4.1), checked against the source
// before anything is measured: an unknown or nested explicit list is a
// problem. The sampler judges update interval, freezing and lag on them.
void Session::choose_total_rails() {
  if (!meter_.measures_energy()) return;
  try {
    const power::TotalRails chosen = power::choose_total_rails(
        meter_.rails(), rail_roles(prober_.platform()), options_.power.total_rails);
    total_rails_ = chosen.rails;
    total_rails_why_ = chosen.why;
    meter_.set_total_rails(total_rails_);
  } catch (const UsageError& e) {
    problems_.push_back({"power.total_rails", e.what()});
  }
}

void Session::throw_problems() const {
  if (problems_.empty()) return;
  std::string all;
  for (const auto& p : problems_) all += (all.empty() ? "" : "\n") + p.message;
  throw UsageError(all);
}

void Session::stop_on(std::function<int()> stop_signal) { stop_signal_ = std::move(stop_signal); }

void Session::log_to(std::function<void(const std::string&)> log) { log_ = std::move(log); }

void Session::log(const std::string& line) const {
  if (log_) log_(line);
}

void Session::check_stop() const {
  if (!stop_signal_) return;
  if (const int s = stop_signal_()) throw Interrupted{s};
}

std::function<bool()> Session::keep_going() const {
  return [this] { return !stop_signal_ || stop_signal_() == 0; };
}

void Session::start() { meter_.start(); }

bool Session::settle() {
  const bool known = meter_.await_averaging_periods(options_.power.settle_s, keep_going());
  check_stop();
  return known;
}

double Session::update_interval_s() const {
  const double observed = meter_.observed_update_interval_s();
  return observed > 0 ? observed : stated_update_interval_s();
}

double Session::stated_update_interval_s() const {
  double stated = meter_.reported_update_interval_s();
  for (const auto& r : meter_.rails())
    if (std::find(total_rails_.begin(), total_rails_.end(), r.info.rail) != total_rails_.end())
      stated = std::max(stated, r.info.averaging_s);
  return stated;
}

std::optional<Baseline> Session::baseline_for(const std::string& state, const std::string& before) {
  if (!meter_.measures_energy() || options_.power.baseline_s <= 0) return std::nullopt;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!cadence_.due(state)) return baselines_[current_.at(state)];
  }
  log("edpbench: measuring idle power (" + state + ") for " +
      fmt("%.1f", options_.power.baseline_s) + " s after the sensor settles");
  const Baseline b = measure_baseline(state, before, options_.power.baseline_s);
  for (const auto& rail : total_rails_)
    if (!b.idle.power_w.count(rail))
      log("edpbench: warning: no idle baseline for " + rail +
          " (its reads failed); dynamic energy stays empty");
  if (!std::isnan(b.total_w))
    log("edpbench: idle power (" + state + "): " + fmt("%.3f W", b.total_w) + " after settling " +
        fmt("%.1f s", b.idle.settle_s));
  return b;
}

void Session::baseline_used(const std::string& state) {
  std::lock_guard<std::mutex> lock(mutex_);
  cadence_.used(state);
}

Baseline Session::measure_baseline(const std::string& state, const std::string& before,
                                   double seconds) {
  Baseline b;
  b.state = state;
  b.before = before;
  b.idle = meter_.measure_idle(seconds, keep_going());
  check_stop();
  b.total_w = idle_total_w(total_rails_, b.idle.power_w);
  std::lock_guard<std::mutex> lock(mutex_);
  baselines_.push_back(b);
  current_[state] = baselines_.size() - 1;
  cadence_.taken(state);
  return b;
}

std::optional<Baseline> Session::current_baseline(const std::string& state) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = current_.find(state);
  if (it == current_.end()) return std::nullopt;
  return baselines_[it->second];
}

std::vector<Baseline> Session::baselines() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return baselines_;
}

// Polls for a stop request every 50 ms, and sleeps no longer than what is
// left: a pause of 20 ms lasts 20 ms, not a whole poll.
void Session::pause(double seconds) {
  const auto until = SteadyClock::now() + std::chrono::duration<double>(seconds);
  const std::chrono::duration<double> poll(0.05);
  for (auto now = SteadyClock::now(); now < until; now = SteadyClock::now()) {
    check_stop();
    const std::chrono::duration<double> left = until - now;
    std::this_thread::sleep_for(std::min(poll, left));
  }
}

// Runs start from the same state: after cooldown_s, and once the hottest
// zone is below max_start_temp_c (at most 10 minutes).
std::string Session::cool_down() {
  if (options_.cooldown_s > 0) pause(options_.cooldown_s);
  if (options_.max_start_temp_c <= 0) return "";
  const auto t0 = SteadyClock::now();
  while (true) {
    const double t = prober_.snapshot().max_temp_c;
    if (std::isnan(t) || t < options_.max_start_temp_c) return "";
    if (seconds_since(t0) > 600)
      return "started at " + fmt("%.1f", t) + " C after waiting 600 s to cool below " +
             fmt("%.1f", options_.max_start_temp_c) + " C";
    check_stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
}

std::unique_ptr<RunWindow> Session::open_window(const std::string& name, bool probe_activity) {
  return std::make_unique<RunWindow>(meter_, name, probe_activity);
}

WindowJudging Session::judging(double baseline_total_w) const {
  WindowJudging j;
  j.total_rails = total_rails_;
  j.baseline_total_w = baseline_total_w;
  j.rate_hz = meter_.measures_energy() ? options_.power.rate_hz : 0;
  j.stated_update_interval_s = stated_update_interval_s();
  if (!short_window_advice_.empty()) j.short_window_advice = short_window_advice_;
  return j;
}

SessionFacts Session::facts() const {
  SessionFacts f;
  f.source = meter_.source_name();
  f.rails = meter_.rail_names();
  f.total_rails = total_rails_;
  f.total_rails_why = total_rails_why_;
  // How each rail's values relate to time (DESIGN §4.2).
  for (const auto& r : meter_.rails()) {
    std::string t = power::timing_name(r.info.timing);
    if (r.info.timing == power::Timing::averaging)
      t += r.info.averaging_s > 0 ? " over " + fmt("%.4g s", r.info.averaging_s) + " (stated)"
                                  : " over the measured update interval";
    f.rail_timing[r.info.rail] = t;
  }
  f.update_interval_s = meter_.observed_update_interval_s();
  f.rate_hz = options_.power.rate_hz;
  f.baseline_s = options_.power.baseline_s;
  f.discovery_log = meter_.discovery_log();
  f.sampler = meter_.sampler_overhead();
  std::lock_guard<std::mutex> lock(mutex_);
  f.baselines = baselines_;
  const auto host = current_.find("host");
  if (host != current_.end())
    f.reported_baseline = baselines_[host->second];
  else if (!baselines_.empty())
    f.reported_baseline = baselines_.front();
  return f;
}

PowerContext SessionFacts::power_context() const {
  PowerContext p;
  p.source = source;
  p.rails = rails;
  p.total_rails = total_rails;
  p.total_rails_why = total_rails_why;
  p.rail_timing = rail_timing;
  p.update_interval_s = update_interval_s;
  p.rate_hz = rate_hz;
  p.baseline_s = baseline_s;
  // The first host baseline (the one the report shows), then every one.
  if (reported_baseline) {
    p.baseline_w = reported_baseline->idle.power_w;
    p.baseline_total_w = reported_baseline->total_w;
  }
  p.baselines.emplace();
  for (const Baseline& b : baselines)
    p.baselines->push_back({b.state, b.before, b.idle.start_unix_s, b.idle.settle_s,
                            b.idle.duration_s, b.idle.update_interval_s, b.total_w,
                            b.idle.power_w});
  p.discovery_log = discovery_log;
  p.sampler = SamplerContext{sampler.cpu_s, sampler.wall_s, sampler.ticks, sampler.missed_deadlines,
                             sampler.read_failures};
  return p;
}

RunContext Session::context() const {
  RunContext c;
  c.edpbench_version = EDPBENCH_VERSION;
  c.board = platform::to_json(platform());
  BuildContext build;
  build.compiler = EDPBENCH_CXX_COMPILER;
  build.cuda = EDPBENCH_HAVE_CUDA != 0;
  build.cudnn = EDPBENCH_HAVE_CUDNN != 0;
  build.openblas = EDPBENCH_HAVE_OPENBLAS != 0;
  build.blis = EDPBENCH_HAVE_BLIS != 0;
  build.cuda_architectures = EDPBENCH_CUDA_ARCHITECTURES;
  c.build = build;
  c.power = facts().power_context();
  return c;
}

}  // namespace edp::bench
