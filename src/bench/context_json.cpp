// context.json (DESIGN §5): what ran, where, with which sensors and
// baselines, as the typed RunContext (common/run_context.h): the session's
// part, then the sweep's config, backends, GPUs and operating points.
// Rewritten with the results after every item.
#include "bench/context_json.h"

#include "bench/sweep.h"
#include "common/run_context.h"
#include "workloads/cuda_factory.h"

namespace edp::bench {

std::string context_json(const Sweep& s, bool complete) {
  RunContext c = s.session.context();  // version, board, build, power
  c.complete = complete;
  c.start_time = s.start_time;
  c.end_time = utc_now();
  c.config_file = s.cfg.source_path;
  c.config_yaml = to_yaml(s.cfg);
  c.backends = DeviceFacts(s.backends.begin(), s.backends.end());
  DeviceFacts gpus;
  for (const auto& d : s.cfg.devices) {
    if (d.kind != "gpu") continue;
    auto info = cuda_device_info(d.index);
    const std::string why = cuda_unavailable_reason(d.index);
    if (!why.empty()) info["unavailable"] = why;
    gpus.emplace_back(d.label, info);
  }
  c.gpu = gpus;
  if (!s.cfg.operating_points.empty()) {
    std::string log;
    for (const auto& l : s.point_log) log += l + "\n";
    c.operating_points = log;
  }
  return to_context_json(c);
}

}  // namespace edp::bench
