#include "report/speedup.h"

#include <algorithm>
#include <cmath>

#include "report/html_escape.h"
#include "report/svg_chart.h"

namespace edp::report {

SpeedupTable speedup_table(const std::vector<SpeedupRow>& rows) {
  SpeedupTable out;
  std::vector<std::string> modes;
  std::map<std::pair<std::string, std::string>, double> best;
  for (const auto& r : rows) {
    if (!(r.time_s > 0) || !std::isfinite(r.time_s)) continue;
    if (std::find(out.labels.begin(), out.labels.end(), r.label) == out.labels.end())
      out.labels.push_back(r.label);
    if (std::find(modes.begin(), modes.end(), r.mode) == modes.end()) modes.push_back(r.mode);
    auto [it, fresh] = best.try_emplace({r.label, r.mode}, r.time_s);
    if (!fresh) it->second = std::min(it->second, r.time_s);
  }
  auto rank = [](const std::string& m) {
    if (m == "reference") return 0;
    if (m == "cpu") return 1;
    if (m == "gpu") return 2;
    return 3;
  };
  std::stable_sort(modes.begin(), modes.end(),
                   [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
  for (size_t i = 0; i < modes.size(); ++i)
    for (size_t j = i + 1; j < modes.size(); ++j) {
      const size_t index = out.pairs.size();
      bool any = false;
      for (const auto& label : out.labels) {
        const auto a = best.find({label, modes[i]});
        const auto b = best.find({label, modes[j]});
        if (a == best.end() || b == best.end()) continue;
        out.ratio[{label, index}] = a->second / b->second;
        any = true;
      }
      if (any) out.pairs.emplace_back(modes[i], modes[j]);
    }
  // Drop labels without any ratio (measured in one mode only).
  std::vector<std::string> labels;
  for (const auto& label : out.labels)
    for (size_t p = 0; p < out.pairs.size(); ++p)
      if (out.ratio.count({label, p})) {
        labels.push_back(label);
        break;
      }
  out.labels = labels;
  return out;
}

std::string render_speedup_html(const SpeedupTable& table, const std::string& label_header) {
  if (table.pairs.empty()) return "";
  std::string h = "<table class=\"speedup\">\n<tr><th>" + html_escape(label_header) + "</th>";
  for (const auto& [a, b] : table.pairs)
    h += "<th>" + html_escape(b) + " vs " + html_escape(a) + "</th>";
  h += "</tr>\n";
  for (const auto& label : table.labels) {
    h += "<tr><td>" + html_escape(label) + "</td>";
    for (size_t p = 0; p < table.pairs.size(); ++p) {
      const auto it = table.ratio.find({label, p});
      h += "<td class=\"num\">" +
           (it == table.ratio.end() ? std::string("\xE2\x80\x94")
                                    : html_escape(format_number(it->second, 3) + "\xC3\x97")) +
           "</td>";
    }
    h += "</tr>\n";
  }
  return h + "</table>\n";
}

}  // namespace edp::report
