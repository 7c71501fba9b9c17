// context.json's one writer and one reader (see run_context.h). The writer
// keeps the layout context.json has always had (common/json.h: JsonObject);
// the reader is nlohmann-json's, lenient about what older versions wrote.
#include "common/run_context.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <unordered_set>
#include <vector>

#include "common/json.h"
#include "common/safe_file.h"
#include "common/text.h"

namespace edp {
namespace {

using Json = nlohmann::ordered_json;

std::string json_array(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + json_string(items[i]);
  return out + "]";
}

JsonObject device_facts_json(const DeviceFacts& facts) {
  JsonObject o;
  for (const auto& [device, values] : facts) o.set(device, values);
  return o;
}

// A Unix time to the microsecond: the 10 significant digits of every other
// number would round it to whole seconds. null when unknown.
std::string unix_time_json(double t) {
  if (!std::isfinite(t)) return "null";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6f", t);
  return buf;
}

JsonObject power_json(const PowerContext& p, int indent) {
  JsonObject pw;
  pw.set("source", p.source);
  pw.set("rails", join(p.rails, ","));
  pw.set("total_rails", join(p.total_rails, "+"));
  pw.set("total_rails_why", p.total_rails_why);
  // How each rail's values relate to time (DESIGN §4.2), and the update
  // interval the sampler measured on the total rails.
  pw.set("rail_timing", p.rail_timing);
  pw.set("update_interval_s", p.update_interval_s);
  pw.set("rate_hz", p.rate_hz);
  if (p.baseline_s) pw.set("baseline_s", *p.baseline_s);
  if (p.baseline_w) pw.set("baseline_w", *p.baseline_w);
  if (p.baseline_total_w) pw.set("baseline_total_w", *p.baseline_total_w);
  if (p.baselines) {
    std::string list = "[";
    for (size_t i = 0; i < p.baselines->size(); ++i) {
      const BaselineContext& b = (*p.baselines)[i];
      JsonObject o;
      o.set("state", b.state);
      o.set("before", b.before);
      o.set_raw("start_unix_s", unix_time_json(b.start_unix_s));
      o.set("settle_s", b.settle_s);
      o.set("duration_s", b.duration_s);
      o.set("update_interval_s", b.update_interval_s);
      o.set("total_w", b.total_w);
      o.set("rails_w", b.rails_w);
      // context.json has always indented these objects inside the compact
      // list; written compact (--json), they are compact too.
      list += (i ? "," : "") + o.str(indent);
    }
    pw.set_raw("baselines", list + "]");
  }
  std::string log;
  for (const auto& l : p.discovery_log) log += l + "\n";
  pw.set("discovery", log);
  if (p.sampler) {
    const SamplerContext& s = *p.sampler;
    JsonObject sampler;
    sampler.set("cpu_s", s.cpu_s);
    sampler.set("wall_s", s.wall_s);
    sampler.set("cpu_percent", s.wall_s > 0 ? 100.0 * s.cpu_s / s.wall_s : NAN);
    sampler.set("ticks", static_cast<double>(s.ticks));
    sampler.set("missed_deadlines", static_cast<double>(s.missed_deadlines));
    sampler.set("read_failures", static_cast<double>(s.read_failures));
    pw.set("sampler", sampler);
  }
  if (p.timeline) {
    const TimelineContext& t = *p.timeline;
    JsonObject tl;
    tl.set("file", t.file);
    tl.set("hz", t.hz);
    tl.set("window_points", static_cast<double>(t.window_points));
    tl.set("max_rows", static_cast<double>(t.max_rows));
    tl.set("rows", static_cast<double>(t.rows));
    tl.set("full_at", t.full_at);
    pw.set("timeline", tl);
  }
  return pw;
}

JsonObject monitor_json(const MonitorContext& m) {
  JsonObject mon;
  mon.set_raw("configurations", json_array(m.configurations));
  if (!m.writers.empty()) mon.set("writers", m.writers);
  if (m.idle_baseline) {
    const IdleContext& i = *m.idle_baseline;
    JsonObject idle;
    idle.set("total_w", i.total_w);
    idle.set("rails_w", i.rails_w);
    idle.set("duration_s", i.duration_s);
    idle.set("settle_s", i.settle_s);
    idle.set_raw("start_unix_s", unix_time_json(i.start_unix_s));
    mon.set("idle_baseline", idle);
  }
  if (m.power) mon.set("power", power_json(*m.power, 0));
  return mon;
}

// ---- reading -----------------------------------------------------------------

const Json* find(const Json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? nullptr : &*it;
}

const Json* find_path(const Json& j, std::initializer_list<const char*> keys) {
  const Json* v = &j;
  for (const char* k : keys)
    if (!(v = find(*v, k))) return nullptr;
  return v;
}

std::string text(const Json* v) {
  if (!v) return "";
  if (v->is_string()) return v->get<std::string>();
  if (v->is_array()) {  // a list of names, as older monitors wrote total_rails
    std::vector<std::string> parts;
    for (const auto& e : *v) parts.push_back(e.is_string() ? e.get<std::string>() : e.dump());
    return join(parts, "+");
  }
  return v->dump();
}

double number(const Json* v, double otherwise = NAN) {
  return v && v->is_number() ? v->get<double>() : otherwise;
}

// A count: a whole number from 0 to 2^53 (a double's exact integers), else
// 0. A fraction or 1e300 is not a count (converting it was undefined).
uint64_t count(const Json* v) {
  if (!v || !v->is_number()) return 0;
  if (v->is_number_unsigned()) return v->get<uint64_t>();
  const double d = v->get<double>();
  return d >= 0 && d <= 9007199254740992.0 && std::floor(d) == d ? static_cast<uint64_t>(d) : 0;
}

std::optional<double> maybe_number(const Json* v) {
  if (v && v->is_number()) return v->get<double>();
  return std::nullopt;
}

// A list of names: a JSON list, or one text joined by `sep`.
std::vector<std::string> names(const Json* v, char sep) {
  std::vector<std::string> out;
  if (!v) return out;
  if (v->is_array()) {
    for (const auto& e : *v)
      if (e.is_string()) out.push_back(e.get<std::string>());
    return out;
  }
  if (v->is_string()) {
    std::istringstream in(v->get<std::string>());
    for (std::string part; std::getline(in, part, sep);)
      if (!part.empty()) out.push_back(part);
  }
  return out;
}

std::map<std::string, double> numbers_by_name(const Json* v) {
  std::map<std::string, double> out;
  if (!v || !v->is_object()) return out;
  for (const auto& [k, x] : v->items()) {
    if (x.is_number())
      out[k] = x.get<double>();
    else if (x.is_null())
      out[k] = NAN;  // a rail with no valid reading: kept, and written back as null
  }
  return out;
}

std::map<std::string, std::string> texts_by_name(const Json* v) {
  std::map<std::string, std::string> out;
  if (v && v->is_object())
    for (const auto& [k, x] : v->items()) out[k] = text(&x);
  return out;
}

DeviceFacts device_facts(const Json& v) {
  DeviceFacts out;
  if (v.is_object())
    for (const auto& [device, facts] : v.items()) out.emplace_back(device, texts_by_name(&facts));
  return out;
}

PowerContext power_from(const Json& p) {
  PowerContext c;
  c.source = text(find(p, "source"));
  c.rails = names(find(p, "rails"), ',');
  c.total_rails = names(find(p, "total_rails"), '+');
  c.total_rails_why = text(find(p, "total_rails_why"));
  c.rail_timing = texts_by_name(find(p, "rail_timing"));
  c.update_interval_s = number(find(p, "update_interval_s"), 0);
  c.rate_hz = number(find(p, "rate_hz"), 0);
  c.baseline_s = maybe_number(find(p, "baseline_s"));
  if (const Json* b = find(p, "baseline_w"); b && b->is_object()) c.baseline_w = numbers_by_name(b);
  c.baseline_total_w = maybe_number(find(p, "baseline_total_w"));
  if (const Json* list = find(p, "baselines"); list && list->is_array()) {
    c.baselines.emplace();
    for (const auto& b : *list) {
      BaselineContext x;
      x.state = text(find(b, "state"));
      x.before = text(find(b, "before"));
      x.start_unix_s = number(find(b, "start_unix_s"));
      x.settle_s = number(find(b, "settle_s"));
      x.duration_s = number(find(b, "duration_s"));
      x.update_interval_s = number(find(b, "update_interval_s"));
      x.total_w = number(find(b, "total_w"));
      x.rails_w = numbers_by_name(find(b, "rails_w"));
      c.baselines->push_back(std::move(x));
    }
  }
  c.discovery_log = names(find(p, "discovery"), '\n');
  if (const Json* s = find(p, "sampler"); s && s->is_object()) {
    SamplerContext x;
    x.cpu_s = number(find(*s, "cpu_s"));
    x.wall_s = number(find(*s, "wall_s"));
    x.ticks = count(find(*s, "ticks"));
    x.missed_deadlines = count(find(*s, "missed_deadlines"));
    x.read_failures = count(find(*s, "read_failures"));
    c.sampler = x;
  }
  if (const Json* t = find(p, "timeline"); t && t->is_object()) {
    TimelineContext x;
    x.file = text(find(*t, "file"));
    x.hz = number(find(*t, "hz"), 0);
    x.window_points = count(find(*t, "window_points"));
    x.max_rows = static_cast<int64_t>(count(find(*t, "max_rows")));
    x.rows = static_cast<int64_t>(count(find(*t, "rows")));
    x.full_at = text(find(*t, "full_at"));
    c.timeline = x;
  }
  return c;
}

const std::vector<std::string>& known_keys() {
  static const std::vector<std::string> keys{"edpbench_version",
                                             "complete",
                                             "start_time",
                                             "end_time",
                                             "config_file",
                                             "config_yaml",
                                             "board",
                                             "build",
                                             "power",
                                             "backends",
                                             "gpu",
                                             "operating_points",
                                             "monitor"};
  return keys;
}

Json parse_board(const RunContext& c) {
  if (!c.board) return Json();
  Json j = Json::parse(*c.board, nullptr, false);
  return j.is_discarded() ? Json() : j;
}

// A key this version does not write, as text ("" when absent).
std::string other_text(const RunContext& c, const std::string& key) {
  for (const auto& [k, json] : c.others)
    if (k == key) {
      const Json v = Json::parse(json, nullptr, false);
      return v.is_discarded() ? "" : text(&v);
    }
  return "";
}

}  // namespace

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string to_context_json(const RunContext& c, int indent) {
  JsonObject ctx;
  ctx.set("edpbench_version", c.edpbench_version);
  ctx.set("complete", c.complete);
  ctx.set("start_time", c.start_time);
  ctx.set("end_time", c.end_time);
  if (c.config_file) ctx.set("config_file", *c.config_file);
  if (c.config_yaml) ctx.set("config_yaml", *c.config_yaml);
  if (c.board) ctx.set_raw("board", *c.board);
  if (c.build) {
    JsonObject build;
    build.set("compiler", c.build->compiler);
    build.set("cuda", c.build->cuda);
    build.set("cudnn", c.build->cudnn);
    build.set("openblas", c.build->openblas);
    build.set("blis", c.build->blis);
    build.set("cuda_architectures", c.build->cuda_architectures);
    ctx.set("build", build);
  }
  ctx.set("power", power_json(c.power, indent));
  if (c.backends) ctx.set("backends", device_facts_json(*c.backends));
  if (c.gpu) ctx.set("gpu", device_facts_json(*c.gpu));
  if (c.operating_points) ctx.set("operating_points", *c.operating_points);
  if (c.monitor) ctx.set("monitor", monitor_json(*c.monitor));
  for (const auto& [key, json] : c.others) ctx.set_raw(key, json);
  return indent ? ctx.str(indent) + "\n" : ctx.str(0);
}

RunContext run_context_from_json(const std::string& text_in) {
  // A key twice in one object: nlohmann would keep the last silently, where
  // report::parse_json refuses the file; refused here too, so that no reader
  // of context.json picks one of the two.
  std::vector<std::unordered_set<std::string>> open;
  const auto once = [&open](int, Json::parse_event_t event, Json& parsed) {
    if (event == Json::parse_event_t::object_start) {
      open.emplace_back();
    } else if (event == Json::parse_event_t::object_end) {
      open.pop_back();
    } else if (event == Json::parse_event_t::key &&
               !open.back().insert(parsed.get<std::string>()).second) {
      throw std::runtime_error("context.json has the key \"" +
                               escaped_excerpt(parsed.get<std::string>()) +
                               "\" twice in one object");
    }
    return true;
  };
  const Json j = Json::parse(text_in, once, false);
  if (j.is_discarded() || !j.is_object())
    throw std::runtime_error("context.json is not a JSON object");
  RunContext c;
  c.edpbench_version = text(find(j, "edpbench_version"));
  if (c.edpbench_version.empty()) c.edpbench_version = text(find(j, "version"));
  // A context.json that does not say (an older tool's) is no evidence of an
  // interrupted sweep.
  const Json* complete = find(j, "complete");
  c.complete = !(complete && complete->is_boolean() && !complete->get<bool>());
  c.start_time = text(find(j, "start_time"));
  c.end_time = text(find(j, "end_time"));
  if (const Json* v = find(j, "config_file")) c.config_file = text(v);
  if (const Json* v = find(j, "config_yaml")) c.config_yaml = text(v);
  if (const Json* v = find(j, "board"); v && v->is_object())
    c.board = v->dump(-1, ' ', false, Json::error_handler_t::replace);
  if (const Json* b = find(j, "build"); b && b->is_object()) {
    BuildContext x;
    x.compiler = text(find(*b, "compiler"));
    x.cuda = find(*b, "cuda") && find(*b, "cuda")->is_boolean() && find(*b, "cuda")->get<bool>();
    x.cudnn =
        find(*b, "cudnn") && find(*b, "cudnn")->is_boolean() && find(*b, "cudnn")->get<bool>();
    x.openblas = find(*b, "openblas") && find(*b, "openblas")->is_boolean() &&
                 find(*b, "openblas")->get<bool>();
    x.blis = find(*b, "blis") && find(*b, "blis")->is_boolean() && find(*b, "blis")->get<bool>();
    x.cuda_architectures = text(find(*b, "cuda_architectures"));
    c.build = x;
  }
  if (const Json* p = find(j, "power"); p && p->is_object()) {
    c.power = power_from(*p);
  } else {
    c.power.source = text(find(j, "power_source"));  // an older, flat layout
  }
  if (const Json* v = find(j, "backends")) c.backends = device_facts(*v);
  if (const Json* v = find(j, "gpu")) c.gpu = device_facts(*v);
  if (const Json* v = find(j, "operating_points"); v && v->is_string())
    c.operating_points = v->get<std::string>();
  if (const Json* m = find(j, "monitor"); m && m->is_object()) {
    MonitorContext x;
    x.configurations = names(find(*m, "configurations"), ',');
    x.writers = texts_by_name(find(*m, "writers"));
    if (const Json* i = find(*m, "idle_baseline"); i && i->is_object()) {
      IdleContext idle;
      idle.total_w = number(find(*i, "total_w"));
      idle.rails_w = numbers_by_name(find(*i, "rails_w"));
      idle.duration_s = number(find(*i, "duration_s"));
      idle.settle_s = number(find(*i, "settle_s"));
      idle.start_unix_s = number(find(*i, "start_unix_s"));
      x.idle_baseline = idle;
    }
    if (const Json* p = find(*m, "power"); p && p->is_object()) {
      x.power = power_from(*p);
    } else if (find(*m, "source")) {
      // Before the typed context, the monitor wrote its session's facts
      // into its own section (source, total_rails, total_rails_why, rate_hz,
      // update_interval_s, discovery_log): kept, under `power`, on a rewrite.
      x.power = power_from(*m);
      if (x.power->discovery_log.empty())
        x.power->discovery_log = names(find(*m, "discovery_log"), '\n');
    }
    c.monitor = x;
  }
  for (const auto& [key, value] : j.items())
    if (std::find(known_keys().begin(), known_keys().end(), key) == known_keys().end())
      c.others.emplace_back(key, value.dump(-1, ' ', false, Json::error_handler_t::replace));
  return c;
}

std::string RunContext::board_model() const {
  const Json b = parse_board(*this);
  if (const Json* v = find(b, "model")) return text(v);
  return other_text(*this, "board_model");  // an older, flat layout
}

std::string RunContext::l4t_release() const {
  const Json b = parse_board(*this);
  if (const Json* v = find(b, "l4t_release")) return text(v);
  if (const Json* v = find(b, "l4t")) return text(v);
  return other_text(*this, "l4t");
}

std::string RunContext::nvpmodel_mode() const {
  const Json b = parse_board(*this);
  if (const Json* v = find_path(b, {"nvpmodel", "mode"})) return text(v);
  if (const Json* v = find_path(b, {"nvpmodel", "name"})) return text(v);
  return "";
}

std::vector<double> RunContext::cpu_max_khz() const {
  std::vector<double> out;
  const Json b = parse_board(*this);
  if (const Json* cpus = find(b, "cpus"); cpus && cpus->is_array())
    for (const auto& cpu : *cpus)
      if (const Json* k = find(cpu, "max_khz"); k && k->is_number())
        out.push_back(k->get<double>());
  return out;
}

double RunContext::gpu_max_hz() const {
  return number(find_path(parse_board(*this), {"gpu", "max_hz"}));
}

double RunContext::emc_hz() const { return number(find(parse_board(*this), "emc_hz")); }

}  // namespace edp
