// context.json (DESIGN §5): what ran, where, with which sensors and
// baselines. Rewritten with the results after every item.
#include "bench/context_json.h"

#include <cmath>
#include <ctime>

#include "bench/sweep.h"
#include "common/json.h"
#include "edpbench/config.h"
#include "workloads/cuda_factory.h"

namespace edp::bench {

std::string utc_now() {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

namespace {

std::string baselines_json(const std::vector<Baseline>& baselines) {
  std::string out = "[";
  for (size_t i = 0; i < baselines.size(); ++i) {
    const Baseline& b = baselines[i];
    JsonObject o;
    o.set("state", b.state);
    o.set("before", b.before);
    o.set("start_unix_s", b.idle.start_unix_s);
    o.set("settle_s", b.idle.settle_s);
    o.set("duration_s", b.idle.duration_s);
    o.set("update_interval_s", b.idle.update_interval_s);
    o.set("total_w", b.total_w);
    o.set("rails_w", b.idle.power_w);
    out += (i ? "," : "") + o.str();
  }
  return out + "]";
}

}  // namespace

std::string context_json(const Sweep& s, bool complete) {
  JsonObject ctx;
  ctx.set("edpbench_version", EDPBENCH_VERSION);
  ctx.set("complete", complete);
  ctx.set("start_time", s.start_time);
  ctx.set("end_time", utc_now());
  ctx.set("config_file", s.cfg.source_path);
  ctx.set("config_yaml", to_yaml(s.cfg));
  ctx.set_raw("board", platform::to_json(s.session.platform()));
  JsonObject build;
  build.set("compiler", EDPBENCH_CXX_COMPILER);
  build.set("cuda", EDPBENCH_HAVE_CUDA != 0);
  build.set("cudnn", EDPBENCH_HAVE_CUDNN != 0);
  build.set("openblas", EDPBENCH_HAVE_OPENBLAS != 0);
  build.set("cuda_architectures", EDPBENCH_CUDA_ARCHITECTURES);
  ctx.set("build", build);
  // The session's facts (bench/engine/session.h).
  const SessionFacts f = s.session.facts();
  JsonObject pw;
  pw.set("source", f.source);
  pw.set("rails", join(f.rails, ","));
  pw.set("total_rails", join(f.total_rails, "+"));
  pw.set("total_rails_why", f.total_rails_why);
  // How each rail's values relate to time (DESIGN §4.2), and the update
  // interval the sampler measured on the total rails.
  pw.set("rail_timing", f.rail_timing);
  pw.set("update_interval_s", f.update_interval_s);
  pw.set("rate_hz", f.rate_hz);
  pw.set("baseline_s", f.baseline_s);
  // The first host baseline (the one the report shows), then every one.
  if (f.reported_baseline) {
    pw.set("baseline_w", f.reported_baseline->idle.power_w);
    pw.set("baseline_total_w", f.reported_baseline->total_w);
  }
  pw.set_raw("baselines", baselines_json(f.baselines));
  std::string log;
  for (const auto& l : f.discovery_log) log += l + "\n";
  pw.set("discovery", log);
  const auto& oh = f.sampler;
  JsonObject sampler;
  sampler.set("cpu_s", oh.cpu_s);
  sampler.set("wall_s", oh.wall_s);
  sampler.set("cpu_percent", oh.wall_s > 0 ? 100.0 * oh.cpu_s / oh.wall_s : NAN);
  sampler.set("ticks", static_cast<double>(oh.ticks));
  sampler.set("missed_deadlines", static_cast<double>(oh.missed_deadlines));
  sampler.set("read_failures", static_cast<double>(oh.read_failures));
  pw.set("sampler", sampler);
  // samples.csv's rate and cap, and where the cap cut it, if it did.
  if (s.timeline) {
    const TimelineSink::Facts& tf = s.timeline->facts();
    JsonObject tl;
    tl.set("file", "samples.csv");
    tl.set("hz", tf.hz);
    tl.set("window_points", static_cast<double>(tf.window_points));
    tl.set("max_rows", static_cast<double>(tf.max_rows));
    tl.set("rows", static_cast<double>(tf.rows));
    tl.set("full_at", tf.full_at);
    pw.set("timeline", tl);
  }
  ctx.set("power", pw);
  JsonObject be;
  for (const auto& [device, facts] : s.backends) be.set(device, facts);
  ctx.set("backends", be);
  JsonObject gpus;
  for (const auto& d : s.cfg.devices) {
    if (d.kind != "gpu") continue;
    auto info = cuda_device_info(d.index);
    const std::string why = cuda_unavailable_reason(d.index);
    if (!why.empty()) info["unavailable"] = why;
    gpus.set(d.label, info);
  }
  ctx.set("gpu", gpus);
  if (!s.cfg.operating_points.empty()) {
    std::string log;
    for (const auto& l : s.point_log) log += l + "\n";
    ctx.set("operating_points", log);
  }
  return ctx.str() + "\n";
}

}  // namespace edp::bench
