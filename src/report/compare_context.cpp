// What makes a comparison suspect, from each sweep's context.json (read by
// the report's reader) and results.csv: another board, L4T release, nvpmodel
// mode, clocks, power source, total rails or edpbench version, and runs that
// were flagged low-confidence, throttled or frozen.
#include <cmath>
#include <set>

#include "report/columns.h"
#include "report/compare.h"
#include "report/html_util.h"

namespace edp::report {

namespace {

std::string mhz_list(std::vector<double> hz) {
  std::set<long> mhz;
  for (double h : hz)
    if (std::isfinite(h)) mhz.insert(std::lround(h / 1e6));
  std::vector<std::string> parts;
  for (long m : mhz) parts.push_back(std::to_string(m));
  return parts.empty() ? "" : html::join(parts, "/") + " MHz";
}

// The facts compared, as (name, value) for one sweep; "" when unknown. Read
// through context.json's struct (common/run_context.h), which also
// understands the looser layouts of older versions.
std::vector<std::pair<std::string, std::string>> facts(const RunContext& c) {
  std::vector<std::pair<std::string, std::string>> f;
  f.emplace_back("board", c.board_model());
  f.emplace_back("L4T", c.l4t_release());
  f.emplace_back("nvpmodel mode", c.nvpmodel_mode());
  std::vector<double> cpu_hz;
  for (double khz : c.cpu_max_khz()) cpu_hz.push_back(khz * 1e3);
  f.emplace_back("CPU max clocks", mhz_list(cpu_hz));
  f.emplace_back("GPU max clock", mhz_list({c.gpu_max_hz()}));
  f.emplace_back("EMC clock", mhz_list({c.emc_hz()}));
  f.emplace_back("power source", c.power.source);
  f.emplace_back("total rails", html::join(c.power.total_rails, "+"));
  f.emplace_back("edpbench version", c.edpbench_version);
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

std::vector<std::string> context_differences(const std::vector<LoadedSweep>& sweeps) {
  std::vector<std::string> out;
  std::vector<std::vector<std::pair<std::string, std::string>>> all;
  for (const auto& s : sweeps) {
    if (!s.data.run_context) {
      out.push_back(s.label +
                    " has no readable context.json: its board, clocks and sensors "
                    "cannot be checked against the others");
      all.emplace_back();
    } else {
      all.push_back(facts(*s.data.run_context));
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
    if (size_t n = rows_with(t, col::low_confidence_runs, col::low_confidence))
      out.push_back(s.label + ": " + std::to_string(n) + " of " + std::to_string(total) +
                    " configurations have low-confidence runs (a run shorter than 10 sensor "
                    "updates): their energy rests on few samples");
    if (size_t n = rows_with(t, col::throttled_runs, col::throttled))
      out.push_back(s.label + ": " + std::to_string(n) + " of " + std::to_string(total) +
                    " configurations have throttled runs (clocks fell below nominal)");
    if (size_t n = rows_with(t, col::disturbed_runs, col::disturbed))
      out.push_back(s.label + ": " + std::to_string(n) + " of " + std::to_string(total) +
                    " configurations have disturbed runs (other processes took the CPU)");
    if (size_t n = rows_with(t, col::frozen_runs, col::frozen))
      out.push_back(s.label + ": " + std::to_string(n) + " of " + std::to_string(total) +
                    " configurations have runs with a frozen sensor");
    if (s.data.run_context && !s.data.run_context->complete)
      out.push_back(s.label + ": the sweep did not complete (continue it with --resume)");
    if (!s.data.runs)
      out.push_back(s.label + " has no runs.csv: no significance test for its configurations");
  }
  return out;
}

}  // namespace edp::report
