// The stages section (see html_stages.h): per configuration a stacked bar of
// the time share per stage (inline SVG), a table of time, energy with its
// 95% CI, GFLOP/s and compute efficiency, and the memory per tensor.
#include "report/html_stages.h"
#include "report/columns.h"

#include <exception>
#include <map>
#include <sstream>
#include <vector>

#include "common/errors.h"
#include "common/safe_file.h"
#include "report/csv.h"
#include "report/svg_chart.h"

namespace edp::report {
namespace {

// lstat: a planted link goes to the reader, which refuses it.
bool exists(const std::string& p) { return path_present(p); }

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<')
      o += "&lt;";
    else if (c == '>')
      o += "&gt;";
    else if (c == '&')
      o += "&amp;";
    else if (c == '"')
      o += "&quot;";
    else
      o += c;
  }
  return o;
}

std::string formatted(const std::string& s, int significant = 3) {
  auto v = parse_double(s);
  return v ? format_number(*v, significant) : "";
}

// Rows of `t` grouped by key, in first-seen order.
std::vector<std::pair<std::string, std::vector<size_t>>> by_key(const CsvTable& t) {
  std::vector<std::pair<std::string, std::vector<size_t>>> groups;
  std::map<std::string, size_t> index;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const std::string k = t.get(r, col::key);
    auto it = index.find(k);
    if (it == index.end()) {
      index[k] = groups.size();
      groups.push_back({k, {}});
      it = index.find(k);
    }
    groups[it->second].second.push_back(r);
  }
  return groups;
}

std::string label(const CsvTable& t, size_t r) {
  std::string l =
      t.get(r, col::workload) + " / " + t.get(r, col::size) + " / " + t.get(r, col::device);
  if (!t.get(r, col::relu).empty()) l += " / relu " + t.get(r, col::relu);
  return l;
}

const char* kStages[] = {"forward", "backward", "update", "loss_readback"};
const char* kColors[] = {"#4878d0", "#ee854a", "#6acc64", "#956cb4"};

// One horizontal stacked bar per configuration: the time share per stage.
std::string share_chart(const CsvTable& t,
                        const std::vector<std::pair<std::string, std::vector<size_t>>>& groups) {
  const int row_h = 26, label_w = 330, bar_w = 560, top = 30;
  const int height = top + row_h * static_cast<int>(groups.size()) + 10;
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << label_w + bar_w + 20
    << "\" height=\"" << height << "\" role=\"img\" aria-label=\"time share per stage\">\n";
  for (int i = 0; i < 4; ++i)
    o << "<rect x=\"" << label_w + i * 140 << "\" y=\"6\" width=\"12\" height=\"12\" fill=\""
      << kColors[i] << "\"/><text x=\"" << label_w + i * 140 + 16 << "\" y=\"16\" font-size=\"12\">"
      << kStages[i] << "</text>\n";
  int y = top;
  for (const auto& [key, rows] : groups) {
    o << "<text x=\"" << label_w - 6 << "\" y=\"" << y + 16
      << "\" font-size=\"12\" text-anchor=\"end\">" << esc(label(t, rows.front())) << "</text>\n";
    double x = label_w;
    for (int i = 0; i < 4; ++i)
      for (size_t r : rows) {
        if (t.get(r, col::stage) != kStages[i]) continue;
        auto share = parse_double(t.get(r, col::share));
        if (!share || *share <= 0) continue;
        const double w = *share * bar_w;
        o << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << w << "\" height=\""
          << row_h - 6 << "\" fill=\"" << kColors[i] << "\"><title>" << kStages[i] << ": "
          << format_number(100 * *share) << "%</title></rect>\n";
        x += w;
      }
    if (x == label_w)
      o << "<text x=\"" << label_w + 4 << "\" y=\"" << y + 16
        << "\" font-size=\"12\" fill=\"#888\">not profiled</text>\n";
    y += row_h;
  }
  o << "</svg>\n";
  return o.str();
}

}  // namespace

std::string render_stages_section(const std::string& dir) {
  if (!exists(dir + "/stages.csv")) return "";
  // A file cut short or edited is said in place of the section (exit 1
  // before); a link, FIFO or device stays refused (UsageError, exit 2).
  const auto unreadable = [](const std::string& file, const std::exception& e) {
    return "<section id=\"stages\">\n<h2>Training stages</h2>\n<p class=\"notice\">" + file +
           " is unreadable: " + esc(e.what()) + "</p>\n</section>\n";
  };
  CsvTable t, m;
  std::string reading = "stages.csv";
  try {
    t = read_csv_file(dir + "/" + reading);
    reading = "memory.csv";
    if (exists(dir + "/" + reading)) m = read_csv_file(dir + "/" + reading);
  } catch (const UsageError&) {
    throw;
  } catch (const std::exception& e) {
    return unreadable(reading, e);
  }
  const auto groups = by_key(t);
  std::ostringstream o;
  o << "<section id=\"stages\">\n<h2>Training stages</h2>\n"
    << "<p>Time per stage from a profiled pass after the measured runs; energy per stage by "
       "differencing whole-protocol measurements of forward, forward_backward and step "
       "(95% CI of a difference: root sum of squares of both CIs). Compute efficiency: "
       "achieved FLOP/s over the nominal peak at the clock read after the runs. See "
       "docs/stages.md.</p>\n";
  o << share_chart(t, groups);
  for (const auto& [key, rows] : groups) {
    o << "<h3>" << esc(label(t, rows.front())) << "</h3>\n<table>\n<tr><th>stage</th><th>time "
      << "(s)</th><th>share</th><th>energy (J)</th><th>GFLOP/s</th><th>CE</th><th>note</th>"
      << "</tr>\n";
    for (size_t r : rows) {
      std::string energy = formatted(t.get(r, col::energy_j));
      if (!energy.empty() && !t.get(r, col::energy_j_ci95).empty())
        energy += " ± " + formatted(t.get(r, col::energy_j_ci95), 2);
      std::string time = formatted(t.get(r, col::time_s));
      if (t.get(r, col::stage) == "step" && !t.get(r, col::time_s_profiled).empty())
        time += " (profiled " + formatted(t.get(r, col::time_s_profiled)) + ")";
      auto share = parse_double(t.get(r, col::share));
      auto ce = parse_double(t.get(r, col::compute_efficiency));
      o << "<tr><td>" << esc(t.get(r, col::stage)) << "</td><td>" << time << "</td><td>"
        << (share ? format_number(100 * *share) + "%" : "") << "</td><td>" << energy << "</td><td>"
        << formatted(t.get(r, col::gflops)) << "</td><td>"
        << (ce ? format_number(100 * *ce) + "%" : "") << "</td><td>" << esc(t.get(r, col::note))
        << "</td></tr>\n";
    }
    o << "</table>\n";
  }
  if (!m.header.empty()) {
    for (const auto& [key, rows] : by_key(m)) {
      o << "<h3>Memory: " << esc(label(m, rows.front())) << "</h3>\n<table>\n<tr><th>tensor</th>"
        << "<th>kind</th><th>bytes (computed)</th><th>bytes (measured)</th><th>note</th></tr>\n";
      for (size_t r : rows)
        o << "<tr><td>" << esc(m.get(r, col::tensor)) << "</td><td>" << esc(m.get(r, col::kind))
          << "</td><td>" << esc(m.get(r, col::bytes_computed)) << "</td><td>"
          << esc(m.get(r, col::bytes_measured)) << "</td><td>" << esc(m.get(r, col::note))
          << "</td></tr>\n";
      o << "</table>\n";
    }
  }
  o << "</section>\n";
  return o.str();
}

}  // namespace edp::report
