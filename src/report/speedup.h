// Seed 003's table: how much faster each backend mode is than each other one
// (reference, cpu, gpu), for every label measured in more than one mode.
// Pure: rows in, ratios out.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace edp::report {

struct SpeedupRow {
  std::string label;  // "tensors/small", "add 64MB warm"
  std::string mode;   // device kind: "reference", "cpu", "gpu"
  double time_s = 0;  // lower is better
};

struct SpeedupTable {
  std::vector<std::string> labels;                         // order of first appearance
  std::vector<std::pair<std::string, std::string>> pairs;  // (slower mode, faster mode)
  // ratio[{label, pair index}] = time(first) / time(second); absent when
  // either mode lacks the label.
  std::map<std::pair<std::string, size_t>, double> ratio;
};

// Modes ordered reference, cpu, gpu, then others by first appearance; each
// pair (a, b) with a before b, kept when some label has both. The fastest row
// stands for a (label, mode) measured twice. No pair when fewer than two modes.
SpeedupTable speedup_table(const std::vector<SpeedupRow>& rows);

std::string render_speedup_html(const SpeedupTable& table, const std::string& label_header);

}  // namespace edp::report
