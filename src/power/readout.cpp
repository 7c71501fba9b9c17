// `sensors` command helpers (see readout.h).
#include "power/readout.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "common/errors.h"
#include "common/text.h"

namespace edp::power {
namespace {

std::string number(double v, const char* format) { return std::isnan(v) ? "" : fmt(format, v); }

}  // namespace

void parse_ina226_device(const std::string& spec, Ina226Options* out) {
  const size_t colon = spec.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == spec.size())
    throw UsageError("--ina226 expects DEV:ADDR, e.g. /dev/i2c-1:0x40 (got '" + spec + "')");
  const std::string addr = spec.substr(colon + 1);
  char* end = nullptr;
  const long value = std::strtol(addr.c_str(), &end, 0);
  if (end != addr.c_str() + addr.size() || value < 0x40 || value > 0x4F)
    throw UsageError("--ina226 address '" + addr + "' is not an INA226 address (0x40-0x4f)");
  out->bus = spec.substr(0, colon);
  out->address = static_cast<int>(value);
}

std::string readout_csv_header() { return "sensor,rail,voltage_v,current_a,power_w,unix_s\n"; }

std::string readout_csv(const std::vector<SensorReadout>& rows) {
  std::string s;
  for (const auto& r : rows) {
    s += csv_field(r.sensor) + "," + csv_field(r.rail) + "," + number(r.reading.voltage_v, "%.3f") +
         "," + number(r.reading.current_a, "%.3f") + "," + number(r.reading.power_w, "%.3f") + "," +
         number(r.unix_s, "%.6f") + "\n";
  }
  return s;
}

std::string readout_text(const std::vector<SensorReadout>& rows) {
  std::string s;
  char line[256];
  std::snprintf(line, sizeof(line), "%-8s %-22s %10s %10s %10s %12s\n", "sensor", "rail",
                "voltage_v", "current_a", "power_w", "energy_j");
  s += line;
  for (const auto& r : rows) {
    auto cell = [](double v, const char* f) {
      std::string c = number(v, f);
      return c.empty() ? std::string("-") : c;
    };
    std::snprintf(
        line, sizeof(line), "%-8s %-22s %10s %10s %10s %12s", r.sensor.c_str(), r.rail.c_str(),
        cell(r.reading.voltage_v, "%.3f").c_str(), cell(r.reading.current_a, "%.3f").c_str(),
        cell(r.reading.power_w, "%.3f").c_str(), cell(r.reading.energy_j, "%.3f").c_str());
    s += line;
    if (!r.ok) s += "  (" + r.error + ")";
    s += "\n";
  }
  return s;
}

std::string counters_text(const Counters& c, const std::string& header) {
  std::string s = header + "\n";
  char line[256];
  std::snprintf(line, sizeof(line), "%-22s %-3s %-13s %10s %11s %11s %8s %9s\n", "rail", "",
                "timing", "power_w", "energy_j", "update_s", "lag_s", "failures");
  s += line;
  auto cell = [](double v, const char* f) {
    std::string t = number(v, f);
    return t.empty() ? std::string("-") : t;
  };
  std::string totals;
  for (const auto& r : c.rails) {
    std::snprintf(line, sizeof(line), "%-22s %-3s %-13s %10s %11s %11s %8s %9zu%s\n",
                  r.rail.c_str(), r.total ? "*" : "", timing_name(r.timing),
                  cell(r.power_w, "%.3f").c_str(), cell(r.energy_j, "%.3f").c_str(),
                  r.update_interval_s > 0 ? cell(r.update_interval_s, "%.3f").c_str() : "-",
                  r.lag_s > 0 ? cell(r.lag_s, "%.3f").c_str() : "-", r.read_failures,
                  r.frozen ? "  FROZEN" : "");
    s += line;
    if (r.total) totals += (totals.empty() ? "" : "+") + r.rail;
  }
  if (!totals.empty()) {
    std::snprintf(line, sizeof(line), "%-40s %10s %11s\n", ("total (* " + totals + ")").c_str(),
                  cell(c.power_w, "%.3f").c_str(), cell(c.energy_j, "%.3f").c_str());
    s += line;
  }
  std::snprintf(line, sizeof(line),
                "sampler: %zu ticks, %zu missed deadlines, %zu read failures%s\n", c.ticks,
                c.missed_deadlines, c.read_failures,
                c.frozen ? "; a total rail is FROZEN (the sensor stopped updating)" : "");
  return s + line;
}

std::string measurement_text(const Measurement& m) {
  std::string s;
  char line[256];
  std::snprintf(line, sizeof(line),
                "window of %.2f s: %zu sampler ticks, %zu read failures, %zu missed deadlines"
                " (%zu of them during reads longer than a period)\n",
                m.time_s(), m.samples, m.read_failures, m.missed_deadlines, m.missed_in_slow_reads);
  s += line;
  // The timing model each rail is integrated with (DESIGN §4.2): counter,
  // instantaneous, or averaging, with the averaging period the lag
  // correction shifted by (lag_s; "-" while the update interval is unknown).
  std::snprintf(line, sizeof(line), "%-22s %-13s %10s %10s %9s %16s %8s %14s\n", "rail", "timing",
                "energy_j", "power_w", "distinct", "update_interval_s", "lag_s", "largest_gap_s");
  s += line;
  for (const auto& r : m.rails) {
    const bool averaging = r.timing == Timing::averaging;
    std::snprintf(
        line, sizeof(line), "%-22s %-13s %10.3f %10.3f %9zu %16s %8s %14.3f%s\n", r.rail.c_str(),
        timing_name(r.timing), r.energy_j, r.power_w_mean, r.distinct_values,
        r.update_interval_s > 0 ? number(r.update_interval_s, "%.3f").c_str() : "-",
        averaging && r.lag_correction_s > 0 ? number(r.lag_correction_s, "%.3f").c_str() : "-",
        r.largest_gap_s, r.frozen ? "  FROZEN" : "");
    s += line;
  }
  if (!m.error.empty()) s += "first failure: " + m.error + "\n";
  return s;
}

std::string discovery_text(const EnergyMeter& meter) {
  std::string s = "source: " + meter.source_name() + "\n";
  for (const auto& line : meter.discovery_log()) s += "  " + line + "\n";
  const double interval = meter.reported_update_interval_s();
  if (interval > 0) {
    char buf[96];
    std::snprintf(buf, sizeof(buf), "  reported update interval: %.3f s\n", interval);
    s += buf;
  }
  return s;
}

}  // namespace edp::power
