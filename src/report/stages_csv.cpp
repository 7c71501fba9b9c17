// stages.csv and memory.csv rows (see stages_csv.h and docs/stages.md).
#include "report/stages_csv.h"

#include <cstdio>
#include <map>

#include "report/csv.h"
#include "report/stats.h"

namespace edp::report {
namespace {

const ConfigRecord* part(const ItemRecord& rec, const std::string& name) {
  for (const auto& p : rec.parts)
    if (p.workload == name) return &p;
  return nullptr;
}

// Mean and 95% CI of a part's energy (or time) per step, over its runs.
struct PerStep {
  double mean = NAN, ci95 = NAN;
};
PerStep per_step(const ConfigRecord* p, bool energy) {
  PerStep r;
  if (!p || p->run_records.empty() || p->iterations <= 0) return r;
  std::vector<double> v;
  for (const auto& run : p->run_records) {
    const double x = energy ? run.energy_j : run.time_s;
    if (std::isnan(x)) return r;
    v.push_back(x / p->iterations);
  }
  const Summary s = summarize(v);
  r.mean = s.mean;
  r.ci95 = s.ci95;
  return r;
}

std::string pct(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%+.1f%%", 100 * x);
  return b;
}

void add_note(std::string& note, const std::string& text) {
  note += (note.empty() ? "" : "; ") + text;
}

}  // namespace

std::string stage_values::memory_key(int order, const std::string& tensor,
                                     const std::string& kind) {
  char b[16];
  std::snprintf(b, sizeof b, "%03d", order);
  return std::string("memory|") + b + "|" + tensor + "|" + kind;
}

const std::vector<std::string>& required_stages_columns() {
  static const std::vector<std::string> c{
      "workload",           "size", "device", "stage", "time_s", "share", "energy_j", "gflops",
      "compute_efficiency", "note"};
  return c;
}

const std::vector<std::string>& stages_columns() {
  static const std::vector<std::string> c = [] {
    std::vector<std::string> v = required_stages_columns();
    for (const char* e :
         {"energy_j_ci95", "time_s_profiled", "compute_efficiency_measured", "peak_gflops", "relu",
          "status", "study", "key", "time_s_mean", "power_w_mean"})
      v.push_back(e);
    return v;
  }();
  return c;
}

const std::vector<std::string>& required_memory_columns() {
  static const std::vector<std::string> c{"workload", "size",           "device",        "tensor",
                                          "kind",     "bytes_computed", "bytes_measured"};
  return c;
}

const std::vector<std::string>& memory_columns() {
  static const std::vector<std::string> c = [] {
    std::vector<std::string> v = required_memory_columns();
    for (const char* e : {"note", "relu", "status", "study", "key"}) v.push_back(e);
    return v;
  }();
  return c;
}

const std::vector<std::string>& stage_names() {
  static const std::vector<std::string> s{"setup",  "h2d_copy",      "forward", "backward",
                                          "update", "loss_readback", "step"};
  return s;
}

Difference difference(double a, double a_ci, double b, double b_ci) {
  Difference d;
  d.value = a - b;
  d.ci95 = std::sqrt(a_ci * a_ci + b_ci * b_ci);
  return d;
}

std::vector<std::vector<std::string>> stages_rows(const ItemRecord& rec) {
  namespace sv = stage_values;
  const std::string workload = rec.param("workload"), size = rec.param("size");
  const std::string device = rec.param("device"), relu = rec.param("relu");
  const PerStep ef = per_step(part(rec, "forward"), true);
  const PerStep efb = per_step(part(rec, "forward_backward"), true);
  const PerStep es = per_step(part(rec, "step"), true);
  const PerStep tf = per_step(part(rec, "forward"), false);
  const PerStep tfb = per_step(part(rec, "forward_backward"), false);
  const PerStep ts = per_step(part(rec, "step"), false);
  const double peak = rec.value(sv::kPeakFlops), fma = rec.value(sv::kFmaPeakFlops);
  const bool events = rec.value(sv::kDeviceTimer) == 1;

  double loop_s = 0;  // forward + backward + update + loss_readback
  for (const char* s : {"forward", "backward", "update", "loss_readback"})
    loop_s += rec.value(sv::time_s(s));

  std::vector<std::vector<std::string>> rows;
  for (const std::string& stage : stage_names()) {
    double t = rec.value(sv::time_s(stage)), t_prof = t, share = NAN;
    double flop = rec.value(sv::flop(stage));
    Difference e;       // NaN: not measured for this stage
    Difference t_runs;  // the measured time of the same runs, same differencing as e
    std::string note;
    if (stage == "setup") {
      add_note(note, "once per run of the sweep, not per step; includes h2d_copy");
    } else if (stage == "h2d_copy") {
      add_note(note, "once: upload of x, y, w1, w2");
    } else if (stage == "step") {
      t = ts.mean;
      t_prof = rec.value(sv::kStepWallS);
      e = {es.mean, es.ci95};
      t_runs = {ts.mean, ts.ci95};
      if (t > 0 && t_prof > 0)
        add_note(note, "profiled step " + pct(t_prof / t - 1) +
                           " against the unprofiled step (cost of profiling and loss readback)");
    } else {
      share = loop_s > 0 ? t / loop_s : NAN;
      if (stage == "forward") {
        e = {ef.mean, ef.ci95};
        t_runs = {tf.mean, tf.ci95};
      }
      if (stage == "backward") {
        e = difference(efb.mean, efb.ci95, ef.mean, ef.ci95);
        t_runs = difference(tfb.mean, tfb.ci95, tf.mean, tf.ci95);
        if (workload == "tensors")
          add_note(note,
                   "time: grad_h only (the weight gradients are fused into the update); "
                   "energy: with grad_w1 and grad_w2");
      }
      if (stage == "update") {
        e = difference(es.mean, es.ci95, efb.mean, efb.ci95);
        t_runs = difference(ts.mean, ts.ci95, tfb.mean, tfb.ci95);
        add_note(note, "FLOPs include the element-wise update, 2 per weight");
        if (workload == "tensors")
          add_note(note,
                   "time: the grad_w1 and grad_w2 GEMMs, fused into the update (beta = 1); "
                   "energy: step - forward_backward, whose GEMMs run with beta = 0, so "
                   "only the cost of the fusion is left");
      }
      if (stage == "loss_readback")
        add_note(note,
                 "not separated in energy (the measured workloads read the loss once per "
                 "run)");
      if ((stage == "backward" || stage == "update") && !std::isnan(e.value) && !e.significant())
        add_note(note, "energy difference not significant (95% CI spans 0)");
    }
    if (stage != "setup" && stage != "h2d_copy" && stage != "step" && events)
      add_note(note, "time from CUDA events");
    const double rate = t > 0 && flop > 0 ? flop / t : NAN;
    const double ce = rate / peak;
    const double ce_measured = rate / fma;
    rows.push_back({workload,
                    size,
                    device,
                    stage,
                    fmt_double(t),
                    fmt_double(share),
                    fmt_double(e.value),
                    fmt_double(rate / 1e9),
                    fmt_double(ce),
                    note,
                    fmt_double(e.ci95),
                    fmt_double(t_prof),
                    fmt_double(ce_measured),
                    fmt_double(peak / 1e9),
                    relu,
                    rec.status,
                    rec.study,
                    rec.key,
                    fmt_double(t_runs.value),
                    fmt_double(t_runs.value > 0 ? e.value / t_runs.value : NAN)});
  }
  return rows;
}

std::vector<std::vector<std::string>> memory_rows(const ItemRecord& rec) {
  const std::string workload = rec.param("workload"), size = rec.param("size");
  const std::string device = rec.param("device"), relu = rec.param("relu");
  std::vector<std::vector<std::string>> rows;
  double total = 0;
  bool any = false;
  for (const auto& [k, bytes] : rec.values) {
    if (k.rfind("memory|", 0) != 0) continue;
    const size_t a = k.find('|', 7), b = k.rfind('|');
    const std::string tensor = k.substr(a + 1, b - a - 1), kind = k.substr(b + 1);
    if (kind != "saved") total += bytes;
    any = true;
    rows.push_back({workload, size, device, tensor, kind, fmt_double(bytes), "",
                    kind == "saved" ? "storage of an activation or weight (not in the total)" : "",
                    relu, rec.status, rec.study, rec.key});
  }
  if (!any) return rows;
  const double measured = rec.value(stage_values::kMemMeasured);
  std::string note = "every tensor the step allocates, alive at once (an upper bound)";
  if (!std::isnan(measured) && std::fabs(measured - total) > 0.01 * total)
    note = "measured differs from computed by " + pct(measured / total - 1) +
           " (measured: the high-water mark of live allocations; the computed sum assumes "
           "every tensor alive at once)";
  rows.push_back({workload, size, device, "total", "total", fmt_double(total), fmt_double(measured),
                  note, relu, rec.status, rec.study, rec.key});
  return rows;
}

}  // namespace edp::report
