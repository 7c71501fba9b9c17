// context.json (DESIGN §5): what ran, where, with which sensors and
// baselines, as the typed RunContext (common/run_context.h): the session's
// part, then the sweep's config, backends, GPUs and operating points.
// Rewritten with the results after every item.
#include "bench/sweep/context_json.h"

#include "bench/protocol/timeline_sink.h"
#include "bench/studies/config_schema.h"
#include "bench/sweep/sweep.h"
#include "common/errors.h"
#include "common/run_context.h"
#include "common/safe_file.h"
#include "common/text.h"
#include "edpbench/config.h"
#include "report/json_read.h"
#include "workloads/cuda_factory.h"

namespace edp::bench {

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
  // The earlier values, through the one reader (common/run_context.h).
  const RunContext was = run_context_from_json(old.to_text());
  e.start_time = was.start_time;
  if (was.power.baselines) e.baselines = *was.power.baselines;
  e.baseline_w = was.power.baseline_w;
  e.baseline_total_w = was.power.baseline_total_w;
  e.monitor = was.monitor;
  e.others = was.others;
  return e;
}

std::string context_json(const Sweep& s, bool complete, const EarlierContext& earlier) {
  RunContext c = s.session.context();  // version, board, build, power
  c.complete = complete;
  c.start_time = earlier.start_time.empty() ? s.start_time : earlier.start_time;
  c.end_time = utc_now();
  c.monitor = earlier.monitor;
  c.others = earlier.others;
  c.config_file = s.cfg.source_path;
  c.config_yaml = to_yaml(s.cfg);
  // The first session's baselines, when this one resumes it: the reported
  // one, then every one taken.
  if (earlier.baseline_total_w) {
    c.power.baseline_w = earlier.baseline_w;
    c.power.baseline_total_w = earlier.baseline_total_w;
  }
  if (!earlier.baselines.empty()) {
    std::vector<BaselineContext> all = earlier.baselines;
    if (c.power.baselines)
      all.insert(all.end(), c.power.baselines->begin(), c.power.baselines->end());
    c.power.baselines = std::move(all);
  }
  // samples.csv's rate and cap, and where the cap cut it, if it did.
  if (s.timeline) {
    const TimelineSink::Facts& tf = s.timeline->facts();
    TimelineContext tl;
    tl.file = "samples.csv";
    tl.hz = tf.hz;
    tl.window_points = tf.window_points;
    tl.max_rows = tf.max_rows;
    tl.rows = tf.rows;
    tl.full_at = tf.full_at;
    c.power.timeline = tl;
  }
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
