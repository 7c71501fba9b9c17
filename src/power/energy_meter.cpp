// EnergyMeter: discovery + sampler + windows (see energy_meter.h).
#include "power/energy_meter.h"

#include <functional>

#include <algorithm>

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <thread>

#include "common/errors.h"
#include "power/discovery.h"
#include "power/sampler.h"

namespace edp::power {

struct EnergyMeter::Impl {
  std::vector<std::unique_ptr<Sensor>> sensors;
  std::vector<std::string> log;
  std::string source;
  std::unique_ptr<Sampler> sampler;
  size_t idle_windows = 0;
  // read_now: the previous counter reading per rail, to derive power.
  std::vector<double> last_energy_j, last_energy_t;

  Impl(std::vector<std::unique_ptr<Sensor>> s, const PowerOptions& o, std::vector<std::string> l,
       std::string name)
      : sensors(std::move(s)), log(std::move(l)), source(std::move(name)) {
    std::vector<Sensor*> raw;
    for (auto& sensor : sensors) raw.push_back(sensor.get());
    sampler = std::make_unique<Sampler>(raw, o.rate_hz, o.sampler_cpu);
    sampler->set_timeline_hz(o.timeline_hz);
  }
};

EnergyMeter::EnergyMeter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
EnergyMeter::EnergyMeter(EnergyMeter&&) noexcept = default;
EnergyMeter& EnergyMeter::operator=(EnergyMeter&&) noexcept = default;
EnergyMeter::~EnergyMeter() = default;  // Impl's sampler stops before the sensors go

EnergyMeter EnergyMeter::open(const PowerOptions& options) {
  Discovery d = discover_sensors(options);
  auto impl = std::make_unique<Impl>(std::move(d.sensors), options, std::move(d.log),
                                     std::move(d.source_name));
  return EnergyMeter(std::move(impl));
}

EnergyMeter EnergyMeter::from_sensors(std::vector<std::unique_ptr<Sensor>> sensors,
                                      const PowerOptions& options,
                                      std::vector<std::string> discovery_log) {
  std::string name;
  for (const auto& s : sensors) name += (name.empty() ? "" : "+") + s->name();
  if (name.empty()) name = "none";
  return EnergyMeter(std::make_unique<Impl>(std::move(sensors), options, std::move(discovery_log),
                                            std::move(name)));
}

std::string EnergyMeter::source_name() const { return impl_->source; }

std::vector<std::string> EnergyMeter::rail_names() const {
  std::vector<std::string> names;
  for (const auto& r : impl_->sampler->rails()) names.push_back(r.rail);
  return names;
}

std::vector<EnergyMeter::Rail> EnergyMeter::rails() const {
  std::vector<Rail> out;
  for (const auto& r : impl_->sampler->rails()) {
    Rail rail{r.sensor_name, r.info};
    rail.info.rail = r.rail;
    out.push_back(std::move(rail));
  }
  return out;
}

std::vector<std::string> EnergyMeter::discovery_log() const {
  std::vector<std::string> log = impl_->log;
  const std::string pin = impl_->sampler->pin_error();
  if (!pin.empty()) log.push_back("sampler: " + pin);
  return log;
}

bool EnergyMeter::measures_energy() const { return !impl_->sensors.empty(); }

void EnergyMeter::start() {
  if (measures_energy()) impl_->sampler->start();
}

void EnergyMeter::set_total_rails(const std::vector<std::string>& rails) {
  impl_->sampler->set_total_rails(rails);
}

void EnergyMeter::begin_window(const std::string& name, bool timeline) {
  impl_->sampler->begin_window(name, timeline);
}

void EnergyMeter::set_timeline_hz(double hz) { impl_->sampler->set_timeline_hz(hz); }

Counters EnergyMeter::counters() const { return impl_->sampler->counters(); }

Measurement EnergyMeter::end_window(const std::string& name, const std::function<void()>& at_end) {
  return impl_->sampler->end_window(name, at_end);
}

void EnergyMeter::cancel_window(const std::string& name) { impl_->sampler->cancel_window(name); }

namespace {

// Sleeps until `until` in steps of 50 ms; false when keep_going said stop.
bool sleep_polling(std::chrono::steady_clock::time_point until,
                   const std::function<bool()>& keep_going) {
  while (std::chrono::steady_clock::now() < until) {
    if (keep_going && !keep_going()) return false;
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
        until - std::chrono::steady_clock::now(), std::chrono::milliseconds(50)));
  }
  return !keep_going || keep_going();
}

std::chrono::steady_clock::duration seconds(double s) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(s));
}

}  // namespace

double idle_settle_s(double interval_s) {
  constexpr double kMinSettleS = 0.5, kUnknownIntervalCapS = 5;
  return interval_s > 0 ? std::max(kMinSettleS, 3 * interval_s) : kUnknownIntervalCapS;
}

EnergyMeter::IdleBaseline EnergyMeter::measure_idle(double duration_s,
                                                    const std::function<bool()>& keep_going) {
  IdleBaseline idle;
  if (!measures_energy()) return idle;
  if (!(duration_s > 0))
    throw UsageError("idle baseline needs a positive duration (power.baseline_s)");
  start();
  // Settle: the update that follows the end of the work may still average
  // some of it; two more updates are idle through and through.
  // The interval: observed, else as the sensors state it (a trace's rows,
  // a driver's update_interval); only when neither is known, wait (up to
  // 5 s) for the sampler to observe one.
  const auto t_call = std::chrono::steady_clock::now();
  double interval = observed_update_interval_s();
  if (interval == 0) interval = reported_update_interval_s();
  while (interval == 0 && std::chrono::steady_clock::now() - t_call < seconds(idle_settle_s(0))) {
    if (!sleep_polling(std::chrono::steady_clock::now() + std::chrono::milliseconds(50),
                       keep_going))
      return {};
    interval = observed_update_interval_s();
  }
  if (interval == 0) interval = reported_update_interval_s();
  if (!sleep_polling(t_call + seconds(idle_settle_s(interval)), keep_going)) return {};
  idle.settle_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_call).count();
  idle.update_interval_s = interval;

  const std::string name = "__idle_baseline_" + std::to_string(impl_->idle_windows++);
  begin_window(name, /*timeline=*/false);
  if (!sleep_polling(std::chrono::steady_clock::now() + seconds(duration_s), keep_going)) {
    end_window(name);
    return {};
  }
  const Measurement m = end_window(name);
  idle.duration_s = m.time_s();
  idle.start_unix_s = m.t0_unix_s;
  // A rail whose reads failed during the baseline gets none: no baseline (and
  // so no dynamic energy) is better than a wrong one.
  for (const auto& r : m.rails)
    if (r.read_failures == 0 && !std::isnan(r.power_w_mean)) idle.power_w[r.rail] = r.power_w_mean;
  return idle;
}

std::map<std::string, double> EnergyMeter::measure_idle_w(double duration_s,
                                                          const std::function<bool()>& keep_going) {
  return measure_idle(duration_s, keep_going).power_w;
}

bool EnergyMeter::await_averaging_periods(double max_s, const std::function<bool()>& keep_going) {
  if (!measures_energy()) return true;
  start();
  const auto until = std::chrono::steady_clock::now() + seconds(max_s);
  while (!impl_->sampler->averaging_periods_known()) {
    if (std::chrono::steady_clock::now() >= until) return false;
    if (!sleep_polling(std::chrono::steady_clock::now() + std::chrono::milliseconds(50),
                       keep_going))
      return false;
  }
  return true;
}

EnergyMeter::Overhead EnergyMeter::sampler_overhead() const {
  const Sampler::Stats s = impl_->sampler->stats();
  return {s.cpu_s, s.wall_s, s.ticks, s.missed_deadlines, s.read_failures};
}

double EnergyMeter::observed_update_interval_s() const {
  return impl_->sampler->observed_update_interval_s();
}

double EnergyMeter::reported_update_interval_s() const {
  double v = 0;
  for (const auto& s : impl_->sensors) v = std::max(v, s->reported_update_interval_s());
  return v;
}

std::vector<SensorReadout> EnergyMeter::read_now(double counter_gap_s) {
  if (impl_->sampler->running())
    throw std::logic_error("EnergyMeter::read_now while the sampler thread runs");
  bool have_counters = false;
  for (const auto& r : impl_->sampler->rails()) have_counters |= r.kind == ValueKind::energy_j;
  const auto& rails = impl_->sampler->rails();
  auto& last_j = impl_->last_energy_j;
  auto& last_t = impl_->last_energy_t;
  if (have_counters && last_j.empty()) {
    // Prime the counters, so that the first readout can show power.
    last_j.assign(rails.size(), NAN);
    last_t.assign(rails.size(), NAN);
    read_now(0);
    std::this_thread::sleep_for(std::chrono::duration<double>(counter_gap_s));
  }
  if (last_j.empty()) {
    last_j.assign(rails.size(), NAN);
    last_t.assign(rails.size(), NAN);
  }
  std::vector<SensorReadout> rows;
  size_t rail = 0;
  for (const auto& sensor : impl_->sensors) {
    std::vector<RailReading> readings;
    std::string error;
    sensor->read_detail(&readings, &error);
    const double t = now_s();
    const double unix_t = unix_now_s();
    for (size_t i = 0; i < readings.size(); ++i, ++rail) {
      SensorReadout row;
      row.sensor = sensor->name();
      row.rail = rails[rail].rail;
      row.reading = readings[i];
      row.unix_s = unix_t;
      if (rails[rail].kind == ValueKind::energy_j && !std::isnan(readings[i].energy_j)) {
        if (!std::isnan(last_j[rail]) && t > last_t[rail])
          row.reading.power_w = (readings[i].energy_j - last_j[rail]) / (t - last_t[rail]);
        last_j[rail] = readings[i].energy_j;
        last_t[rail] = t;
      }
      const double value =
          rails[rail].kind == ValueKind::energy_j ? readings[i].energy_j : readings[i].power_w;
      if (std::isnan(value)) {
        row.ok = false;
        row.error = error.empty() ? "read failed" : error;
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

}  // namespace edp::power
