// context.json (DESIGN §5): what ran, where, with which sensors and
// baselines. Rewritten with the results after every item.
#include "bench/context_json.h"

#include <cmath>
#include <ctime>

#include "bench/sweep.h"
#include "common/errors.h"
#include "common/json.h"
#include "common/safe_file.h"
#include "common/text.h"
#include "edpbench/config.h"
#include "report/json_read.h"
#include "workloads/cuda_factory.h"

namespace edp::bench {

std::string utc_now() {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

namespace {

std::string baselines_json(const std::vector<std::string>& earlier,
                           const std::vector<Baseline>& baselines) {
  std::string out = "[";
  for (const auto& e : earlier) out += (out.size() > 1 ? "," : "") + e;
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
    out += (out.size() > 1 ? "," : "") + o.str();
  }
  return out + "]";
}

// A value of the earlier context.json as JSON text.
std::string as_json(const report::JsonValue& v) {
  switch (v.type) {
    case report::JsonValue::Type::null:
      return "null";
    case report::JsonValue::Type::string:
      return json_string(v.string);
    default:
      return v.to_text();  // numbers as written, arrays and objects as JSON
  }
}

}  // namespace

EarlierContext earlier_context(const Sweep& s, const std::string& dir) {
  EarlierContext e;
  const std::string path = dir + "/context.json";
  if (!path_present(path)) return e;
  report::JsonValue old;
  try {
    old = report::read_json_file(path);
  } catch (const UsageError&) {
    throw;
  } catch (const std::exception& ex) {
    throw UsageError(std::string("--resume: ") + ex.what() +
                     "; restore the file, or resume into a new --out directory");
  }
  if (!old.is_object())
    throw UsageError("--resume: " + path +
                     " is not a JSON object; restore the file, or resume into a new --out "
                     "directory");
  const SessionFacts f = s.session.facts();
  // The key paths are vectors: an initializer_list kept in a container
  // points at an array that died with the full expression that built it
  // (ASan: stack-use-after-scope in the resume tests).
  const std::vector<std::pair<std::vector<const char*>, std::string>> must_agree = {
      {{"board", "model"}, s.session.platform().model},
      {{"edpbench_version"}, EDPBENCH_VERSION},
      {{"power", "source"}, f.source},
      {{"power", "total_rails"}, join(f.total_rails, "+")},
  };
  for (const auto& [keys, now] : must_agree) {
    const report::JsonValue* v = &old;
    for (const char* k : keys) v = v ? v->find(k) : nullptr;
    const std::string was = v ? v->to_text() : std::string();
    if (was == now) continue;
    std::string name;
    for (const char* k : keys) name += (name.empty() ? "" : ".") + std::string(k);
    throw UsageError("--resume: " + path + " has " + name + " '" + escaped_excerpt(was, 80) +
                     "' but this session's is '" + escaped_excerpt(now, 80) +
                     "'; a sweep's items must share one context: resume on the same board "
                     "with the same edpbench and power source, or into a new --out directory");
  }
  if (const auto* t = old.find("start_time"); t && t->type == report::JsonValue::Type::string)
    e.start_time = t->string;
  if (const auto* b = old.at({"power", "baselines"}); b && b->is_array())
    for (const auto& one : b->array)
      if (one.is_object()) e.baselines.push_back(as_json(one));
  if (const auto* w = old.at({"power", "baseline_w"})) e.baseline_w = as_json(*w);
  if (const auto* w = old.at({"power", "baseline_total_w"})) e.baseline_total_w = as_json(*w);
  return e;
}

std::string context_json(const Sweep& s, bool complete, const EarlierContext& earlier) {
  JsonObject ctx;
  ctx.set("edpbench_version", EDPBENCH_VERSION);
  ctx.set("complete", complete);
  ctx.set("start_time", earlier.start_time.empty() ? s.start_time : earlier.start_time);
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
  // The first session's, when this one resumes it.
  if (!earlier.baseline_total_w.empty()) {
    if (!earlier.baseline_w.empty()) pw.set_raw("baseline_w", earlier.baseline_w);
    pw.set_raw("baseline_total_w", earlier.baseline_total_w);
  } else if (f.reported_baseline) {
    pw.set("baseline_w", f.reported_baseline->idle.power_w);
    pw.set("baseline_total_w", f.reported_baseline->total_w);
  }
  pw.set_raw("baselines", baselines_json(earlier.baselines, f.baselines));
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
