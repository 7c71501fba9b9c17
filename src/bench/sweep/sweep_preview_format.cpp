// The text and JSON forms of a sweep's preview (see sweep_preview.h): what
// `edpbench plan` prints and `plan --json` writes, one content in two forms.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/engine/rules.h"
#include "bench/sweep/sweep_preview.h"
#include "common/json.h"
#include "common/text.h"

namespace edp::bench {

namespace {

// The widest line plan prints (issue 35: its tables were ~250 columns).
constexpr size_t kWidth = 120;

std::string seconds(double v) {
  if (std::isnan(v)) return "unknown";
  if (v == 0) return "0 s";
  if (v < 1e-3) return fmt("%.3g us", v * 1e6);
  if (v < 1) return fmt("%.3g ms", v * 1e3);
  return fmt("%.3g s", v);
}

std::string duration(double v) {
  if (std::isnan(v)) return "unknown";
  if (v < 60) return seconds(v);
  const long t = std::lround(v);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%ldh %02ldm %02lds (%.0f s)", t / 3600, t / 60 % 60, t % 60, v);
  return buf;
}

// Columns padded to their widest cell, two spaces apart, each line indented.
std::string table(const std::vector<std::vector<std::string>>& rows, const std::string& indent) {
  std::vector<size_t> width;
  for (const auto& r : rows)
    for (size_t c = 0; c < r.size(); ++c) {
      if (width.size() <= c) width.push_back(0);
      width[c] = std::max(width[c], r[c].size());
    }
  std::string out;
  for (const auto& r : rows) {
    std::string line = indent;
    for (size_t c = 0; c < r.size(); ++c) {
      line += r[c];
      if (c + 1 < r.size()) line += std::string(width[c] - r[c].size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string or_dash(const std::string& s) { return s.empty() ? "-" : s; }
std::string threads_text(int t) { return t < 0 ? "-" : std::to_string(t); }

std::string json_array(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
  return out + "]";
}

std::string json_strings(const std::vector<std::string>& v) {
  std::vector<std::string> q;
  for (const auto& s : v) q.push_back(json_string(s));
  return json_array(q);
}

}  // namespace

namespace {

// Lines of `text` broken at spaces so that each, with `indent` before it,
// fits in `width` columns; a continuation is indented two more. A word
// longer than the width stays whole.
std::string wrapped(const std::string& text, const std::string& indent, size_t width = kWidth) {
  std::string out, line = indent;
  bool fresh = true;  // nothing but the indent on `line` yet
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = std::min(text.find(' ', at), text.size());
    const std::string word = text.substr(at, end - at);
    at = end + 1;
    if (word.empty()) continue;
    if (!fresh && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = indent + "  ";
      fresh = true;
    }
    line += (fresh ? "" : " ") + word;
    fresh = false;
  }
  return out + line + "\n";
}

// Reasons stated once: each long reason (a device skipped, a backend that
// cannot start, a calibration that failed) gets a number where it is used
// ("skipped [1]") and its text once below the tables.
class Footnotes {
 public:
  std::string mark(const std::string& what, const std::string& why) {
    auto it = std::find(reasons_.begin(), reasons_.end(), why);
    if (it == reasons_.end()) it = reasons_.insert(reasons_.end(), why);
    return what + " [" + std::to_string(it - reasons_.begin() + 1) + "]";
  }
  std::string text() const {
    std::string out;
    for (size_t i = 0; i < reasons_.size(); ++i) {
      const std::string head = "  [" + std::to_string(i + 1) + "] ";
      const std::string body = wrapped(reasons_[i], std::string(head.size(), ' '));
      out += head + body.substr(head.size());
    }
    return out;
  }

 private:
  std::vector<std::string> reasons_;
};

// "1m02s", "3h05m", "45 s", "120 ms": short enough for a table cell.
std::string short_duration(double v) {
  if (std::isnan(v)) return "unknown";
  if (v < 60) return seconds(v);
  const long t = std::lround(v);
  char buf[32];
  if (t >= 3600)
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, t / 60 % 60);
  else
    std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
  return buf;
}

// "skipped: gpu 0 unavailable: ..." -> "skipped [1]"; "" -> "-".
std::string status_cell(const std::string& status, Footnotes& notes) {
  for (const char* kind : {"skipped", "cannot start"}) {
    const std::string prefix = std::string(kind) + ": ";
    if (status.rfind(prefix, 0) == 0) return notes.mark(kind, status.substr(prefix.size()));
  }
  return or_dash(status);
}

}  // namespace

std::string format_preview(const SweepPreview& sum, bool verbose) {
  Footnotes notes;
  std::string out = "plan of " + (sum.config_path.empty() ? "the config" : sum.config_path) + "\n";
  std::string platform = "platform: " + or_dash(sum.board);
  if (!sum.soc.empty()) platform += ", " + sum.soc;
  if (!sum.l4t.empty()) platform += ", L4T " + sum.l4t;
  if (!sum.nvpmodel.empty()) platform += ", nvpmodel " + sum.nvpmodel;
  out += wrapped(platform + ", " + std::to_string(sum.online_cpus) + " online CPUs", "");

  out += "power source: " + sum.source + "\n";
  if (verbose || !sum.measures_energy)
    for (const auto& l : sum.discovery_log) out += wrapped(l, "  ");
  if (sum.measures_energy) {
    const std::string why = sum.total_rails_why.empty() ? "energy = " + join_rails(sum.total_rails)
                                                        : sum.total_rails_why;
    // The first line always ("energy = VDD_IN (total_rails: auto)"); how
    // they were chosen with -v.
    for (size_t at = 0; at < why.size();) {
      const size_t end = std::min(why.find('\n', at), why.size());
      const std::string line = why.substr(at, end - at);
      const size_t lead = line.find_first_not_of(' ');
      out += wrapped(line.substr(lead == std::string::npos ? 0 : lead),
                     "  " + std::string(lead == std::string::npos ? 0 : lead, ' '));
      at = end + 1;
      if (!verbose) break;
    }
    if (!sum.rail_timing.empty()) {
      std::vector<std::vector<std::string>> t{{"rail", "sensor", "timing", "averaging"}};
      for (const auto& r : sum.rail_timing)
        t.push_back({r.rail, r.sensor, r.timing,
                     r.averaging_s > 0 ? seconds(r.averaging_s) : "not stated"});
      out += table(t, "  ");
    }
  } else {
    out += "energy: not measured (times only)\n";
  }
  out += wrapped("update interval: " +
                     (std::isnan(sum.update_interval_s) ? std::string("unknown")
                                                        : seconds(sum.update_interval_s)) +
                     " (" + sum.update_interval_how + ")",
                 "");

  out += "devices:\n";
  std::vector<std::vector<std::string>> d{{"device", "workload", "threads", "cpus", "calibrated on",
                                           "step", "GFLOP/s", "set-up", "status"}};
  for (const auto& r : sum.devices) {
    std::string status = or_dash(r.note);
    if (!r.skipped.empty())
      status = notes.mark("skipped", r.skipped);
    else if (!r.cannot_start.empty())
      status = notes.mark("cannot start", r.cannot_start);
    else if (!r.note.empty())
      status = notes.mark("note", r.note);
    d.push_back({r.device, or_dash(r.workload), threads_text(r.threads), or_dash(r.cpus),
                 or_dash(r.item), std::isnan(r.step_s) ? "-" : seconds(r.step_s),
                 std::isnan(r.gflops) ? "-" : fmt("%.3g", r.gflops),
                 std::isnan(r.setup_s) ? "-" : seconds(r.setup_s), status});
  }
  out += table(d, "  ");

  // One line per item, in run's order: its label (workload/size/device, or
  // the study's own; @point at an operating point) stands for its key,
  // which plan --json gives.
  out += "items (" + std::to_string(sum.rows.size()) + ", in the order run measures them):\n";
  std::vector<std::vector<std::string>> t{{"#", "item", "threads", "steps", "runs", "step",
                                           "window", "sized by", "updates", "low conf", "time",
                                           "status"}};
  for (size_t i = 0; i < sum.rows.size(); ++i) {
    const PreviewRow& r = sum.rows[i];
    const std::string item = (r.label.empty() ? r.key : r.label) +
                             (r.operating_point.empty() ? std::string() : "@" + r.operating_point);
    t.push_back({std::to_string(i + 1), item, threads_text(r.threads), std::to_string(r.steps),
                 std::to_string(r.runs), std::isnan(r.step_s) ? "?" : seconds(r.step_s),
                 std::isnan(r.window_s) ? "?" : seconds(r.window_s),
                 r.blocks > 1 ? r.window_rule + " x" + std::to_string(r.blocks) : r.window_rule,
                 std::isnan(r.updates) ? "-" : fmt("%.3g", r.updates), or_dash(r.low_confidence),
                 short_duration(r.item_s), status_cell(r.status, notes)});
  }
  out += table(t, "  ");
  out += notes.text();

  std::string estimate = "estimate: " + std::to_string(sum.items) + " item(s) to measure";
  if (sum.items_skipped) estimate += ", " + std::to_string(sum.items_skipped) + " skipped";
  if (sum.items_failing)
    estimate += ", " + std::to_string(sum.items_failing) + " that cannot start (see the problems)";
  if (sum.items_done) estimate += ", " + std::to_string(sum.items_done) + " done";
  estimate += "; " + std::to_string(sum.total_runs) + " run(s), " +
              std::to_string(sum.low_confidence_runs) + " low confidence (< " +
              fmt("%g", kMinUpdatesPerWindow) + " sensor updates)";
  out += wrapped(estimate, "");
  std::vector<std::vector<std::string>> e{
      {"windows", duration(sum.windows_s)},
      {"warm-up", duration(sum.warmup_s)},
      {"set-up", duration(sum.setup_s)},
      {"baselines", duration(sum.baselines_s) + " (" + std::to_string(sum.baselines) + ")"},
      {"lag tail", duration(sum.lag_tail_s)},
      {"cooldown", duration(sum.cooldown_s)},
      {"total", duration(sum.total_s)}};
  out += table(e, "  ");
  for (const auto& n : sum.notes) out += wrapped("note: " + n, "");
  // The problems are not repeated here: `plan` prints them once, as its
  // error (and plan --json lists them).
  return out;
}

std::string preview_json(const SweepPreview& sum) {
  JsonObject platform;
  platform.set("board", sum.board)
      .set("soc", sum.soc)
      .set("l4t", sum.l4t)
      .set("nvpmodel", sum.nvpmodel)
      .set("online_cpus", sum.online_cpus);
  std::vector<std::string> rails;
  for (const auto& r : sum.rail_timing) {
    JsonObject o;
    o.set("rail", r.rail).set("sensor", r.sensor).set("timing", r.timing);
    o.set("averaging_s", r.averaging_s > 0 ? r.averaging_s : static_cast<double>(NAN));
    rails.push_back(o.str(0));
  }
  JsonObject power;
  power.set("source", sum.source)
      .set("measures_energy", sum.measures_energy)
      .set_raw("discovery_log", json_strings(sum.discovery_log))
      .set_raw("total_rails", json_strings(sum.total_rails))
      .set("total_rails_why", sum.total_rails_why)
      .set_raw("rail_timing", json_array(rails))
      .set("update_interval_s", sum.update_interval_s)
      .set("update_interval_how", sum.update_interval_how)
      .set("update_interval_state", sum.interval_state);
  std::vector<std::string> devices;
  for (const auto& d : sum.devices) {
    JsonObject o;
    o.set("device", d.device)
        .set("workload", d.workload)
        .set("threads", d.threads < 0 ? static_cast<double>(NAN) : d.threads)
        .set("cpus", d.cpus)
        .set("calibrated_on", d.item)
        .set("step_s", d.step_s)
        .set("gflops", d.gflops)
        .set("setup_s", d.setup_s)
        .set("skipped", d.skipped)
        .set("cannot_start", d.cannot_start)
        .set("note", d.note);
    devices.push_back(o.str(0));
  }
  std::vector<std::string> items;
  for (const auto& r : sum.rows) {
    JsonObject o;
    o.set("study", r.study)
        .set("key", r.key)
        .set("label", r.label)
        .set("device", r.device)
        .set("threads", r.threads < 0 ? static_cast<double>(NAN) : r.threads)
        .set("operating_point", r.operating_point)
        .set("steps", r.steps)
        .set("runs", r.runs)
        .set("warmup_steps", r.warmup)
        .set("parts", static_cast<int>(r.parts))
        .set("step_s", r.step_s)
        .set("window_s", r.window_s)
        .set("blocks", r.blocks > 0 ? r.blocks : static_cast<double>(NAN))
        .set("window_rule", r.window_rule)
        .set("updates_per_window", r.updates)
        .set("low_confidence", r.low_confidence)
        .set("item_s", r.item_s)
        .set("status", r.status);
    items.push_back(o.str(0));
  }
  JsonObject est;
  est.set("items", sum.items)
      .set("items_skipped", sum.items_skipped)
      .set("items_done", sum.items_done)
      .set("runs", sum.total_runs)
      .set("low_confidence_runs", sum.low_confidence_runs)
      .set("windows_s", sum.windows_s)
      .set("warmup_s", sum.warmup_s)
      .set("setup_s", sum.setup_s)
      .set("baselines", sum.baselines)
      .set("baselines_s", sum.baselines_s)
      .set("lag_tail_s", sum.lag_tail_s)
      .set("cooldown_s", sum.cooldown_s)
      .set("total_s", sum.total_s)
      .set_raw("notes", json_strings(sum.notes));
  JsonObject root;
  root.set("config", sum.config_path)
      .set("platform", platform)
      .set("power", power)
      .set_raw("devices", json_array(devices))
      .set_raw("items", json_array(items))
      .set("estimate", est)
      .set_raw("problems", json_strings(sum.problems));
  return root.str() + "\n";
}

}  // namespace edp::bench
