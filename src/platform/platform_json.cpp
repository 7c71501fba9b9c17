// to_json(): the Platform as one JSON object (RFC 8259), for `edpbench probe
// --json` and context.json's "board" (its keys are in common/context_schema.h).
// Built as an nlohmann-json value, like the rest of context.json: strings
// come from files the kernel and vendors write (DMI strings can hold any
// byte), and nlohmann escapes them and replaces invalid UTF-8 with U+FFFD.
// Unknown numbers are null.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "platform/operating_point.h"
#include "platform/platform.h"

namespace edp::platform {
namespace {

using Json = nlohmann::ordered_json;

Json number(long v) { return v < 0 ? Json() : Json(v); }

// Ten significant digits, as context.json's other numbers (common/json.h).
Json number(double v) {
  if (!std::isfinite(v)) return Json();
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  const double r = std::strtod(buf, nullptr);
  if (std::fabs(r) < 9.0e15 && r == std::trunc(r)) return Json(static_cast<long long>(r));
  return Json(r);
}

Json string_or_null(const std::string& s) { return s.empty() ? Json() : Json(s); }

// What the board offers for operating points (DESIGN §10): nvpmodel modes and
// the rates each clock lists.
Json offered_json(const Platform& p) {
  const OfferedPoints off = offered_points(p);
  Json o = Json::object();
  Json modes = Json::array();
  for (const auto& [id, name] : off.nvpmodel_modes)
    modes.push_back(Json{{"id", id}, {"name", name}});
  o["nvpmodel_modes"] = modes;
  o["nvpmodel_default"] = off.nvpmodel_default < 0 ? Json() : Json(off.nvpmodel_default);
  Json policies = Json::array();
  for (const auto& [policy, khz] : off.cpu_khz)
    policies.push_back(Json{{"cpus", policy.substr(3)}, {"available_khz", khz}});
  o["cpu_policies"] = policies;
  o["cpu_governors"] = off.cpu_governors;
  o["gpu_available_hz"] = off.gpu_hz;
  o["emc_cap"] = off.emc_cap;
  return o;
}

}  // namespace

std::string to_json(const Platform& p) {
  Json o = Json::object();
  o["model"] = string_or_null(p.model);
  o["soc"] = string_or_null(p.soc);
  o["compatible"] = string_or_null(p.compatible);
  o["board"] = Json{{"entry", string_or_null(p.board)},
                    {"by", string_or_null(p.board_by)},
                    {"why", string_or_null(p.board_why)}};
  o["is_jetson"] = p.is_jetson();
  o["l4t_release"] = string_or_null(p.l4t_release);
  o["nvpmodel"] = Json{{"id", p.nvpmodel_id < 0 ? Json() : Json(p.nvpmodel_id)},
                       {"mode", string_or_null(p.nvpmodel_mode)}};
  Json cpus = Json::array();
  for (const CpuInfo& c : p.cpus)
    cpus.push_back(Json{{"id", c.id},
                        {"online", c.online},
                        {"cluster", string_or_null(c.cluster)},
                        {"governor", string_or_null(c.governor)},
                        {"cur_khz", number(c.cur_khz)},
                        {"max_khz", number(c.max_khz)},
                        {"hw_max_khz", number(c.hw_max_khz)},
                        {"base_khz", number(c.base_khz)},
                        {"model_name", string_or_null(c.model_name)}});
  o["cpus"] = cpus;
  Json clusters = Json::object();
  for (const auto& name : p.clusters()) {
    Json ids = Json::array();
    for (const auto& c : p.cpus)
      if (c.cluster == name) ids.push_back(c.id);
    clusters[name] = ids;
  }
  o["clusters"] = clusters;
  o["gpu"] = Json{{"devfreq_path", string_or_null(p.gpu_devfreq_path)},
                  {"governor", string_or_null(p.gpu_governor)},
                  {"cur_hz", number(p.gpu_cur_hz)},
                  {"max_hz", number(p.gpu_max_hz)},
                  {"railgate_path", string_or_null(p.gpu_railgate_path)},
                  {"railgate_enable", number(static_cast<long>(p.gpu_railgate_enable))},
                  {"railgate_delay_ms", number(p.gpu_railgate_delay_ms)}};
  o["emc_hz"] = number(p.emc_hz);
  Json thermal = Json::array();
  for (const auto& z : p.thermal)
    thermal.push_back(Json{{"zone", z.index}, {"type", z.type}, {"temp_c", number(z.temp_c)}});
  o["thermal"] = thermal;
  o["operating_points"] = offered_json(p);
  return o.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace edp::platform
