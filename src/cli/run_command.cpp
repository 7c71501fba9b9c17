// `edpbench run`: parses arguments and hands over to bench::run_sweep. With
// --json FILE it then writes the sweep's results.csv rows as JSON to FILE.
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "bench/engine/signals.h"
#include "bench/studies/config_schema.h"
#include "bench/sweep/runner.h"
#include "cli/command.h"
#include "cli/power_options.h"
#include "cli/sweep_filters.h"
#include "common/atomic_file.h"
#include "common/json.h"
#include "report/csv.h"

#include <iostream>

namespace edp::cli::run_command {
namespace {

struct RunArgs {
  std::string config, out, json;
  bool resume = false;
  bool timeline = false;
  std::string prometheus_textfile;
  edp::cli::SweepFilters filters;
  edp::cli::PowerFlags power;
};

// A results.csv field as JSON: a finite number, true/false, null when empty,
// else a string.
std::string field_json(const std::string& v) {
  if (v.empty()) return "null";
  if (v == "true" || v == "false") return v;
  char* end = nullptr;
  errno = 0;
  const double d = std::strtod(v.c_str(), &end);
  const bool decimal = v.find_first_not_of("0123456789.+-eE") == std::string::npos;
  if (decimal && end == v.c_str() + v.size() && errno == 0 && std::isfinite(d))
    return edp::json_number(d);
  return edp::json_string(v);
}

// {"out_dir", "exit_status", "results": [one object per results.csv row]}
std::string sweep_json(const std::string& out_dir, int exit_status) {
  std::string rows = "[";
  const std::string path = out_dir + "/results.csv";
  struct stat st {};
  const edp::report::CsvTable t =
      ::stat(path.c_str(), &st) == 0 ? edp::report::read_csv_file(path) : edp::report::CsvTable{};
  for (size_t r = 0; r < t.rows.size(); ++r) {
    rows += r ? ",\n    {" : "\n    {";
    for (size_t c = 0; c < t.header.size() && c < t.rows[r].size(); ++c)
      rows += (c ? "," : "") + edp::json_string(t.header[c]) + ":" + field_json(t.rows[r][c]);
    rows += "}";
  }
  rows += t.rows.empty() ? "]" : "\n  ]";
  return "{\n  \"out_dir\": " + edp::json_string(out_dir) +
         ",\n  \"exit_status\": " + std::to_string(exit_status) + ",\n  \"results\": " + rows +
         "\n}\n";
}

edp::cli::CommandRunner setup(CLI::App& sub) {
  auto a = std::make_shared<RunArgs>();
  sub.add_option("--config", a->config, "YAML configuration (see configs/)")->required();
  sub.add_option("--out", a->out, "Output directory (default: output.dir of the config)");
  sub.add_flag("--resume", a->resume,
               "Continue the sweep in --out, skipping finished configurations");
  sub.add_option("--json", a->json,
                 "Then write the sweep's results (results.csv's rows) as JSON to FILE")
      ->type_name("FILE");
  a->filters.add_to(sub);
  sub.add_flag("--timeline", a->timeline,
               "Write samples.csv: every run's power over time (power.timeline: true)");
  sub.add_option("--prometheus-textfile", a->prometheus_textfile,
                 "Write DIR/edpbench.prom after every item (progress, last result, status) for "
                 "node_exporter's textfile collector")
      ->type_name("DIR");
  a->power.add_to(sub);
  return [a] {
    // First: a SIGTERM/SIGHUP/SIGPIPE from here on takes the save-and-restore
    // path (exit 128 + signal), however early it comes.
    edp::bench::install_stop_handlers();
    if (!a->json.empty()) edp::cli::check_output_file("--json", a->json);
    try {
      // Every problem in one pass: the config's own and this machine's.
      edp::bench::Config cfg = edp::bench::load_config(a->config, /*keep_going=*/true);
      a->filters.apply(cfg);
      a->power.apply(cfg);
      if (a->timeline) cfg.power.timeline = true;
      edp::bench::RunOptions opt;
      opt.out_dir = a->out.empty() ? cfg.output_dir : a->out;
      opt.resume = a->resume;
      opt.prometheus_textfile_dir = a->prometheus_textfile;
      opt.sysfs_root = a->power.sysfs_root();
      opt.verbose = a->power.verbose();
      const int rc = edp::bench::run_sweep(cfg, opt);
      // A sweep that wrote results (exit 0 or 1) has them in JSON too.
      if (!a->json.empty() && (rc == 0 || rc == 1))
        edp::write_file_atomic(a->json, sweep_json(opt.out_dir, rc));
      return rc;
    } catch (...) {
      // A signal that cut a read short (a config on a FIFO, a slow disk) is
      // the reason, not the error it caused.
      if (const int sig = edp::bench::stop_signal()) {
        std::cerr << "edpbench: interrupted by signal " << sig << " before the sweep started\n";
        return 128 + sig;
      }
      throw;
    }
  };
}

const edp::cli::CommandRegistration reg(10, "run",
                                        "Run the sweep of a config and write CSV results", setup);

}  // namespace

}  // namespace edp::cli::run_command
