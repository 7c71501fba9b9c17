// `edpbench ops`: the operator study (DESIGN §9.1) with its defaults, or a
// config's devices and power settings, without writing a config.
#include "bench/studies/config_schema.h"
#include "bench/studies/ops/ops_config.h"
#include "bench/sweep/runner.h"
#include "cli/command.h"
#include "cli/power_options.h"
#include "common/errors.h"

namespace edp::cli::ops_command {
namespace {

struct OpsArgs {
  std::string config, out;
  edp::cli::PowerFlags power;
  bool resume = false, no_cold = false, timeline = false;
  std::vector<std::string> ops, bytes, devices, gemm_n;
  std::string runs;
};

edp::cli::CommandRunner setup(CLI::App& sub) {
  auto a = std::make_shared<OpsArgs>();
  sub.add_option("--out", a->out, "Output directory")->required();
  sub.add_option("--config", a->config,
                 "Take devices, power and ops settings from this config (default: built in)");
  sub.add_option("--ops", a->ops, "Only these ops (copy,add,mul,scalar,sigmoid,tanh,gemm,fma_peak)")
      ->delimiter(',');
  sub.add_option("--bytes", a->bytes, "Working-set sizes, e.g. 2MB,64MB,1GB")->delimiter(',');
  sub.add_option("--gemm-n", a->gemm_n, "Square GEMM orders, e.g. 256,1024")->delimiter(',');
  sub.add_option("--devices", a->devices, "Only these devices (cpu,gpu,reference)")->delimiter(',');
  sub.add_option("--runs", a->runs, "At least this many runs per item (ops.runs)");
  sub.add_flag("--no-cold", a->no_cold, "Leave out the cache-flushed variants");
  sub.add_flag("--resume", a->resume, "Continue the study in --out");
  sub.add_flag("--timeline", a->timeline,
               "Write samples.csv: every run's power over time (power.timeline: true)");
  a->power.add_to(sub);
  return [a] {
    edp::bench::Config cfg =
        a->config.empty() ? edp::bench::parse_config("name: ops\n", "(built-in ops defaults)")
                          : edp::bench::load_config(a->config);
    cfg.studies = {"ops"};
    // Every value goes through the config's own key table: the same ranges
    // and choices as ops: in a config file.
    using edp::bench::set_config_list;
    if (!a->ops.empty()) set_config_list(cfg, "ops.ops", a->ops, "--ops");
    if (!a->bytes.empty()) set_config_list(cfg, "ops.bytes", a->bytes, "--bytes");
    if (!a->gemm_n.empty()) set_config_list(cfg, "ops.gemm_n", a->gemm_n, "--gemm-n");
    if (a->no_cold) cfg.edit<edp::bench::OpsConfig>().cold = false;
    if (!a->runs.empty()) {
      edp::bench::set_config_value(cfg, "ops.runs", a->runs, "--runs");
      edp::bench::OpsConfig& ops = cfg.edit<edp::bench::OpsConfig>();
      ops.max_runs = std::max(ops.max_runs, ops.runs);
    }
    a->power.apply(cfg);
    edp::bench::apply_filters(cfg, {}, {}, a->devices, 0, 0);
    if (a->timeline) cfg.power.timeline = true;
    edp::bench::RunOptions opt;
    opt.out_dir = a->out;
    opt.resume = a->resume;
    opt.sysfs_root = a->power.sysfs_root();
    opt.verbose = a->power.verbose();
    return edp::bench::run_sweep(cfg, opt);
  };
}

const edp::cli::CommandRegistration reg(
    15, "ops", "Run the operator study (throughput, percent of peak, energy per op)", setup);

}  // namespace

}  // namespace edp::cli::ops_command
