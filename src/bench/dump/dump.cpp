#include "bench/dump/dump.h"

#include <sys/stat.h>

#include <algorithm>

#include "bench/protocol/backend_setup.h"
#include "bench/studies/config_schema.h"
#include "common/atomic_file.h"
#include "common/errors.h"
#include "report/csv.h"
#include "report/npy.h"
#include "workloads/mlp.h"

namespace edp::bench {

void run_dump(const Config& cfg, const DumpOptions& o) {
  Config c = cfg;
  apply_filters(c, {o.workload}, {o.size}, {}, 0, 0);
  const auto dev = std::find_if(c.devices.begin(), c.devices.end(), [&](const DeviceSpec& d) {
    return d.label == o.device || d.kind == o.device;
  });
  DeviceSpec device;
  if (dev != c.devices.end()) {
    device = *dev;
  } else if (o.device == "cpu" || o.device == "gpu" || o.device == "reference") {
    device.kind = device.label = o.device;
  } else {
    throw UsageError("unknown device '" + o.device + "' (expected cpu, gpu, reference or a label " +
                     "from the config)");
  }
  if (o.iterations < 1) throw UsageError("--iterations must be at least 1");
  const SizeSpec& size = c.sizes.front();

  if (::mkdir(o.out_dir.c_str(), 0755) != 0 && errno != EEXIST)
    throw std::runtime_error("cannot create " + o.out_dir);
  const MlpShape shape{size.n, size.d_in, size.h, size.d_out};
  const MlpData init = make_initial_data(shape, c.seed, c.init_scale);
  report::write_npy(o.out_dir + "/x.npy", init.x.data(), {size.n, size.d_in});
  report::write_npy(o.out_dir + "/y.npy", init.y.data(), {size.n, size.d_out});
  report::write_npy(o.out_dir + "/w1.npy", init.w1.data(), {size.d_in, size.h});
  report::write_npy(o.out_dir + "/w2.npy", init.w2.data(), {size.h, size.d_out});

  BackendSetup setup = make_backend_for(device, c, platform::probe());
  if (!setup.backend) throw std::runtime_error(setup.skip_reason);
  auto mlp =
      make_mlp_workload(o.workload, *setup.backend, init, static_cast<float>(c.learning_rate));
  std::string csv = report::csv_line({"iteration", "loss"});
  for (int i = 0; i < o.iterations; ++i) {
    mlp->step();
    csv += report::csv_line(
        {std::to_string(i), report::fmt_double(setup.backend->read_scalar(mlp->loss()))});
  }
  write_file_atomic(o.out_dir + "/loss.csv", csv);
}

}  // namespace edp::bench
