// The keys of context.json (DESIGN §5), as one table: the writer
// (src/bench/sweep/context_json.cpp) emits exactly these, and the HTML report
// (src/report/html_report.cpp) shows each of them, reading no other key. A
// test builds a real context.json and checks both directions, so a key
// added on one side only fails it. `path` is dot-separated ("power.source");
// `label` is the report's row heading ("" for keys the report shows in a
// section of its own: the per-CPU summary, the idle baselines, the YAML).
#pragma once

#include <string>
#include <vector>

namespace edp {

struct ContextField {
  std::string path;
  std::string label;
  bool optional = false;  // written only when it applies (operating points)
};

inline const std::vector<ContextField>& context_fields() {
  static const std::vector<ContextField> fields{
      {"edpbench_version", "edpbench version"},
      {"complete", "Sweep complete"},
      {"start_time", "Start time"},
      {"end_time", "End time"},
      {"config_file", "Config file"},
      {"config_yaml", ""},
      {"board", ""},
      {"board.model", "Board"},
      {"board.soc", "SoC"},
      // How the board was identified: its device-tree compatible string and
      // the board-table entry chosen, by what and why.
      {"board.compatible", "Device-tree compatible"},
      {"board.board", "Board table entry"},
      {"board.is_jetson", "Jetson"},
      {"board.l4t_release", "L4T"},
      {"board.nvpmodel", "nvpmodel"},
      {"board.cpus", "CPUs: governor, clock"},
      {"board.clusters", "CPU clusters"},
      {"board.gpu", "GPU clock"},
      {"board.emc_hz", "Memory (EMC) clock"},
      {"board.thermal", "Temperatures at the end"},
      {"board.operating_points", "Operating points offered"},
      {"build", "Build"},
      {"power", ""},
      {"power.source", "Power source"},
      {"power.rails", "Rails read"},
      {"power.total_rails", "Energy (total) rails"},
      {"power.total_rails_why", "Why these rails"},
      {"power.rail_timing", "Rail timing"},
      {"power.update_interval_s", "Sensor update interval (s)"},
      {"power.rate_hz", "Sample rate (Hz)"},
      {"power.baseline_s", "Idle baseline length (s)"},
      {"power.baseline_w", "", true},
      {"power.baseline_total_w", "Idle baseline, total (W)", true},
      {"power.baselines", "Idle baselines"},
      {"power.discovery", "Sensor discovery"},
      {"power.sampler", "Sampler"},
      {"power.timeline", "Power timeline (samples.csv)", true},
      {"backends", "Backends"},
      {"gpu", "GPU"},
      {"operating_points", "Operating points applied", true},
      // What the monitor API wrote into the directory (its configurations
      // and idle baseline).
      {"monitor", "Monitor API", true},
  };
  return fields;
}

}  // namespace edp
