// The exporter's metric families (exporter_metrics.h). Names follow
// https://prometheus.io/docs/practices/naming/: the `edpbench_` prefix, base
// units (watts, joules, seconds), `_total` on counters, an `_info` gauge of
// value 1 for the board's facts.
#include "bench/exporter/exporter_metrics.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

#include <prometheus/text_serializer.h>

#include "power/sensor.h"

namespace edp::bench {
namespace {

using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;

MetricFamily family(const std::string& name, const std::string& help, MetricType type) {
  MetricFamily f;
  f.name = name;
  f.help = help;
  f.type = type;
  return f;
}

void add(MetricFamily* f, double value, std::vector<ClientMetric::Label> labels = {}) {
  ClientMetric m;
  m.label = std::move(labels);
  if (f->type == MetricType::Counter)
    m.counter.value = value;
  else
    m.gauge.value = value;
  f->metric.push_back(std::move(m));
}

std::vector<ClientMetric::Label> rail_labels(const power::RailCounter& r) {
  return {{"rail", r.rail}, {"sensor", r.sensor}};
}

}  // namespace

double MonotonicCounter::update(double value) {
  if (!std::isfinite(value)) return this->value();
  if (value < last_) base_ += last_;  // the source started over from zero
  last_ = value;
  return this->value();
}

power::Counters ExporterCounters::update(const power::Counters& now) {
  power::Counters c = now;
  // The total is the sum of the total rails' monotonic counters, not the
  // raw total made monotonic: when one rail starts over and another does
  // not, the raw sum drops by less than the restarted rail held, and adding
  // the last total back counted the other rails twice (review: 50 J).
  double total_j = 0;
  bool any_total = false;
  for (auto& r : c.rails) {
    const std::string key = r.sensor + "/" + r.rail;
    r.energy_j = rail_energy_j_[key].update(r.energy_j);
    r.read_failures =
        static_cast<size_t>(rail_failures_[key].update(static_cast<double>(r.read_failures)));
    if (r.total) {
      total_j += r.energy_j;
      any_total = true;
    }
  }
  c.energy_j = any_total ? total_j : energy_j_.update(now.energy_j);
  c.ticks = static_cast<size_t>(ticks_.update(static_cast<double>(now.ticks)));
  c.missed_deadlines =
      static_cast<size_t>(missed_deadlines_.update(static_cast<double>(now.missed_deadlines)));
  c.read_failures =
      static_cast<size_t>(read_failures_.update(static_cast<double>(now.read_failures)));
  c.sampler_cpu_s = sampler_cpu_s_.update(now.sampler_cpu_s);
  return c;
}

std::vector<MetricFamily> exporter_families(const power::Counters& c, const BoardInfo& board,
                                            double sampler_period_s) {
  std::vector<MetricFamily> out;
  const bool has_total = std::any_of(c.rails.begin(), c.rails.end(),
                                     [](const power::RailCounter& r) { return r.total; });

  auto info = family("edpbench_board_info",
                     "The board edpbench runs on, its power source and total rails (value 1)",
                     MetricType::Gauge);
  add(&info, 1,
      {{"model", board.model},
       {"board", board.board},
       {"l4t", board.l4t},
       {"nvpmodel", board.nvpmodel},
       {"source", board.source},
       {"total_rails", board.total_rails},
       {"version", board.version}});
  out.push_back(std::move(info));

  if (has_total) {
    auto energy = family("edpbench_energy_joules_total",
                         "Energy over the board's total rails since the exporter started, "
                         "lag-corrected (J)",
                         MetricType::Counter);
    add(&energy, c.energy_j);
    out.push_back(std::move(energy));
    auto power = family("edpbench_power_watts", "Power over the board's total rails, latest (W)",
                        MetricType::Gauge);
    if (std::isfinite(c.power_w)) add(&power, c.power_w);
    out.push_back(std::move(power));
    auto interval = family("edpbench_update_interval_seconds",
                           "The total rails' observed sensor update interval (s; 0 unknown)",
                           MetricType::Gauge);
    add(&interval, c.update_interval_s);
    out.push_back(std::move(interval));
    auto frozen =
        family("edpbench_sensor_frozen",
               "1 when a total rail's sensor stopped updating (frozen), else 0", MetricType::Gauge);
    add(&frozen, c.frozen ? 1 : 0);
    out.push_back(std::move(frozen));
  }

  auto rail_energy =
      family("edpbench_rail_energy_joules_total",
             "Energy per rail since the exporter started, lag-corrected (J)", MetricType::Counter);
  auto rail_power =
      family("edpbench_rail_power_watts", "Power per rail, latest reading (W)", MetricType::Gauge);
  auto rail_interval =
      family("edpbench_rail_update_interval_seconds",
             "Observed update interval of the rail's sensor (s; 0 unknown)", MetricType::Gauge);
  auto rail_lag =
      family("edpbench_rail_lag_seconds", "Averaging period corrected for on the rail (s; 0 none)",
             MetricType::Gauge);
  auto rail_frozen = family("edpbench_rail_frozen", "1 when the rail's sensor stopped updating",
                            MetricType::Gauge);
  auto rail_failures =
      family("edpbench_rail_read_failures_total", "Failed reads of the rail", MetricType::Counter);
  // Not "_total": that suffix is the counters' (Prometheus naming).
  auto rail_total = family("edpbench_rail_in_energy",
                           "1 when the rail is one of the total rails, whose sum is the energy "
                           "(timing model as a label)",
                           MetricType::Gauge);
  for (const auto& r : c.rails) {
    add(&rail_energy, r.energy_j, rail_labels(r));
    if (std::isfinite(r.power_w)) add(&rail_power, r.power_w, rail_labels(r));
    add(&rail_interval, r.update_interval_s, rail_labels(r));
    add(&rail_lag, r.lag_s, rail_labels(r));
    add(&rail_frozen, r.frozen ? 1 : 0, rail_labels(r));
    add(&rail_failures, static_cast<double>(r.read_failures), rail_labels(r));
    auto labels = rail_labels(r);
    labels.push_back({"timing", power::timing_name(r.timing)});
    add(&rail_total, r.total ? 1 : 0, std::move(labels));
  }
  for (auto* f : {&rail_energy, &rail_power, &rail_interval, &rail_lag, &rail_frozen,
                  &rail_failures, &rail_total})
    out.push_back(std::move(*f));

  auto ticks = family("edpbench_sampler_ticks_total", "Sampler periods run", MetricType::Counter);
  add(&ticks, static_cast<double>(c.ticks));
  out.push_back(std::move(ticks));
  auto missed = family("edpbench_sampler_missed_deadlines_total",
                       "Sampler periods that started late (a read or the host was too slow)",
                       MetricType::Counter);
  add(&missed, static_cast<double>(c.missed_deadlines));
  out.push_back(std::move(missed));
  auto failures =
      family("edpbench_sampler_read_failures_total", "Failed sensor reads", MetricType::Counter);
  add(&failures, static_cast<double>(c.read_failures));
  out.push_back(std::move(failures));
  auto cpu = family("edpbench_sampler_cpu_seconds_total", "CPU time of the sampler thread (s)",
                    MetricType::Counter);
  add(&cpu, c.sampler_cpu_s);
  out.push_back(std::move(cpu));
  auto period = family("edpbench_sampler_period_seconds",
                       "The sampler's period, 1 / power.rate_hz (s)", MetricType::Gauge);
  add(&period, sampler_period_s);
  out.push_back(std::move(period));
  auto up = family("edpbench_sampler_up", "1 while the sampler thread runs", MetricType::Gauge);
  add(&up, c.running ? 1 : 0);
  out.push_back(std::move(up));
  return out;
}

std::vector<MetricFamily> sweep_families(const SweepProgress& p) {
  std::vector<MetricFamily> out;
  const std::vector<ClientMetric::Label> sweep{{"out", p.out_dir}};
  auto gauge = [&](const std::string& name, const std::string& help, double value) {
    auto f = family(name, help, MetricType::Gauge);
    if (std::isfinite(value)) add(&f, value, sweep);
    out.push_back(std::move(f));
  };
  gauge("edpbench_sweep_items", "Items the sweep plans, resumed ones included",
        static_cast<double>(p.items_total));
  gauge("edpbench_sweep_items_done", "Items finished (ok, failed or skipped)",
        static_cast<double>(p.items_done));
  gauge("edpbench_sweep_items_failed", "Items failed or skipped by this run",
        static_cast<double>(p.items_failed));
  gauge(
      "edpbench_sweep_progress_ratio", "Items finished over items planned (0 to 1)",
      p.items_total ? static_cast<double>(p.items_done) / static_cast<double>(p.items_total) : 1.0);
  auto status = family("edpbench_sweep_status",
                       "The sweep's state: 1 for the current one of running, finished, "
                       "interrupted, failed",
                       MetricType::Gauge);
  for (const char* s : {"running", "finished", "interrupted", "failed"}) {
    auto labels = sweep;
    labels.push_back({"status", s});
    add(&status, p.status == s ? 1 : 0, std::move(labels));
  }
  out.push_back(std::move(status));
  gauge("edpbench_sweep_start_timestamp_seconds", "When the sweep (this process) started",
        p.started_unix_s);
  gauge("edpbench_sweep_update_timestamp_seconds", "When this file was written", p.updated_unix_s);
  if (!p.last_key.empty()) {
    auto info = family("edpbench_sweep_last_item_info",
                       "The last item finished, its key and status (value 1)", MetricType::Gauge);
    auto labels = sweep;
    labels.push_back({"key", p.last_key});
    labels.push_back({"status", p.last_status});
    add(&info, 1, std::move(labels));
    out.push_back(std::move(info));
    gauge("edpbench_sweep_last_time_seconds", "The last item's mean run time (s)", p.last_time_s);
    gauge("edpbench_sweep_last_energy_joules", "The last item's mean energy a run (J)",
          p.last_energy_j);
    gauge("edpbench_sweep_last_edp_joule_seconds", "The last item's mean EDP (J s)", p.last_edp_js);
  }
  return out;
}

MetricFamily exporter_self_family(const std::string& name, const std::string& help, double value) {
  auto f = family(name, help, MetricType::Counter);
  add(&f, value);
  return f;
}

std::string exposition_text(const std::vector<MetricFamily>& families) {
  std::ostringstream out;
  prometheus::TextSerializer().Serialize(out, families);
  return out.str();
}

}  // namespace edp::bench
