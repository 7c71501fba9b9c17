// `edpbench dump`: the initial tensors as .npy and the loss of each
// iteration as loss.csv, so any framework can check edpbench's arithmetic.
#pragma once

#include <string>

#include "bench/config/config.h"

namespace edp::bench {

struct DumpOptions {
  std::string workload, size, device = "cpu";
  int iterations = 10;
  std::string out_dir;
};

void run_dump(const Config& config, const DumpOptions& options);

}  // namespace edp::bench
