// deploy.csv rows and candidates (see deploy_csv.h; columns in docs/deploy.md).
#include "report/deploy_csv.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <tuple>

#include "common/errors.h"
#include "common/safe_file.h"
#include "report/stats.h"

namespace edp::report {
namespace {

namespace dv = deploy_values;

const std::vector<std::string> kRequired{"mode",
                                         "workload",
                                         "size",
                                         "batch",
                                         "device",
                                         "operating_point",
                                         "measure",
                                         "state",
                                         "idle_s",
                                         "rate_hz",
                                         "repeats",
                                         "time_s",
                                         "time_s_ci95",
                                         "energy_j",
                                         "energy_j_ci95",
                                         "extra_time_s",
                                         "extra_energy_j",
                                         "extra_energy_j_ci95",
                                         "power_w",
                                         "power_w_ci95",
                                         "predicted_w",
                                         "predicted_w_ci95",
                                         "error",
                                         "latency_p50_s",
                                         "latency_p90_s",
                                         "latency_p99_s",
                                         "gate_delay_s",
                                         "status",
                                         "note"};

// One row, its fields by column name; the rest empty.
struct RowBuilder {
  std::map<std::string, std::string> f;
  std::vector<std::string> done() const {
    std::vector<std::string> out;
    for (const auto& c : deploy_columns()) {
      const auto it = f.find(c);
      out.push_back(it == f.end() ? "" : it->second);
    }
    return out;
  }
};

// The measured idle gaps (or rates) of `kind` in the record's values, sorted.
std::vector<double> keys_of(const ItemRecord& rec, const std::string& kind) {
  std::set<double> out;
  const std::string prefix = kind + "|";
  for (const auto& [name, value] : rec.values) {
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const size_t bar = name.find('|', prefix.size());
    if (bar == std::string::npos) continue;
    if (const auto v = parse_double(name.substr(prefix.size(), bar - prefix.size())))
      out.insert(*v);
  }
  return {out.begin(), out.end()};
}

// The warm burst's energy and time from the part's runs (back to back):
// each run's energy over the total rails and its time, per block, over the
// block's steps. The energy holds the idle power over that time, so the
// model takes the busy time from the same runs.
Summary per_burst(const PartRecord& part, double RunRecord::*field) {
  std::vector<double> v;
  for (const auto& r : part.run_records)
    if (std::isfinite(r.*field) && part.iterations > 0) v.push_back(r.*field / part.iterations);
  return summarize(v);
}

// A summary's CI half-width, or NaN (written empty: unknown, never exact)
// from fewer than two samples.
double ci_of(const Summary& s) { return s.n >= 2 ? s.ci95 : NAN; }

std::string gate_text(const ItemRecord& rec) {
  const double source = rec.value(dv::kGateSource);
  if (source == dv::kGateFromBoard) return "the GPU's railgate_delay (sysfs)";
  if (source == dv::kGateFromSimulated)
    return "the simulated source's power.simulated.sleep_after_s";
  return "";
}

std::string absent_text(double code) {
  if (code == dv::kNoGateOnCpu)
    return "a CPU has no idle gating delay to wait for: cpuidle picks its states within each "
           "idle period, so the context state already holds them";
  if (code == dv::kRailgateDisabled)
    return "rail-gating is off on this board (railgate_enable = 0): the GPU stays powered";
  if (code == dv::kNoRailgateFile)
    return "the GPU states no rail-gating delay (no railgate_delay beside its devfreq node: "
           "not a Tegra GPU, or a driver without it)";
  return "not measured";
}

// The item a deploy.csv row belongs to: its rows share mode, workload,
// size, batch, device and operating point.
std::string item_id(const CsvTable& t, size_t r) {
  std::string id;
  for (const char* c : {"mode", "workload", "size", "batch", "device", "operating_point"})
    id += t.get(r, c) + "\x1f";
  return id;
}

std::optional<double> optional_field(const CsvTable& t, size_t r, const std::string& c) {
  return parse_double(t.get(r, c));
}

// A value and its CI half-width. A CI cell that is empty, not a number or
// negative is an unknown CI (NaN), never an exact value: the model then
// calls no choice resting on it confident.
Estimate estimate(const CsvTable& t, size_t r, const std::string& value, const std::string& ci) {
  Estimate e;
  if (const auto v = optional_field(t, r, value)) e.value = *v;
  const auto c = optional_field(t, r, ci);
  e.ci95 = c && std::isfinite(*c) && *c >= 0 ? *c : NAN;
  return e;
}

}  // namespace

namespace deploy_values {
std::string idle(const std::string& state, const std::string& what) {
  return "idle|" + state + "|" + what;
}
std::string burst(const std::string& what) { return "burst|" + what; }
std::string first(const std::string& kind, double idle_s, const std::string& what) {
  return kind + "|" + fmt_double(idle_s) + "|" + what;
}
std::string check(double rate_hz, const std::string& what) {
  return "check|" + fmt_double(rate_hz) + "|" + what;
}
std::string release_check(double rate_hz, const std::string& what) {
  return "check_release|" + fmt_double(rate_hz) + "|" + what;
}
}  // namespace deploy_values

const std::vector<std::string>& required_deploy_columns() { return kRequired; }

const std::vector<std::string>& deploy_columns() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> c = kRequired;
    for (const char* extra : {"predicted_realised_w", "predicted_realised_w_ci95", "error_realised",
                              "arrivals", "arrivals_expected", "n", "d_in", "h", "d_out", "key"})
      c.push_back(extra);
    return c;
  }();
  return all;
}

std::vector<std::vector<std::string>> deploy_rows(const ItemRecord& rec) {
  RowBuilder base;
  for (const char* p : {"mode", "workload", "size", "batch"}) base.f[p] = rec.param(p);
  base.f["device"] = rec.device;
  base.f["operating_point"] = rec.parts.empty() ? rec.param("point") : rec.parts[0].operating_point;
  for (const char* v : {"n", "d_in", "h", "d_out"}) base.f[v] = fmt_double(rec.value(v));
  base.f["key"] = rec.key;
  const double gate_s = rec.value(dv::kGateDelayS);
  std::vector<std::vector<std::string>> out;

  if (rec.status != "ok" || rec.parts.empty() || rec.parts[0].status != "ok") {
    // A device this machine lacks (skipped) or a failed item: every state
    // says so, with why.
    for (const char* state : {"host", "context", "gated"}) {
      RowBuilder r = base;
      r.f["measure"] = "idle";
      r.f["state"] = state;
      r.f["status"] = rec.status == "ok" ? "failed" : rec.status;
      r.f["note"] = rec.note.empty() && !rec.parts.empty() ? rec.parts[0].note : rec.note;
      out.push_back(r.done());
    }
    return out;
  }

  // Idle power per state.
  for (const char* state : {"host", "context", "gated"}) {
    RowBuilder r = base;
    r.f["measure"] = "idle";
    r.f["state"] = state;
    const double w = rec.value(dv::idle(state, "w"));
    if (std::isfinite(w)) {
      r.f["power_w"] = fmt_double(w);
      r.f["power_w_ci95"] = fmt_double(rec.value(dv::idle(state, "w_ci95")));
      r.f["idle_s"] = fmt_double(rec.value(dv::idle(state, "s")));
      r.f["repeats"] = fmt_double(rec.value(dv::idle(state, "windows")));
      r.f["status"] = "ok";
      if (std::string(state) == "host")
        r.f["note"] = rec.value(dv::kHostAfterRelease) == 1
                          ? "measured right after a cold burst with the device's context "
                            "released, before the gating delay (the release policy's idle)"
                          : "measured before the sweep's first item, no device context "
                            "(power.baseline_s)";
      if (std::string(state) == "gated") r.f["note"] = "after the gating delay: " + gate_text(rec);
    } else {
      r.f["status"] = "absent";
      r.f["note"] = std::string(state) == "gated" ? absent_text(rec.value(dv::kGateAbsent))
                    : std::string(state) == "host"
                        ? "no host baseline was taken (power.baseline_s: 0, or no power sensor)"
                        : "not measured";
    }
    if (std::string(state) != "host") r.f["gate_delay_s"] = fmt_double(gate_s);
    out.push_back(r.done());
  }

  // The warm burst.
  const PartRecord& part = rec.parts[0];
  const Summary energy = per_burst(part, &RunRecord::energy_j);
  const Summary busy = per_burst(part, &RunRecord::time_s);
  // A first burst's extra time is over a warm single burst's median.
  const double warm_latency_s = rec.value(dv::burst("p50_s"));
  {
    RowBuilder r = base;
    r.f["measure"] = "burst";
    r.f["state"] = "context";
    r.f["repeats"] = fmt_double(rec.value(dv::burst("count")));
    if (busy.n > 0) {
      r.f["time_s"] = fmt_double(busy.mean);
      r.f["time_s_ci95"] = fmt_double(ci_of(busy));
    }
    if (energy.n > 0) {
      r.f["energy_j"] = fmt_double(energy.mean);
      r.f["energy_j_ci95"] = fmt_double(ci_of(energy));
      if (busy.n > 0 && busy.mean > 0) r.f["power_w"] = fmt_double(energy.mean / busy.mean);
    }
    r.f["latency_p50_s"] = fmt_double(rec.value(dv::burst("p50_s")));
    r.f["latency_p90_s"] = fmt_double(rec.value(dv::burst("p90_s")));
    r.f["latency_p99_s"] = fmt_double(rec.value(dv::burst("p99_s")));
    r.f["gate_delay_s"] = fmt_double(gate_s);
    r.f["status"] = energy.n > 0 ? "ok" : "failed";
    r.f["note"] = energy.n > 0 ? part.note
                               : "no run measured energy (power.source none, or every run "
                                 "failed): " +
                                     part.note;
    out.push_back(r.done());
  }

  // First bursts: after a gap with the context kept (wake), or released (cold).
  for (const char* kind : {"wake", "cold"})
    for (const double t : keys_of(rec, kind)) {
      const auto v = [&](const char* what) { return rec.value(dv::first(kind, t, what)); };
      RowBuilder r = base;
      r.f["measure"] = kind;
      const double gap = v("gap_s");
      // The state the gap ended in: past the gating delay the device is
      // gated whether its context was kept or released.
      r.f["state"] = std::isfinite(gate_s) && gap >= gate_s ? "gated"
                     : std::string(kind) == "cold"          ? "host"
                                                            : "context";
      r.f["idle_s"] = fmt_double(gap);
      r.f["repeats"] = fmt_double(v("repeats"));
      r.f["time_s"] = fmt_double(v("time_s"));
      r.f["time_s_ci95"] = fmt_double(v("time_s_ci95"));
      r.f["energy_j"] = fmt_double(v("energy_j"));
      r.f["energy_j_ci95"] = fmt_double(v("energy_j_ci95"));
      r.f["extra_time_s"] = fmt_double(v("time_s") - warm_latency_s);
      if (energy.n > 0) {
        r.f["extra_energy_j"] = fmt_double(v("energy_j") - energy.mean);
        r.f["extra_energy_j_ci95"] = fmt_double(std::hypot(v("energy_j_ci95"), ci_of(energy)));
      }
      r.f["gate_delay_s"] = fmt_double(gate_s);
      const bool ok = std::isfinite(v("energy_j")) && energy.n > 0;
      r.f["status"] = ok ? "ok" : "failed";
      if (!ok) r.f["note"] = "energy not measured";
      out.push_back(r.done());
    }

  // Open-loop checks of the model: the context kept (state context) or
  // released, a cold start per burst (state host).
  for (const char* kind : {"check", "check_release"})
    for (const double rate : keys_of(rec, kind)) {
      const bool released = std::string(kind) == "check_release";
      const auto v = [&](const char* what) {
        return rec.value(released ? dv::release_check(rate, what) : dv::check(rate, what));
      };
      RowBuilder r = base;
      r.f["measure"] = "check";
      r.f["state"] = released ? "host" : "context";
      r.f["rate_hz"] = fmt_double(rate);
      r.f["time_s"] = fmt_double(v("seconds"));
      r.f["repeats"] = fmt_double(v("requests"));
      r.f["power_w"] = fmt_double(v("measured_w"));
      r.f["predicted_w"] = fmt_double(v("predicted_w"));
      r.f["predicted_w_ci95"] = fmt_double(v("predicted_w_ci95"));
      r.f["error"] = fmt_double(v("measured_w") / v("predicted_w") - 1);
      r.f["predicted_realised_w"] = fmt_double(v("realised_w"));
      r.f["predicted_realised_w_ci95"] = fmt_double(v("realised_w_ci95"));
      r.f["error_realised"] = fmt_double(v("measured_w") / v("realised_w") - 1);
      r.f["arrivals"] = fmt_double(v("arrivals"));
      r.f["arrivals_expected"] = fmt_double(v("arrivals_expected"));
      r.f["latency_p99_s"] = fmt_double(v("latency_p99_s"));
      r.f["gate_delay_s"] = fmt_double(gate_s);
      const bool ok = std::isfinite(v("measured_w")) && std::isfinite(v("predicted_w"));
      r.f["status"] = ok ? "ok" : "failed";
      if (v("overloaded") == 1) {
        r.f["status"] = "overloaded";
        r.f["note"] =
            "stopped at twice check_s, busy 90% of it, with requests still due: this policy "
            "cannot keep up with this rate (repeats counts the requests served, and "
            "latency_p99_s only theirs)";
      } else if (!ok)
        r.f["note"] = std::isfinite(v("measured_w")) ? "the model could not predict this rate"
                                                     : "energy not measured";
      else if (released)
        r.f["note"] = "the release policy: a new backend, set-up and first burst per burst";
      out.push_back(r.done());
    }
  return out;
}

std::vector<Candidate> deploy_candidates(const CsvTable& t, const std::string& origin) {
  std::vector<std::string> missing;
  for (const auto& c : required_deploy_columns())
    if (t.column(c) < 0) missing.push_back(c);
  if (!missing.empty()) {
    std::string list;
    for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
    throw UsageError(origin + " lacks the deploy.csv column(s) " + list +
                     " (is it a deploy.csv written by `edpbench run` with studies: [deploy]?)");
  }
  std::vector<std::string> order;
  std::map<std::string, std::vector<size_t>> items;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const std::string id = item_id(t, r);
    if (!items.count(id)) order.push_back(id);
    items[id].push_back(r);
  }
  std::vector<Candidate> out;
  for (const auto& id : order) {
    const std::vector<size_t>& rows = items[id];
    const size_t r0 = rows.front();
    Candidate keep;
    const std::string mode = t.get(r0, "mode");
    keep.task = deploy_task(t, r0);
    keep.device = t.get(r0, "device");
    keep.point = t.get(r0, "operating_point");
    if (mode == "infer")
      if (const auto b = parse_count(t.get(r0, "batch")); b && *b >= 1 && *b <= 1 << 20)
        keep.batch = static_cast<int>(*b);
    Candidate release = keep;
    release.policy = "release";
    bool has_burst = false, has_cold = false;
    for (const size_t r : rows) {
      if (t.get(r, "status") != "ok") continue;
      const std::string measure = t.get(r, "measure"), state = t.get(r, "state");
      if (const auto g = optional_field(t, r, "gate_delay_s"); g && *g >= 0)
        keep.idle.gate_delay_s = *g;
      if (measure == "idle" && state == "context")
        keep.idle.awake_w = estimate(t, r, "power_w", "power_w_ci95");
      else if (measure == "idle" && state == "gated")
        keep.idle.gated_w = estimate(t, r, "power_w", "power_w_ci95");
      else if (measure == "idle" && state == "host")
        release.idle.awake_w = estimate(t, r, "power_w", "power_w_ci95");
      else if (measure == "burst") {
        keep.burst_j = estimate(t, r, "energy_j", "energy_j_ci95");
        keep.burst_s = estimate(t, r, "time_s", "time_s_ci95");
        if (const auto p = optional_field(t, r, "latency_p99_s")) keep.burst_p99_s = *p;
        has_burst = true;
      } else if (measure == "wake" || measure == "cold") {
        WakeCost w;
        w.idle_s = optional_field(t, r, "idle_s").value_or(NAN);
        w.energy_j = estimate(t, r, "extra_energy_j", "extra_energy_j_ci95");
        w.time_s = estimate(t, r, "extra_time_s", "time_s_ci95");
        if (!std::isfinite(w.idle_s)) continue;
        if (measure == "wake") keep.wake.push_back(w);
        if (measure == "cold") {
          release.wake.push_back(w);
          has_cold = true;
        }
      }
    }
    if (!has_burst) continue;
    // Released, the device idles in the host state up to the gating delay
    // and is gated past it as it is with its context kept: a rail-gated GPU
    // (or the simulated source asleep) is powered down either way.
    release.idle.gate_delay_s = keep.idle.gate_delay_s;
    release.idle.gated_w = keep.idle.gated_w;
    release.burst_j = keep.burst_j;
    release.burst_s = keep.burst_s;
    release.burst_p99_s = keep.burst_p99_s;
    out.push_back(keep);
    if (has_cold) out.push_back(release);
  }
  return out;
}

std::string deploy_task(const CsvTable& t, size_t r) {
  return t.get(r, "mode") == "infer" ? "infer/" + t.get(r, "size")
                                     : "train:" + t.get(r, "workload") + "/" + t.get(r, "size");
}

std::vector<std::string> deploy_tasks(const std::vector<Candidate>& candidates) {
  std::vector<std::string> out;
  for (const auto& c : candidates)
    if (std::find(out.begin(), out.end(), c.task) == out.end()) out.push_back(c.task);
  return out;
}

void check_deploy_values(const CsvTable& t, const std::string& origin) {
  // What each column holds decides its range. Differences (a wake's extra
  // cost over a warm burst, a check's relative error) can fall below zero,
  // and come out at rounding size when the two sides agree; so can a CI.
  // Measured quantities cannot, and no instrument resolves 1e-15 of a watt,
  // joule or second.
  enum class Kind { Measured, Spread, Difference };
  static const std::vector<std::pair<std::string, Kind>> kValues{
      {"idle_s", Kind::Measured},         {"rate_hz", Kind::Measured},
      {"time_s", Kind::Measured},         {"energy_j", Kind::Measured},
      {"power_w", Kind::Measured},        {"predicted_w", Kind::Measured},
      {"latency_p50_s", Kind::Measured},  {"latency_p90_s", Kind::Measured},
      {"latency_p99_s", Kind::Measured},  {"time_s_ci95", Kind::Spread},
      {"energy_j_ci95", Kind::Spread},    {"extra_energy_j_ci95", Kind::Spread},
      {"power_w_ci95", Kind::Spread},     {"predicted_w_ci95", Kind::Spread},
      {"extra_time_s", Kind::Difference}, {"extra_energy_j", Kind::Difference},
      {"error", Kind::Difference},        {"gate_delay_s", Kind::Spread}};
  // One row per measurement: a repeated one would let the later row price
  // the item in silence. Numbers compare as numbers (0.1 and 0.10 alike).
  std::map<std::string, size_t> seen;
  std::map<std::string, size_t> burst_of;  // item -> its warm burst's row
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (t.get(r, "status") != "ok") continue;
    std::string id = item_id(t, r) + t.get(r, "measure") + "\x1f" + t.get(r, "state");
    for (const char* c : {"idle_s", "rate_hz"}) {
      const std::string cell = t.get(r, c);
      const auto v = parse_double(cell);
      id += "\x1f" + (v ? fmt_double(*v) : cell);
    }
    if (t.get(r, "measure") == "burst") burst_of.emplace(item_id(t, r), r);
    if (const auto [at, fresh] = seen.emplace(id, r); !fresh)
      throw UsageError(origin + " lines " + std::to_string(t.line_of(at->second)) + " and " +
                       std::to_string(t.line_of(r)) + ": the same measurement twice (" +
                       t.get(r, "measure") + ", " + t.get(r, "state") + ", " + deploy_task(t, r) +
                       " on " + t.get(r, "device") +
                       "); a deploy.csv has one row per measurement (an edited or concatenated "
                       "file: keep the row of the run you trust)");
  }
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (t.get(r, "status") != "ok") continue;
    const std::string measure = t.get(r, "measure");
    for (const auto& [c, column_kind] : kValues) {
      // A first burst's energy is its window's less the modelled idle around
      // it (report::first_burst_j): a small burst's comes out below zero
      // within the noise.
      const Kind kind = c == "energy_j" && (measure == "wake" || measure == "cold")
                            ? Kind::Difference
                            : column_kind;
      const std::string cell = t.get(r, c);
      std::string why = number_problem(
          cell, {kind == Kind::Difference, kind == Kind::Measured ? kDeployMinMagnitude : 0.0,
                 kDeployMaxMagnitude});
      if (why.empty() && c == "time_s" && measure == "burst" && parse_double(cell) == 0.0)
        why = "a burst that took no time";
      if (!why.empty())
        throw UsageError(origin + " line " + std::to_string(t.line_of(r)) + ": " + c + " = '" +
                         escaped_excerpt(cell, 40) + "' is " + why +
                         " (the deploy study writes no such value: the file was edited or is "
                         "corrupt; run the study again, or correct the cell)");
    }
    // A first burst's extra cost is its own less the warm burst's, as
    // written: the model prices the extra, so an edited one (-0.756 J made
    // a device last 8.3e4 hours) must still be that difference.
    if (measure != "wake" && measure != "cold") continue;
    const auto b = burst_of.find(item_id(t, r));
    if (b == burst_of.end()) continue;
    for (const auto& [extra, own, warm] :
         {std::make_tuple("extra_energy_j", "energy_j", "energy_j"),
          std::make_tuple("extra_time_s", "time_s", "latency_p50_s")}) {
      const auto x = parse_double(t.get(r, extra)), a = parse_double(t.get(r, own)),
                 w = parse_double(t.get(b->second, warm));
      if (!x || !a || !w) continue;
      if (std::fabs(*x - (*a - *w)) > 1e-6 * (std::fabs(*a) + std::fabs(*w)) + 1e-12)
        throw UsageError(origin + " line " + std::to_string(t.line_of(r)) + ": " + extra + " = '" +
                         escaped_excerpt(t.get(r, extra), 40) + "' is not " + own + " " +
                         fmt_double(*a) + " less the warm burst's " + warm + " " + fmt_double(*w) +
                         " (line " + std::to_string(t.line_of(b->second)) +
                         "), as the deploy study writes it: the file was edited or is corrupt; "
                         "run the study again");
    }
  }
}

CsvTable load_deploy_csv(const std::string& path) {
  std::string file = path;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) file = path + "/deploy.csv";
  // Through the one reader of untrusted files: a link, a FIFO, a device or a
  // file beyond the results cap is refused before a byte is read.
  const auto text = read_untrusted_file_if_present(file, file_kind::results_csv);
  if (!text)
    throw UsageError(
        "cannot open " + file + ": " + std::strerror(ENOENT) +
        " (expected the deploy.csv of a run with studies: [deploy], or its directory)");
  if (text->empty()) throw UsageError(file + " is empty (no header, no rows)");
  CsvTable t;
  try {
    t = parse_csv(*text, file);
  } catch (const std::runtime_error& e) {
    throw UsageError(std::string("malformed deploy file: ") + e.what());
  }
  deploy_candidates(t, file);  // checks the columns
  check_deploy_values(t, file);
  return t;
}

}  // namespace edp::report
