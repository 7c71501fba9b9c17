// What a configuration holds (DESIGN §7): the sizes, devices, power and GPU
// settings, the studies' sections (study_sections.h) and the Config that
// gathers them, with the names its `workloads` list accepts. Data only: the
// key table (config_keys.h) reads and writes these members, and config.h
// loads, writes and filters whole configs through that table.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bench/config/study_sections.h"
#include "platform/operating_point.h"
#include "power/options.h"

namespace edp::bench {

struct SizeSpec {
  std::string name;  // small | medium | large | any user-defined name
  int64_t n = 0, d_in = 0, h = 0, d_out = 0;
  // GEMM FLOPs per training iteration (DESIGN §2): 4*N*D_in*H + 6*N*H*D_out.
  double gemm_flop_per_iteration() const { return 4.0 * n * d_in * h + 6.0 * n * h * d_out; }
};

struct DeviceSpec {
  std::string kind;           // cpu | gpu | reference (| host: measure's, never in a config)
  int threads = 0;            // cpu: 0 = every CPU of the set
  std::string cpus = "all";   // cpu: all | a57 | denver | "0,3-5"
  std::string gemm = "auto";  // cpu: auto | eigen | openblas | blis
  int index = 0;              // gpu: CUDA device ordinal
  // The name used in CSV rows: "cpu", "gpu" or "reference" (with a suffix
  // when the same kind appears more than once: "cpu#2").
  std::string label;
};

// The INA226 settings are the power library's own options (bench depends on
// power, so the config stores them as the library takes them).
using Ina226Config = power::Ina226Options;

struct TraceConfig {
  std::string file;  // resolved against the config file's directory
  bool loop = true;
};

struct PowerConfig {
  std::string source = "auto";  // auto|jetson|ina226|hwmon|rapl|nvml|trace|simulated|none
  double rate_hz = 100;
  // The rails whose sum is "energy" (DESIGN §4.1); empty = auto: rails that
  // do not nest, chosen by power::choose_total_rails.
  std::vector<std::string> total_rails;
  double baseline_s = 5;
  int baseline_every = 0;  // re-measure idle power every N configurations (0 = once)
  double min_run_s = 0;
  bool min_run_auto = false;  // min_run_s: auto = at least 20 sensor updates per window
  int sampler_cpu = -1;       // pin the sampler thread; -1 = not pinned
  // How long to wait, at most, for an averaging sensor's update interval to
  // be known before the first window, so that it is lag-corrected.
  double settle_s = 5;
  // samples.csv (DESIGN §5): every window's power over time, decimated to
  // timeline_hz points a second (a window keeps at most
  // power::Sampler::kTimelinePoints), at most timeline_max_rows rows a sweep.
  bool timeline = false;
  double timeline_hz = 20;
  int64_t timeline_max_rows = 1000000;
  Ina226Config ina226;
  TraceConfig trace;
  power::SimulatedOptions simulated;  // power.source: simulated (a test source)
};

struct GpuConfig {
  std::string relu = "kernel";  // kernel | cudnn
  // How the host thread waits for the GPU: block (sleeps on an interrupt;
  // the default, so a waiting core costs no energy), yield, spin.
  std::string sync = "block";
};

struct Config {
  std::string source_path;  // the YAML file it came from ("" if built in code)
  // Errors of a config loaded with keep_going (each "FILE:LINE:COL: ..."),
  // reported by plan and run with this machine's problems in one pass; the
  // keys they name keep their defaults meanwhile.
  std::vector<std::string> problems;
  std::string name = "default";
  // The studies to run: names the key table's ConfigSchema accepts
  // (parse_config starts from its default_studies).
  std::vector<std::string> studies;
  // The studies' own sections (DESIGN §9), each a struct of its study's
  // folder that the study enters in the key table (<name>_config.h, .cpp):
  // read with section<S>(), changed with edit<S>().
  StudySections study_sections;
  int iterations = 500;
  int runs = 10;
  int warmup_iterations = 10;
  uint64_t seed = 0;
  double learning_rate = 1e-6;
  double init_scale = 1.0;
  std::vector<std::string> workloads{"tensors", "autograd", "custom_relu"};
  std::vector<SizeSpec> sizes;
  std::vector<DeviceSpec> devices;
  PowerConfig power;
  GpuConfig gpu;
  // DESIGN §10: every item runs at every point, points outermost; empty =
  // leave the board as it is.
  std::vector<platform::OperatingPoint> operating_points;
  double cooldown_s = 0;        // pause between runs
  double max_start_temp_c = 0;  // wait until every thermal zone is below (0 = off)
  std::string output_dir = "results";
  // Where each key was read from ("power.trace.file", "devices.cpu#2.cpus",
  // "sizes.large" -> "FILE:LINE:COL"), so that errors found after parsing
  // (on this machine, at run time) still name the place to fix.
  std::map<std::string, std::string> where;
  // "FILE:LINE:COL" for `path`, or the file name alone when unknown.
  std::string at(const std::string& path) const;

  // Study S's section (S::kStudy): the one read or set, else S's defaults.
  template <class S>
  const S& section() const {
    return study_sections.get<S>();
  }
  // Study S's section, to change (S's defaults when it was not set).
  template <class S>
  S& edit() {
    return study_sections.edit<S>();
  }
};

// The workload names the tool knows.
const std::vector<std::string>& known_workloads();

}  // namespace edp::bench
