// Replay of a recorded power trace: a CSV with the header `t_s,<rail>_w,...`
// and one row per reading, replayed against the monotonic clock. Used for
// dry runs on a host without sensors and for tests with a known answer.
//
// Replay holds each row's value until the next row, like a real sensor that
// updates at the row spacing. Times are shifted so that the first row is at
// t = 0, the moment the trace was opened. With loop = true the last row is held
// for one row spacing and the trace starts over; without it the last row holds.
//
// An empty field means "that read failed" (recorded traces have gaps):
// reading the rail while that row is current fails with
// "trace: no value for VDD_IN_w at t=3.1 s" and is counted as a read
// failure. This is how tests inject a sensor that starts failing mid-run.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "power/sensor.h"

namespace edp::power {

struct TraceData {
  std::vector<std::string> columns;       // "VDD_IN_w"
  std::vector<std::string> rails;         // "VDD_IN"
  std::vector<double> t_s;                // shifted: t_s[0] == 0
  std::vector<std::vector<double>> rows;  // rows[i][rail], NaN = failed read
};

// Throws edp::UsageError naming `origin` and the line for malformed input.
TraceData parse_trace(const std::string& csv_text, const std::string& origin);

class TraceSensor final : public Sensor {
 public:
  // start_s: steady_clock seconds at which the first row is current.
  TraceSensor(TraceData data, bool loop, double start_s);
  std::string name() const override { return "trace"; }
  const std::vector<RailInfo>& rails() const override { return rails_; }
  size_t read(double* values, std::string* error) noexcept override;
  double reported_update_interval_s() const override { return spacing_s_; }

  // Trace time (after looping) and row index current at steady time now_s.
  double trace_time(double now_s) const;
  size_t row_at(double trace_time_s) const;

 private:
  TraceData data_;
  std::vector<RailInfo> rails_;
  bool loop_;
  double start_s_;
  double spacing_s_ = 0;
  double period_s_ = 0;
};

// Reads and parses `path`; throws edp::UsageError when it is missing or bad.
std::unique_ptr<TraceSensor> open_trace(const std::string& path, bool loop,
                                        std::vector<std::string>* log);

}  // namespace edp::power
