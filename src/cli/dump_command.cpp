// `edpbench dump`: initial tensors (.npy) and the loss trajectory (loss.csv).
#include "bench/dump/dump.h"
#include "bench/studies/config_schema.h"
#include "cli/command.h"

namespace edp::cli::dump_command {
namespace {

struct DumpArgs {
  std::string config;
  edp::bench::DumpOptions opt;
};

edp::cli::CommandRunner setup(CLI::App& sub) {
  auto a = std::make_shared<DumpArgs>();
  sub.add_option("--config", a->config, "YAML configuration")->required();
  sub.add_option("--workload", a->opt.workload, "Workload: tensors, autograd or custom_relu")
      ->required();
  sub.add_option("--size", a->opt.size, "A size defined in the config")->required();
  sub.add_option("--device", a->opt.device, "Device: cpu (default), gpu or reference");
  sub.add_option("--iterations", a->opt.iterations, "Iterations to record in loss.csv")
      ->required()
      ->check(CLI::Range(1, 100000000));
  sub.add_option("--out", a->opt.out_dir, "Output directory")->required();
  return [a] {
    const edp::bench::Config cfg = edp::bench::load_config(a->config);
    edp::bench::run_dump(cfg, a->opt);
    return 0;
  };
}

const edp::cli::CommandRegistration reg(60, "dump",
                                        "Write the initial tensors (.npy) and loss per iteration",
                                        setup);

}  // namespace

}  // namespace edp::cli::dump_command
