// to_json(): the Platform as one JSON object (RFC 8259), for `edpbench probe
// --json` and context.json. Unknown numbers are null. Strings come from files
// the kernel and vendors write (DMI strings can hold any byte), so they are
// escaped and invalid UTF-8 is replaced with U+FFFD.
#include <cmath>
#include <cstdio>
#include <string>

#include "platform/operating_point.h"
#include "platform/platform.h"

namespace edp::platform {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0.
size_t utf8_length(const std::string& s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const auto cont = [&](size_t k) { return k < s.size() && (b(k) & 0xC0) == 0x80; };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(i + 1) || !cont(i + 2)) return 0;
    if (c == 0xE0 && b(i + 1) < 0xA0) return 0;   // overlong
    if (c == 0xED && b(i + 1) >= 0xA0) return 0;  // surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(i + 1) || !cont(i + 2) || !cont(i + 3)) return 0;
    if (c == 0xF0 && b(i + 1) < 0x90) return 0;   // overlong
    if (c == 0xF4 && b(i + 1) >= 0x90) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7F) {
      char buf[8];
      snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else if (c >= 0x80) {
      const size_t n = utf8_length(s, i);
      if (n == 0) {
        out += "\\ufffd";
        ++i;
        continue;
      }
      out.append(s, i, n);
      i += n;
      continue;
    } else {
      out += static_cast<char>(c);
    }
    ++i;
  }
  return out + "\"";
}

std::string number(long v) { return v < 0 ? "null" : std::to_string(v); }

std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string string_or_null(const std::string& s) { return s.empty() ? "null" : quote(s); }

std::string number_list(const std::vector<long>& v) {
  std::string o = "[";
  for (size_t i = 0; i < v.size(); ++i) o += (i ? "," : "") + std::to_string(v[i]);
  return o + "]";
}

// What the board offers for operating points (DESIGN §10): nvpmodel modes and
// the rates each clock lists.
std::string offered_json(const Platform& p) {
  const OfferedPoints off = offered_points(p);
  std::string o = "{\"nvpmodel_modes\":[";
  for (size_t i = 0; i < off.nvpmodel_modes.size(); ++i) {
    o += (i ? ",{\"id\":" : "{\"id\":") + std::to_string(off.nvpmodel_modes[i].first) +
         ",\"name\":" + quote(off.nvpmodel_modes[i].second) + "}";
  }
  o += "],\"nvpmodel_default\":" +
       (off.nvpmodel_default < 0 ? std::string("null") : std::to_string(off.nvpmodel_default));
  o += ",\"cpu_policies\":[";
  for (size_t i = 0; i < off.cpu_khz.size(); ++i) {
    o += (i ? "," : "") + std::string("{\"cpus\":") + quote(off.cpu_khz[i].first.substr(3)) +
         ",\"available_khz\":" + number_list(off.cpu_khz[i].second) + "}";
  }
  o += "],\"cpu_governors\":[";
  for (size_t i = 0; i < off.cpu_governors.size(); ++i) {
    o += (i ? "," : "") + quote(off.cpu_governors[i]);
  }
  o += "],\"gpu_available_hz\":" + number_list(off.gpu_hz);
  o += std::string(",\"emc_cap\":") + (off.emc_cap ? "true" : "false") + "}";
  return o;
}

}  // namespace

std::string to_json(const Platform& p) {
  std::string o = "{";
  o += "\"model\":" + string_or_null(p.model);
  o += ",\"soc\":" + string_or_null(p.soc);
  o += ",\"compatible\":" + string_or_null(p.compatible);
  o += ",\"board\":{\"entry\":" + string_or_null(p.board) +
       ",\"by\":" + string_or_null(p.board_by) + ",\"why\":" + string_or_null(p.board_why) + "}";
  o += std::string(",\"is_jetson\":") + (p.is_jetson() ? "true" : "false");
  o += ",\"l4t_release\":" + string_or_null(p.l4t_release);
  o += ",\"nvpmodel\":{\"id\":" +
       (p.nvpmodel_id < 0 ? std::string("null") : std::to_string(p.nvpmodel_id)) +
       ",\"mode\":" + string_or_null(p.nvpmodel_mode) + "}";

  o += ",\"cpus\":[";
  for (size_t i = 0; i < p.cpus.size(); ++i) {
    const CpuInfo& c = p.cpus[i];
    if (i) o += ",";
    o += "{\"id\":" + std::to_string(c.id);
    o += std::string(",\"online\":") + (c.online ? "true" : "false");
    o += ",\"cluster\":" + string_or_null(c.cluster);
    o += ",\"governor\":" + string_or_null(c.governor);
    o += ",\"cur_khz\":" + number(c.cur_khz);
    o += ",\"max_khz\":" + number(c.max_khz);
    o += ",\"hw_max_khz\":" + number(c.hw_max_khz);
    o += ",\"base_khz\":" + number(c.base_khz);
    o += ",\"model_name\":" + string_or_null(c.model_name);
    o += "}";
  }
  o += "]";

  o += ",\"clusters\":{";
  const auto names = p.clusters();
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) o += ",";
    o += quote(names[i]) + ":[";
    bool first = true;
    for (const auto& c : p.cpus) {
      if (c.cluster != names[i]) continue;
      if (!first) o += ",";
      o += std::to_string(c.id);
      first = false;
    }
    o += "]";
  }
  o += "}";

  o += ",\"gpu\":{\"devfreq_path\":" + string_or_null(p.gpu_devfreq_path);
  o += ",\"governor\":" + string_or_null(p.gpu_governor);
  o += ",\"cur_hz\":" + number(p.gpu_cur_hz);
  o += ",\"max_hz\":" + number(p.gpu_max_hz) + "}";
  o += ",\"emc_hz\":" + number(p.emc_hz);

  o += ",\"thermal\":[";
  for (size_t i = 0; i < p.thermal.size(); ++i) {
    if (i) o += ",";
    o += "{\"zone\":" + std::to_string(p.thermal[i].index);
    o += ",\"type\":" + quote(p.thermal[i].type);
    o += ",\"temp_c\":" + number(p.thermal[i].temp_c) + "}";
  }
  o += "]";
  o += ",\"operating_points\":" + offered_json(p);
  o += "}";
  return o;
}

}  // namespace edp::platform
