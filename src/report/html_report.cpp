// The HTML report. It is built from the files alone (results.csv, runs.csv,
// context.json) so it can be made on any machine after the sweep, and it
// carries everything inline so it can be mailed or archived as one file.
#include "report/html_report.h"
#include "report/columns.h"

#include "common/text.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "common/atomic_file.h"
#include "common/errors.h"
#include "common/safe_file.h"
#include "report/compare.h"
#include "report/html_sections.h"
#include "report/html_util.h"
#include "report/recommend.h"
#include "report/study_view.h"

namespace edp::report {

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    // A bidirectional control in a name from a file would show the page's
    // text after it reordered (Trojan Source): shown as \uNNNN instead.
    char32_t bidi = 0;
    if (const std::size_t n = bidi_control_at(text, i, &bidi); n > 0) {
      char buf[12];
      std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(bidi));
      out += buf;
      i += n - 1;
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string report_css() {
  return R"(body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; color: #222;
max-width: 1180px; margin: 20px auto; padding: 0 12px; font-size: 14px; line-height: 1.4; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 28px 0 8px; border-bottom: 2px solid #ddd; padding-bottom: 3px; }
.sub { color: #555; margin: 0 0 12px; }
.chips span { display: inline-block; background: #f0f2f5; border-radius: 10px; padding: 2px 10px;
margin: 0 6px 6px 0; font-size: 13px; }
.notice { border-left: 4px solid #d9a400; background: #fff8e1; padding: 8px 12px; margin: 8px 0; }
.notice.info { border-color: #3b6fd4; background: #eef3fc; }
.wide { overflow-x: auto; }
figure { margin: 10px 0 18px; }
figcaption { color: #555; font-size: 13px; }
svg.chart { max-width: 100%; height: auto; border: 1px solid #e4e4e4; }
table { border-collapse: collapse; margin: 6px 0 12px; font-size: 12px; }
table.results td, table.results th { padding: 3px 5px; }
table.results td:last-child { min-width: 9em; }
table.results .note { font-size: 11px; }
th, td { border: 1px solid #ddd; padding: 3px 7px; text-align: left; vertical-align: top; }
th { background: #f3f4f6; }
td.nowrap { white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.failed td { background: #fdecec; } tr.skipped td { background: #f4f4f4; color: #666; }
.choice { font-weight: bold; padding: 1px 8px; border-radius: 8px; color: #fff; }
.choice.cpu { background: #3b6fd4; } .choice.gpu { background: #6aa300; }
.choice.none, .choice.undecided { background: #888; }
.note { color: #555; font-size: 12px; }
table.kv th { width: 170px; font-weight: normal; color: #444; }
table.kv table.kv { margin: 0; }
ol.compact { margin: 0; padding-left: 20px; }
pre { background: #f6f7f9; padding: 6px 8px; font-size: 12px; white-space: pre-wrap;
margin: 4px 0; }
details summary { cursor: pointer; color: #3b6fd4; }
.pair { display: flex; flex-wrap: wrap; gap: 8px; }
.pair figure { margin: 4px 0; }
table.pivot caption { text-align: left; font-weight: bold; padding: 4px 0; }
footer { margin: 30px 0 10px; color: #777; font-size: 12px; border-top: 1px solid #ddd;
padding-top: 6px; }
@media (max-width: 700px) {
table { display: block; overflow-x: auto; max-width: 100%; }
figure { overflow-x: auto; }
svg.chart { max-width: none; width: 680px; }
}
)";
}

namespace {

using namespace html;

bool is_dir(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string base_name(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

class Page {
 public:
  Page(const ReportData& d, const StudyViews& studies) : d_(d), studies_(studies) {
    const CsvTable& t = d_.results;
    for (size_t r = 0; r < t.rows.size(); ++r) {
      add_unique(workloads_, t.get(r, col::workload));
      add_unique(sizes_, t.get(r, col::size));
      add_unique(devices_, t.get(r, col::device));
      const std::string st = t.get(r, col::status);
      ++status_count_[st];
      if (st == "ok" && number(t.get(r, col::energy_j_mean))) energy_measured_ = true;
      add_unique(power_sources_, t.get(r, col::power_source));
      add_unique(rails_, t.get(r, col::energy_rails));
    }
  }

  std::string render() {
    std::string h;
    h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    h += "<title>edpbench report: " + html_escape(d_.title) + "</title>\n";
    h += "<style>\n" + report_css() + "</style>\n</head>\n<body>\n";
    h += header();
    h += notices();
    h += study_sections();
    // The power timeline (samples.csv, `run --timeline`), whatever the study.
    h += render_timeline_section(d_);
    h += failures();
    h += render_context_section(d_);
    h += "<footer>Generated by <code>edpbench report</code> from results.csv" +
         std::string(d_.runs ? ", runs.csv" : "") +
         std::string(d_.context ? ", context.json" : "") +
         ". Self-contained: inline CSS and SVG, no scripts, no network access.</footer>\n";
    h += "</body>\n</html>\n";
    return h;
  }

 private:
  // Each study's section (study_view.h), in the registry's order, then the
  // studies results.csv holds that no view describes (the monitor's rows);
  // each gets only its own rows and is empty when they (or its file) are
  // absent. Several results sections name their study in headings and ids.
  std::string study_sections() const {
    const std::vector<StudyView> views = studies_.on_page(d_.results);
    std::vector<ReportData> rows;
    size_t results_sections = 0;
    for (const StudyView& v : views) {
      ReportData r;
      r.title = d_.title;
      r.dir = d_.dir;
      r.context = d_.context;
      r.run_context = d_.run_context;
      r.results = rows_of_study(d_.results, v.study);
      if (d_.runs) r.runs = rows_of_study(*d_.runs, v.study);
      if (v.section_name == "results" && !r.results.rows.empty()) ++results_sections;
      rows.push_back(std::move(r));
    }
    std::string h;
    for (size_t i = 0; i < views.size(); ++i)
      if (views[i].section)
        h += views[i].section(rows[i], results_sections > 1 && views[i].section_name == "results"
                                           ? views[i].study
                                           : std::string());
    return h;
  }

  std::string header() {
    std::string h = "<h1>edpbench report: " + html_escape(d_.title) + "</h1>\n";
    std::vector<std::string> sub;
    if (const auto& c = d_.run_context) {
      if (!c->edpbench_version.empty()) sub.push_back("edpbench " + c->edpbench_version);
      if (const std::string model = c->board_model(); !model.empty()) sub.push_back(model);
      if (!c->start_time.empty() || !c->end_time.empty())
        sub.push_back((c->start_time.empty() ? "?" : c->start_time) + " \xE2\x86\x92 " +
                      (c->end_time.empty() ? "?" : c->end_time));
    }
    if (!sub.empty()) {
      std::string line;
      for (const auto& x : sub) line += (line.empty() ? "" : " \xC2\xB7 ") + html_escape(x);
      h += "<p class=\"sub\">" + line + "</p>\n";
    }
    h += "<div class=\"chips\">";
    h += "<span>" + std::to_string(d_.results.rows.size()) + " configurations</span>";
    for (const char* st : {"ok", "failed", "skipped"})
      if (status_count_.count(st))
        h += "<span>" + std::to_string(status_count_.at(st)) + " " + st + "</span>";
    h += "<span>workloads: " + html_escape(join(workloads_)) + "</span>";
    h += "<span>sizes: " + html_escape(join(sizes_)) + "</span>";
    h += "<span>devices: " + html_escape(join(devices_)) + "</span>";
    if (!power_sources_.empty())
      h += "<span>power source: " + html_escape(join(power_sources_)) + "</span>";
    if (!rails_.empty()) h += "<span>energy rails: " + html_escape(join(rails_)) + "</span>";
    h += "</div>\n";
    return h;
  }

  size_t count_rows(const std::function<bool(size_t)>& pred) const {
    size_t n = 0;
    for (size_t r = 0; r < d_.results.rows.size(); ++r)
      if (pred(r)) ++n;
    return n;
  }

  std::string notices() {
    const CsvTable& t = d_.results;
    std::string h;
    if (!status_count_.count("ok")) {
      h += std::string("<p class=\"notice\"><b>") +
           (t.rows.empty() ? "results.csv has no configurations"
                           : "No configuration finished successfully") +
           "</b>: there is nothing to plot or recommend.</p>\n";
    } else if (!energy_measured_) {
      h += "<p class=\"notice\"><b>Energy was not measured</b> (power source: " +
           html_escape(power_sources_.empty() ? std::string("none") : join(power_sources_)) +
           "): the figures show time only, and the recommendation below is by time. "
           "Run with a power sensor (<code>power.source</code>) for energy and EDP.</p>\n";
    }
    for (const auto& w : d_.warnings) h += "<p class=\"notice\">" + html_escape(w) + "</p>\n";
    const size_t diverged = count_rows([&](size_t r) { return truthy(t.get(r, col::diverged)); });
    if (diverged)
      h += "<p class=\"notice info\">" + std::to_string(diverged) +
           " configuration(s) diverged (the loss became inf/NaN, as in the paper's setting): their "
           "times and energies are valid measurements, their final losses are not.</p>\n";
    const size_t low = count_rows([&](size_t r) {
      const auto runs = number(t.get(r, col::low_confidence_runs));
      return truthy(t.get(r, col::low_confidence)) || (runs && *runs > 0);
    });
    if (low)
      h += "<p class=\"notice info\">" + std::to_string(low) +
           " configuration(s) are marked low confidence: a run lasted fewer than 10 sensor "
           "updates, so their energy rests on few samples.</p>\n";
    const size_t throttled = count_rows([&](size_t r) {
      const auto v = number(t.get(r, col::throttled_runs));
      return v && *v > 0;
    });
    if (throttled)
      h += "<p class=\"notice info\">" + std::to_string(throttled) +
           " configuration(s) had runs whose clocks fell below nominal (throttling); see the "
           "Flags column.</p>\n";
    const size_t disturbed = count_rows([&](size_t r) {
      const auto v = number(t.get(r, col::disturbed_runs));
      return v && *v > 0;
    });
    if (disturbed)
      h += "<p class=\"notice\">" + std::to_string(disturbed) +
           " configuration(s) had disturbed runs: their threads waited for a CPU, or the sampler "
           "ran late, because other work shared the machine. Their times and energies include "
           "that work; measure again on a quiet machine (runs.csv has preempted_share and "
           "others_cpu_share per run).</p>\n";
    return h;
  }

  // The ok row of (workload, size, device), else any row of it; -1 if none.
  std::string failures() {
    const CsvTable& t = d_.results;
    std::string items;
    for (size_t r = 0; r < t.rows.size(); ++r) {
      const std::string status = t.get(r, col::status);
      if (status == "ok") continue;
      const std::string note = t.get(r, col::note);
      items += "<li><b>" + html_escape(t.get(r, col::workload) + "/" + t.get(r, col::size)) +
               "</b> on " + html_escape(t.get(r, col::device)) + ": " + html_escape(status) +
               (note.empty() ? std::string(" (no note)") : " \xE2\x80\x94 " + html_escape(note)) +
               "</li>\n";
    }
    std::string h = "<h2>Failed and skipped configurations</h2>\n";
    if (items.empty()) return h + "<p>None: every configuration ran.</p>\n";
    return h + "<ul class=\"failures\">\n" + items + "</ul>\n";
  }

  const ReportData& d_;
  const StudyViews& studies_;
  std::vector<std::string> workloads_, sizes_, devices_, power_sources_, rails_;
  std::map<std::string, size_t> status_count_;
  bool energy_measured_ = false;
};

}  // namespace

ReportData load_report_data(const std::string& dir) {
  if (!is_dir(dir)) throw UsageError("results directory " + dir + " does not exist");
  ReportData d;
  d.dir = dir;
  char resolved[PATH_MAX];
  d.title = base_name(::realpath(dir.c_str(), resolved) ? std::string(resolved) : dir);
  const std::string results = dir + "/results.csv";
  if (!path_present(results))
    throw UsageError("no results.csv in " + dir + "; pass the --out directory of `edpbench run`");
  d.results = load_results_csv(results);

  // Presence by lstat: a link (even dangling), a FIFO or a device goes to the
  // reader, which refuses it (exit 2) instead of following or skipping it.
  const std::string runs = dir + "/runs.csv";
  if (path_present(runs)) {
    try {
      d.runs = read_csv_file(runs);
    } catch (const UsageError&) {
      throw;
    } catch (const std::exception& e) {
      d.warnings.push_back(std::string("runs.csv is unreadable, per-run ranges are left out: ") +
                           e.what());
    }
  } else {
    d.warnings.push_back("no runs.csv in " + dir + ": per-run ranges are left out");
  }

  const std::string context = dir + "/context.json";
  if (path_present(context)) {
    try {
      d.context = read_json_file(context);
      d.run_context = run_context_from_json(d.context->to_text());
    } catch (const UsageError&) {
      throw;
    } catch (const std::exception& e) {
      d.warnings.push_back(std::string("context.json is unreadable, the context is left out: ") +
                           e.what());
    }
  } else {
    d.warnings.push_back("no context.json in " + dir + ": the run context is left out");
  }
  return d;
}

std::string render_html_report(const ReportData& data, const StudyViews& studies) {
  return Page(data, studies).render();
}

ReportSummary write_html_report(const std::string& dir, const std::string& out_path,
                                const StudyViews& studies) {
  const ReportData data = load_report_data(dir);
  // runs.csv must belong to results.csv, as compare requires (issue 33: a
  // runs.csv of another sweep was drawn as this one's ranges).
  if (data.runs && !data.results.rows.empty()) make_sweep(data);
  write_file_atomic(out_path, render_html_report(data, studies));
  return {data.results.rows.size(), data.warnings};
}

}  // namespace edp::report
