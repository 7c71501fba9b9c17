// What makes a comparison suspect, from each sweep's context.json (read by
// the report's reader) and results.csv: another board, L4T release, nvpmodel
// mode, clocks, power source, total rails or edpbench version, and runs that
// were flagged low-confidence, throttled or frozen.
#include <cmath>
#include <initializer_list>
#include <set>

#include "report/compare.h"
#include "report/html_util.h"

namespace edp::report {

namespace {

const JsonValue* first_of(const JsonValue& c,
                          std::initializer_list<std::initializer_list<const char*>> paths) {
  for (const auto& p : paths) {
    const JsonValue* v = &c;
    for (const char* k : p) {
      v = v->find(k);
      if (!v) break;
    }
    if (v && !v->is_null()) return v;
  }
  return nullptr;
}

std::string text_of(const JsonValue* v) {
  if (!v) return "";
  if (v->is_array()) {
    std::vector<std::string> parts;
    for (const auto& e : v->array) parts.push_back(e.to_text());
    return html::join(parts, "+");
  }
  return v->to_text();
}

std::string mhz_list(std::vector<double> hz) {
  std::set<long> mhz;
  for (double h : hz) mhz.insert(std::lround(h / 1e6));
  std::vector<std::string> parts;
  for (long m : mhz) parts.push_back(std::to_string(m));
  return parts.empty() ? "" : html::join(parts, "/") + " MHz";
}

// The facts compared, as (name, value) for one sweep; "" when unknown.
std::vector<std::pair<std::string, std::string>> facts(const JsonValue& c) {
  std::vector<std::pair<std::string, std::string>> f;
  f.emplace_back("board", text_of(first_of(c, {{"board", "model"}, {"board_model"}})));
  f.emplace_back("L4T",
                 text_of(first_of(c, {{"board", "l4t_release"}, {"board", "l4t"}, {"l4t"}})));
  std::string nv;
  if (const JsonValue* m =
          first_of(c, {{"board", "nvpmodel", "mode"}, {"board", "nvpmodel", "name"}}))
    nv = m->to_text();
  f.emplace_back("nvpmodel mode", nv);
  std::vector<double> cpu_hz;
  if (const JsonValue* cpus = first_of(c, {{"board", "cpus"}}); cpus && cpus->is_array())
    for (const auto& cpu : cpus->array)
      if (const JsonValue* k = cpu.find("max_khz"); k && k->type == JsonValue::Type::number)
        cpu_hz.push_back(k->number * 1e3);
  f.emplace_back("CPU max clocks", mhz_list(cpu_hz));
  std::string gpu;
  if (const JsonValue* g = first_of(c, {{"board", "gpu", "max_hz"}});
      g && g->type == JsonValue::Type::number)
    gpu = mhz_list({g->number});
  f.emplace_back("GPU max clock", gpu);
  std::string emc;
  if (const JsonValue* e = first_of(c, {{"board", "emc_hz"}});
      e && e->type == JsonValue::Type::number)
    emc = mhz_list({e->number});
  f.emplace_back("EMC clock", emc);
  f.emplace_back("power source", text_of(first_of(c, {{"power", "source"}, {"power_source"}})));
  f.emplace_back("total rails", text_of(first_of(c, {{"power", "total_rails"}})));
  f.emplace_back("edpbench version", text_of(first_of(c, {{"edpbench_version"}, {"version"}})));
  return f;
}

size_t rows_with(const CsvTable& t, const char* count_column, const char* flag_column) {
  size_t n = 0;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto v = html::number(t.get(r, count_column));
    if ((v && *v > 0) || html::truthy(t.get(r, flag_column))) ++n;
  }
  return n;
}

}  // namespace

std::vector<std::string> context_differences(const std::vector<Sweep>& sweeps) {
  std::vector<std::string> out;
  std::vector<std::vector<std::pair<std::string, std::string>>> all;
  for (const auto& s : sweeps) {
    if (!s.data.context) {
      out.push_back(s.label +
                    " has no readable context.json: its board, clocks and sensors "
                    "cannot be checked against the others");
      all.emplace_back();
    } else {
      all.push_back(facts(*s.data.context));
    }
  }
  // The facts every sweep with a context has, compared field by field.
  const auto* ref = static_cast<const std::vector<std::pair<std::string, std::string>>*>(nullptr);
  for (const auto& f : all)
    if (!f.empty()) ref = &f;
  if (ref) {
    for (size_t k = 0; k < ref->size(); ++k) {
      std::set<std::string> distinct;
      std::vector<std::string> per_sweep;
      for (size_t i = 0; i < sweeps.size(); ++i) {
        if (all[i].empty()) continue;
        const std::string& v = all[i][k].second;
        distinct.insert(v);
        per_sweep.push_back(sweeps[i].label + " " + (v.empty() ? "(not recorded)" : v));
      }
      if (distinct.size() > 1) out.push_back((*ref)[k].first + ": " + html::join(per_sweep, "; "));
    }
  }
  for (const auto& s : sweeps) {
    const CsvTable& t = s.data.results;
    const size_t total = t.rows.size();
    if (size_t n = rows_with(t, "low_confidence_runs", "low_confidence"))
      out.push_back(s.label + ": " + std::to_string(n) + " of " + std::to_string(total) +
                    " configurations have low-confidence runs (a run shorter than 10 sensor "
                    "updates): their energy rests on few samples");
    if (size_t n = rows_with(t, "throttled_runs", "throttled"))
      out.push_back(s.label + ": " + std::to_string(n) + " of " + std::to_string(total) +
                    " configurations have throttled runs (clocks fell below nominal)");
    if (size_t n = rows_with(t, "disturbed_runs", "disturbed"))
      out.push_back(s.label + ": " + std::to_string(n) + " of " + std::to_string(total) +
                    " configurations have disturbed runs (other processes took the CPU)");
    if (size_t n = rows_with(t, "frozen_runs", "frozen"))
      out.push_back(s.label + ": " + std::to_string(n) + " of " + std::to_string(total) +
                    " configurations have runs with a frozen sensor");
    if (s.data.context)
      if (const JsonValue* v = s.data.context->find("complete");
          v && v->type == JsonValue::Type::boolean && !v->boolean)
        out.push_back(s.label + ": the sweep did not complete (continue it with --resume)");
    if (!s.data.runs)
      out.push_back(s.label + " has no runs.csv: no significance test for its configurations");
  }
  return out;
}

}  // namespace edp::report
