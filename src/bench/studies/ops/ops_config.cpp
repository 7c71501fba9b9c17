// The ops study's keys and its working-set sizes (see ops_config.h).
#include "bench/studies/ops/ops_config.h"

#include <cctype>
#include <map>
#include <utility>

#include "bench/config/config_key_builders.h"
#include "common/errors.h"

namespace edp::bench {
namespace {

// ops.bytes: "16MB" etc.; two spellings of one size ("1MB", "1024KB") repeat.
void read_ops_bytes(ConfigReader& r, const YAML::Node& n, Config& c) {
  std::vector<std::string> texts = r.string_list(n, "ops.bytes");
  std::map<int64_t, std::string> seen;
  for (const YAML::Node& item : n) {
    if (!item.IsScalar()) continue;  // reported by string_list
    r.guard([&] {
      const std::string text = item.Scalar();
      int64_t bytes = 0;
      try {
        bytes = parse_bytes(text);
      } catch (const UsageError& e) {
        r.fail(item, e.what());
      }
      const auto [it, fresh] = seen.emplace(bytes, text);
      if (!fresh && it->second != text)  // the same text twice: reported by string_list
        r.fail(item, "'ops.bytes' lists " + std::to_string(bytes) + " bytes twice ('" + it->second +
                         "' and '" + text + "'): remove the repeat");
    });
  }
  if (texts.empty()) r.fail(n, "'ops.bytes' must list at least one size");
  c.edit<OpsConfig>().bytes = texts;
}

}  // namespace

int64_t parse_bytes(const std::string& text) {
  // Binary units, as memory is counted: 1KB = 1KiB = 1024 bytes.
  size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  std::string unit = text.substr(i);
  for (auto& ch : unit) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  static const std::vector<std::pair<std::string, int64_t>> kUnits{
      {"B", 1},           {"", 1},           {"KB", 1LL << 10},
      {"KIB", 1LL << 10}, {"MB", 1LL << 20}, {"MIB", 1LL << 20},
      {"GB", 1LL << 30},  {"GIB", 1LL << 30}};
  int64_t scale = 0;
  for (const auto& [name, value] : kUnits)
    if (unit == name) scale = value;
  if (i == 0 || i > 12 || scale == 0)
    throw UsageError("'" + text +
                     "' is not a size: write a whole number and a unit, B, KB, MB or GB "
                     "(binary: 1MB = 1048576 bytes), e.g. 16MB");
  const int64_t value = std::stoll(text.substr(0, i));
  if (value <= 0 || value > (int64_t{1} << 40) / scale)
    throw UsageError("'" + text + "' is out of range (1 byte to 1024 GB)");
  return value * scale;
}

void add_ops_config_keys(KeyTable& t) {
  std::vector<ConfigKey> keys;
  keys.push_back(text_list_key(
      "ops.ops", {"copy", "add", "mul", "scalar", "sigmoid", "tanh", "gemm", "fma_peak"}, "op",
      "Operators measured", section_member(&OpsConfig::ops)));
  keys.push_back(custom_key(
      "ops.bytes", "Working sets (binary units: 16MB)", read_ops_bytes,
      [](YAML::Emitter& e, const Config& c) { e << YAML::Flow << c.section<OpsConfig>().bytes; }));
  ConfigKey gemm_n = integer_list_key("ops.gemm_n", 1, 65536, "Square GEMM orders",
                                      section_member(&OpsConfig::gemm_n));
  gemm_n.allow_empty = true;  // no square GEMMs, only the MLP's shapes
  keys.push_back(gemm_n);
  keys.push_back(boolean_key("ops.cold", "Also the cache-flushed element-wise variants",
                             section_member(&OpsConfig::cold)));
  keys.push_back(integer_key("ops.steps", 1, 100000000, "Steps per run block",
                             section_member(&OpsConfig::steps)));
  keys.push_back(integer_key("ops.runs", 1, 100000, "At least this many runs",
                             section_member(&OpsConfig::runs)));
  ConfigKey max_runs = integer_key("ops.max_runs", 1, 1000000, "At most this many runs",
                                   section_member(&OpsConfig::max_runs));
  max_runs.check = [](const Config& c) {
    const OpsConfig& ops = c.section<OpsConfig>();
    return ops.max_runs < ops.runs ? std::string("'ops.max_runs' must be at least 'ops.runs'")
                                   : std::string();
  };
  keys.push_back(max_runs);
  keys.push_back(number_key("ops.max_rel_ci", 0, 1, "Stop at this relative 95% CI of the time",
                            section_member(&OpsConfig::max_rel_ci)));
  keys.push_back(number_key("ops.time_limit_s", 0, 86400, "Per item and variant",
                            section_member(&OpsConfig::time_limit_s)));
  keys.push_back(number_key("ops.min_run_s", 0, 86400, "Shortest window",
                            section_member(&OpsConfig::min_run_s)));
  add_study_section(t, "ops", "The operator study (DESIGN §9.1)", std::move(keys));
}

}  // namespace edp::bench
