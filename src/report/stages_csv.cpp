// stages.csv and memory.csv rows (see stages_csv.h and docs/stages.md).
#include "report/stages_csv.h"
#include "report/columns.h"

#include <cstdio>
#include <map>
#include <utility>

#include "common/text.h"
#include "report/csv.h"
#include "report/csv_schema.h"
#include "report/stats.h"

namespace edp::report {
namespace {

const PartRecord* part(const ItemRecord& rec, const std::string& name) {
  for (const auto& p : rec.parts)
    if (p.workload == name) return &p;
  return nullptr;
}

// Mean and 95% CI of a part's energy (or time) per step, over its runs.
struct StagePerStep {
  double mean = NAN, ci95 = NAN;
};
StagePerStep stage_per_step(const PartRecord* p, bool energy) {
  StagePerStep r;
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

std::string signed_pct(double x) { return fmt("%+.1f%%", 100 * x); }

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

namespace {

// One stages.csv row, computed by stages_rows; the schema only names and
// formats its fields.
struct StageRow {
  StageRow(const ItemRecord& r, std::string s, std::string n)
      : rec(r), stage(std::move(s)), note(std::move(n)) {}
  const ItemRecord& rec;
  std::string stage, note;
  double time_s = NAN, share = NAN, rate_flops = NAN, ce = NAN, ce_measured = NAN;
  double time_s_profiled = NAN, peak_flops = NAN;
  Difference energy, time_runs;  // mean energy and measured time per step, same runs
};

const CsvSchema<StageRow>& stages_schema() {
  // DESIGN §9.3: the required columns first, in this order; then extras.
  using R = StageRow;
  static const CsvSchema<R> schema{
      {
          {col::workload, [](const R& x) { return x.rec.param("workload"); }},
          {col::size, [](const R& x) { return x.rec.param("size"); }},
          {col::device, [](const R& x) { return x.rec.param("device"); }},
          {col::stage, [](const R& x) { return x.stage; }},
          {col::time_s, [](const R& x) { return fmt_double(x.time_s); }},
          {col::share, [](const R& x) { return fmt_double(x.share); }},
          {col::energy_j, [](const R& x) { return fmt_double(x.energy.value); }},
          {col::gflops, [](const R& x) { return fmt_double(x.rate_flops / 1e9); }},
          {col::compute_efficiency, [](const R& x) { return fmt_double(x.ce); }},
          {col::note, [](const R& x) { return x.note; }},
      },
      {
          {col::energy_j_ci95, [](const R& x) { return fmt_double(x.energy.ci95); }},
          {col::time_s_profiled, [](const R& x) { return fmt_double(x.time_s_profiled); }},
          {col::compute_efficiency_measured, [](const R& x) { return fmt_double(x.ce_measured); }},
          {col::peak_gflops, [](const R& x) { return fmt_double(x.peak_flops / 1e9); }},
          {col::relu, [](const R& x) { return x.rec.param("relu"); }},
          {col::status, [](const R& x) { return x.rec.status; }},
          {col::study, [](const R& x) { return x.rec.study; }},
          {col::key, [](const R& x) { return x.rec.key; }},
          {col::time_s_mean, [](const R& x) { return fmt_double(x.time_runs.value); }},
          {col::power_w_mean,
           [](const R& x) {
             return fmt_double(x.time_runs.value > 0 ? x.energy.value / x.time_runs.value : NAN);
           }},
      }};
  return schema;
}

// One memory.csv row: a tensor, or the total.
struct MemoryRow {
  MemoryRow(const ItemRecord& r, std::string t, std::string k, std::string n)
      : rec(r), tensor(std::move(t)), kind(std::move(k)), note(std::move(n)) {}
  const ItemRecord& rec;
  std::string tensor, kind, note;
  double bytes_computed = NAN, bytes_measured = NAN;
};

const CsvSchema<MemoryRow>& memory_schema() {
  using R = MemoryRow;
  static const CsvSchema<R> schema{
      {
          {col::workload, [](const R& x) { return x.rec.param("workload"); }},
          {col::size, [](const R& x) { return x.rec.param("size"); }},
          {col::device, [](const R& x) { return x.rec.param("device"); }},
          {col::tensor, [](const R& x) { return x.tensor; }},
          {col::kind, [](const R& x) { return x.kind; }},
          {col::bytes_computed, [](const R& x) { return fmt_double(x.bytes_computed); }},
          {col::bytes_measured, [](const R& x) { return fmt_double(x.bytes_measured); }},
      },
      {
          {col::note, [](const R& x) { return x.note; }},
          {col::relu, [](const R& x) { return x.rec.param("relu"); }},
          {col::status, [](const R& x) { return x.rec.status; }},
          {col::study, [](const R& x) { return x.rec.study; }},
          {col::key, [](const R& x) { return x.rec.key; }},
      }};
  return schema;
}

}  // namespace

const std::vector<std::string>& required_stages_columns() {
  return stages_schema().required_names();
}
const std::vector<std::string>& stages_columns() { return stages_schema().names(); }
const std::vector<std::string>& required_memory_columns() {
  return memory_schema().required_names();
}
const std::vector<std::string>& memory_columns() { return memory_schema().names(); }

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
  const std::string workload = rec.param("workload");
  const StagePerStep ef = stage_per_step(part(rec, "forward"), true);
  const StagePerStep efb = stage_per_step(part(rec, "forward_backward"), true);
  const StagePerStep es = stage_per_step(part(rec, "step"), true);
  const StagePerStep tf = stage_per_step(part(rec, "forward"), false);
  const StagePerStep tfb = stage_per_step(part(rec, "forward_backward"), false);
  const StagePerStep ts = stage_per_step(part(rec, "step"), false);
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
        add_note(note, "profiled step " + signed_pct(t_prof / t - 1) +
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
    StageRow row(rec, stage, note);
    row.time_s = t;
    row.share = share;
    row.rate_flops = t > 0 && flop > 0 ? flop / t : NAN;
    row.ce = row.rate_flops / peak;
    row.ce_measured = row.rate_flops / fma;
    row.time_s_profiled = t_prof;
    row.peak_flops = peak;
    row.energy = e;
    row.time_runs = t_runs;
    rows.push_back(stages_schema().row(row));
  }
  return rows;
}

std::vector<std::vector<std::string>> memory_rows(const ItemRecord& rec) {
  std::vector<std::vector<std::string>> rows;
  double total = 0;
  bool any = false;
  for (const auto& [k, bytes] : rec.values) {
    if (k.rfind("memory|", 0) != 0) continue;
    const size_t a = k.find('|', 7), b = k.rfind('|');
    const std::string tensor = k.substr(a + 1, b - a - 1), kind = k.substr(b + 1);
    if (kind != "saved") total += bytes;
    any = true;
    MemoryRow row(rec, tensor, kind,
                  kind == "saved" ? "storage of an activation or weight (not in the total)" : "");
    row.bytes_computed = bytes;
    rows.push_back(memory_schema().row(row));
  }
  if (!any) return rows;
  const double measured = rec.value(stage_values::kMemMeasured);
  std::string note = "every tensor the step allocates, alive at once (an upper bound)";
  if (!std::isnan(measured) && std::fabs(measured - total) > 0.01 * total)
    note = "measured differs from computed by " + signed_pct(measured / total - 1) +
           " (measured: the high-water mark of live allocations; the computed sum assumes "
           "every tensor alive at once)";
  MemoryRow row(rec, "total", "total", note);
  row.bytes_computed = total;
  row.bytes_measured = measured;
  rows.push_back(memory_schema().row(row));
  return rows;
}

}  // namespace edp::report
