// The report's Context section: what context.json recorded about the board,
// the build, the sensors and the configuration, as key/value tables. Shared by
// the one-sweep report and the cross-board report (one per board).
#include <algorithm>

#include "common/context_schema.h"
#include "report/html_escape.h"
#include "report/html_sections.h"
#include "report/html_util.h"

namespace edp::report {

namespace {

using namespace html;

bool scalar_like(const JsonValue& v) {
  if (v.is_scalar() || v.is_null()) return true;
  if (!v.is_array() || v.array.size() > 16) return false;
  for (const auto& e : v.array)
    if (!e.is_scalar()) return false;
  return true;
}

bool flat_object(const JsonValue& v) {
  if (!v.is_object() || v.object.size() > 10) return false;
  for (const auto& kv : v.object)
    if (!scalar_like(kv.second)) return false;
  return true;
}

// Any JSON value as HTML: small objects of scalars on one line ("id: 0, name:
// MAXN"), several keys sharing one value once ("schedutil (cpu0, cpu1)"),
// larger objects as nested key/value tables, arrays as lists.
std::string json_html(const JsonValue& v) {
  if (v.is_object()) {
    if (v.object.empty()) return "";
    if (v.object.size() > 2) {
      bool same = true;
      for (const auto& kv : v.object)
        same = same && kv.second.is_scalar() && kv.second.to_text() == v.object[0].second.to_text();
      if (same) {
        std::string keys;
        for (const auto& kv : v.object) keys += (keys.empty() ? "" : ", ") + kv.first;
        return html_escape(v.object[0].second.to_text() + " (" + keys + ")");
      }
    }
    if (flat_object(v)) {
      bool lists = false;
      for (const auto& kv : v.object) lists = lists || kv.second.is_array();
      std::string out;
      for (const auto& [k, child] : v.object) {
        std::string text = child.is_null() ? "null" : child.to_text();
        if (child.is_array()) {
          text.clear();
          for (const auto& e : child.array) text += (text.empty() ? "" : ", ") + e.to_text();
        }
        out += (out.empty() ? "" : lists ? "; " : ", ") + k + ": " + text;
      }
      return html_escape(out);
    }
    std::string h = "<table class=\"kv\">";
    for (const auto& [k, child] : v.object)
      h += "<tr><th>" + html_escape(k) + "</th><td>" + json_html(child) + "</td></tr>";
    return h + "</table>";
  }
  if (v.is_array()) {
    bool scalars = true;
    for (const auto& e : v.array) scalars = scalars && !e.is_object() && !e.is_array();
    if (scalars) {
      std::string out;
      for (const auto& e : v.array) out += (out.empty() ? "" : ", ") + e.to_text();
      return html_escape(out);
    }
    std::string h = "<ol class=\"compact\">";
    for (const auto& e : v.array) h += "<li>" + json_html(e) + "</li>";
    return h + "</ol>";
  }
  if (v.type == JsonValue::Type::string && v.string.find('\n') != std::string::npos)
    return "<pre>" + html_escape(v.string) + "</pre>";
  return html_escape(v.to_text());
}

// The value at a context_fields() path ("power.source"), if present and not
// null or empty.
const JsonValue* at_path(const JsonValue& c, const std::string& path) {
  const JsonValue* v = &c;
  size_t start = 0;
  while (v) {
    const size_t dot = path.find('.', start);
    v = v->find(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (v && !v->is_null() && !(v->type == JsonValue::Type::string && v->string.empty())) return v;
  return nullptr;
}

std::string mhz(double value, double per_mhz) { return fmt("%.0f", value / per_mhz) + " MHz"; }

// board.cpus (one object per CPU, as platform::to_json writes it) folded
// into one line per distinct (cluster, governor, clocks):
// "a57 (cpu 0, 3, 4, 5): schedutil, 2035 MHz (max 2035 MHz)".
std::string cpus_summary(const JsonValue& cpus) {
  struct Line {
    std::string cluster, desc, ids;
  };
  std::vector<Line> lines;
  for (const auto& cpu : cpus.array) {
    if (!cpu.is_object()) continue;
    std::string cluster;
    if (auto* v = cpu.find("cluster"); v && !v->is_null()) cluster = v->to_text();
    std::vector<std::string> parts;
    if (auto* v = cpu.find("online"); v && v->type == JsonValue::Type::boolean && !v->boolean)
      parts.push_back("offline");
    if (auto* v = cpu.find("governor"); v && !v->is_null()) parts.push_back(v->to_text());
    const auto* cur = cpu.find("cur_khz");
    const auto* max = cpu.find("max_khz");
    if (cur && cur->type == JsonValue::Type::number)
      parts.push_back(mhz(cur->number, 1e3) + (max && max->type == JsonValue::Type::number
                                                   ? " (max " + mhz(max->number, 1e3) + ")"
                                                   : std::string()));
    const std::string desc = join(parts);
    const auto* id = cpu.find("id");
    const std::string ids = id ? id->to_text() : "?";
    auto it = std::find_if(lines.begin(), lines.end(),
                           [&](const Line& l) { return l.cluster == cluster && l.desc == desc; });
    if (it == lines.end())
      lines.push_back({cluster, desc, ids});
    else
      it->ids += ", " + ids;
  }
  std::string out;
  for (const auto& l : lines) {
    std::string line = l.cluster.empty() ? "cpu " + l.ids : l.cluster + " (cpu " + l.ids + ")";
    if (!l.desc.empty()) line += ": " + l.desc;
    out += (out.empty() ? "" : "<br>") + html_escape(line);
  }
  return out;
}

}  // namespace

std::string render_context_section(const ReportData& d_) {
  std::string h = "<h2>Context</h2>\n";
  if (!d_.context) return h + "<p>No context.json in the results directory.</p>\n";
  const JsonValue& c = *d_.context;
  std::vector<std::pair<std::string, std::string>> rows;  // label, HTML
  auto add = [&](const std::string& label, const JsonValue* v) {
    if (v) rows.emplace_back(label, json_html(*v));
  };
  auto add_text = [&](const std::string& label, const std::string& text) {
    if (!text.empty()) rows.emplace_back(label, html_escape(text));
  };

  // Every key of the schema (common/context_schema.h) in its order, and no
  // other: a few need a rendering of their own, the rest are shown as
  // written. The full document follows at the end.
  for (const ContextField& f : context_fields()) {
    if (f.label.empty()) continue;
    const JsonValue* v = at_path(c, f.path);
    if (!v) continue;
    if (f.path == "complete") {
      if (v->type == JsonValue::Type::boolean)
        add_text(f.label, v->boolean ? "yes" : "no (interrupted; continue with --resume)");
    } else if (f.path == "board.nvpmodel") {
      const JsonValue* mode = v->find("mode");
      const JsonValue* id = v->find("id");
      if (mode && !mode->is_null())
        add_text(f.label,
                 mode->to_text() + (id && !id->is_null() ? " (mode " + id->to_text() + ")" : ""));
    } else if (f.path == "board.cpus") {
      if (v->is_array()) {
        const std::string summary = cpus_summary(*v);
        if (!summary.empty()) rows.emplace_back(f.label, summary);
      }
    } else if (f.path == "board.gpu") {
      if (!v->is_object()) continue;
      std::vector<std::string> parts;
      if (auto* x = v->find("cur_hz"); x && x->type == JsonValue::Type::number)
        parts.push_back(mhz(x->number, 1e6));
      if (auto* x = v->find("max_hz"); x && x->type == JsonValue::Type::number)
        parts.push_back("max " + mhz(x->number, 1e6));
      if (auto* x = v->find("governor"); x && !x->is_null()) parts.push_back(x->to_text());
      // The rail-gating delay the deploy study's idle states follow.
      const JsonValue* gate = v->find("railgate_enable");
      const JsonValue* delay = v->find("railgate_delay_ms");
      if (gate && gate->type == JsonValue::Type::number && gate->number >= 0)
        parts.push_back(gate->number > 0 && delay && delay->type == JsonValue::Type::number
                            ? "rail-gated after " + delay->to_text() + " ms idle"
                            : "rail-gating off");
      add_text(f.label, join(parts));
    } else if (f.path == "board.emc_hz") {
      if (v->type == JsonValue::Type::number) add_text(f.label, mhz(v->number, 1e6));
    } else if (f.path == "board.thermal") {
      if (!v->is_array()) continue;
      std::vector<std::string> zones;
      for (const auto& z : v->array) {
        const JsonValue* type = z.find("type");
        const JsonValue* t = z.find("temp_c");
        if (type && t && t->type == JsonValue::Type::number)
          zones.push_back(type->to_text() + " " + fmt("%.1f", t->number) +
                          " \xC2\xB0"
                          "C");
      }
      add_text(f.label, join(zones));
    } else if (f.path == "backends") {
      // The GPU as the CUDA backend reported it, then every backend's facts.
      if (v->is_object())
        for (const auto& [device, facts] : v->object)
          if (const JsonValue* name = facts.find("gpu")) {
            std::string g = name->to_text();
            if (auto* cc = facts.find("compute_capability")) g += ", compute " + cc->to_text();
            if (auto* sm = facts.find("sm_count")) g += ", " + sm->to_text() + " SMs";
            add_text("GPU (" + device + ")", g);
          }
      add(f.label, v);
    } else {
      add(f.label, v);
    }
  }

  h += "<table class=\"kv context\">\n";
  for (const auto& [label, value] : rows)
    if (!value.empty()) h += "<tr><th>" + html_escape(label) + "</th><td>" + value + "</td></tr>\n";
  h += "</table>\n";

  const JsonValue* baseline = at_path(c, "power.baseline_w");
  if (baseline && baseline->is_object() && !baseline->object.empty()) {
    h += "<h3>Idle baseline power per rail</h3>\n<table class=\"baseline\"><tr><th>Rail</th>"
         "<th>Idle power (W)</th></tr>\n";
    for (const auto& [rail, w] : baseline->object)
      h += "<tr><td>" + html_escape(rail) + "</td><td class=\"num\">" +
           html_escape(w.type == JsonValue::Type::number ? fmt("%.3f", w.number) : w.to_text()) +
           "</td></tr>\n";
    h += "</table>\n";
  } else {
    h += "<p class=\"note\">No idle baseline power recorded.</p>\n";
  }
  if (const JsonValue* y = c.find("config_yaml"); y && y->type == JsonValue::Type::string)
    h += "<details><summary>Configuration (resolved YAML)</summary>\n<pre>" +
         html_escape(y->string) + "</pre>\n</details>\n";
  h += "<details><summary>Full context.json</summary>\n" + json_html(c) + "\n</details>\n";
  return h;
}

}  // namespace edp::report
