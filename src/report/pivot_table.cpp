#include "report/pivot_table.h"
#include "report/columns.h"

#include <cmath>

#include "report/html_escape.h"
#include "report/svg_chart.h"

namespace edp::report {
namespace {

std::optional<double> finite(const std::string& s) {
  const auto v = parse_double(s);
  if (v && std::isfinite(*v)) return v;
  return std::nullopt;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string joined(const CsvTable& t, size_t r, const std::vector<std::string>& cols,
                   const std::string& sep) {
  std::string out;
  for (const auto& c : cols) {
    const std::string v = t.get(r, c);
    if (v.empty()) continue;
    out += (out.empty() ? "" : sep) + v;
  }
  return out;
}

template <class V>
void add_unique(std::vector<V>& v, const V& x) {
  for (const auto& e : v)
    if (e == x) return;
  v.push_back(x);
}

}  // namespace

std::vector<Pivot> make_pivots(const CsvTable& table, const PivotSpec& spec,
                               const std::vector<bool>& keep) {
  std::vector<Pivot> out;
  for (size_t r = 0; r < table.rows.size(); ++r) {
    if (!keep.empty() && (r >= keep.size() || !keep[r])) continue;
    const std::string label = joined(table, r, spec.label_columns, "/");
    Pivot* p = nullptr;
    for (auto& q : out)
      if (q.label == label) p = &q;
    if (!p) {
      out.push_back(Pivot{label, {}, {}, {}});
      p = &out.back();
    }
    const std::string row = joined(table, r, spec.row_columns, " ");
    const std::string col = table.get(r, spec.column_column);
    add_unique(p->rows, row);
    add_unique(p->columns, col);
    PivotCell cell;
    cell.status = table.get(r, col::status);
    if (cell.status.empty() || cell.status == "ok") {
      cell.mean = finite(table.get(r, spec.value_column));
      if (!spec.ci_column.empty()) {
        cell.ci95 = finite(table.get(r, spec.ci_column));
        if (cell.ci95 && *cell.ci95 < 0) cell.ci95.reset();  // damage: shown as no CI
      }
    }
    auto it = p->cells.find({row, col});
    if (it == p->cells.end())
      p->cells.emplace(std::make_pair(row, col), cell);
    else if (!it->second.status.empty() && it->second.status != "ok")
      it->second = cell;
  }
  return out;
}

std::string unit_of(const std::string& column) {
  std::string c = column;
  for (const char* stat : {"_mean", "_median", "_ci95", "_std", "_min"})
    if (ends_with(c, stat)) {
      c.resize(c.size() - std::string(stat).size());
      break;
    }
  if (ends_with(c, "_js")) return "J\xC2\xB7s";
  if (ends_with(c, "_s")) return "s";
  if (ends_with(c, "_j")) return "J";
  if (ends_with(c, "_w")) return "W";
  return "";
}

std::string format_quantity(double v, const std::string& column) {
  const std::string unit = unit_of(column);
  if (unit.empty() || !std::isfinite(v)) return format_number(v);
  if (v == 0) return "0 " + unit;
  static const struct {
    double scale;
    const char* prefix;
  } prefixes[] = {{1e-12, "p"}, {1e-9, "n"}, {1e-6, "\xC2\xB5"}, {1e-3, "m"},
                  {1, ""},      {1e3, "k"},  {1e6, "M"}};
  const double a = std::fabs(v);
  size_t pick = 0;
  for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; ++i)
    if (a >= prefixes[i].scale * 0.9995) pick = i;
  // Seconds above a thousand stay seconds ("2140 s", not "2.14 ks").
  if (unit == "s" && prefixes[pick].scale > 1) pick = 4;
  return format_number(v / prefixes[pick].scale, 3) + " " + prefixes[pick].prefix + unit;
}

std::string format_cell(const PivotCell& cell, const std::string& column) {
  if (!cell.mean) return cell.status.empty() || cell.status == "ok" ? "n/a" : cell.status;
  std::string s = format_quantity(*cell.mean, column);
  if (cell.ci95) s += " \xC2\xB1 " + format_quantity(*cell.ci95, column);
  return s;
}

std::string render_pivot_html(const Pivot& pivot, const PivotSpec& spec,
                              const std::string& row_header) {
  std::string h = "<table class=\"pivot\">\n";
  if (!pivot.label.empty()) h += "<caption>" + html_escape(pivot.label) + "</caption>\n";
  h += "<tr><th>" + html_escape(row_header) + "</th>";
  for (const auto& c : pivot.columns) h += "<th>" + html_escape(c) + "</th>";
  h += "</tr>\n";
  for (const auto& r : pivot.rows) {
    h += "<tr><td>" + html_escape(r) + "</td>";
    for (const auto& c : pivot.columns) {
      const auto it = pivot.cells.find({r, c});
      h += "<td class=\"num\">" +
           (it == pivot.cells.end() ? std::string("\xE2\x80\x94")
                                    : html_escape(format_cell(it->second, spec.value_column))) +
           "</td>";
    }
    h += "</tr>\n";
  }
  return h + "</table>\n";
}

}  // namespace edp::report
