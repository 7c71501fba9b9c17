// The deploy study's keys (see deploy_config.h).
#include "bench/studies/deploy/deploy_config.h"

#include <set>

#include "bench/config/config_compound.h"
#include "bench/config/config_key_builders.h"

namespace edp::bench {
namespace {

// A list of numbers in [lo, hi], none twice (the key table has no such type).
std::vector<double> read_numbers(ConfigReader& r, const YAML::Node& n, const std::string& key,
                                 double lo, double hi, bool may_be_empty) {
  if (!n.IsSequence()) r.fail(n, "'" + key + "' must be a list of numbers, e.g. [0.1, 1, 10]");
  std::vector<double> out;
  std::set<double> seen;
  for (const YAML::Node& item : n)
    r.guard([&] {
      const double v = r.number(item, key, lo, hi);
      if (!seen.insert(v).second)
        r.fail(item, "'" + key + "' lists " + r.scalar(item, key) + " twice: remove the repeat");
      out.push_back(v);
    });
  if (out.empty() && !may_be_empty) r.fail(n, "'" + key + "' must name at least one value");
  return out;
}

ConfigKey number_list_key(const std::string& path, double lo, double hi, bool may_be_empty,
                          const std::string& doc, std::vector<double> DeployConfig::*field) {
  return custom_key(
      path, doc,
      [=](ConfigReader& r, const YAML::Node& n, Config& c) {
        c.edit<DeployConfig>().*field = read_numbers(r, n, path, lo, hi, may_be_empty);
      },
      [field](YAML::Emitter& e, const Config& c) {
        e << YAML::Flow << c.section<DeployConfig>().*field;
      });
}

}  // namespace

void add_deploy_config_keys(KeyTable& t) {
  std::vector<ConfigKey> keys;
  keys.push_back(size_names_key("deploy.sizes", "Sizes whose layer shapes are deployed",
                                &DeployConfig::sizes));
  keys.push_back(text_list_key("deploy.modes", {"train", "infer"}, "mode",
                               "train: a training step; infer: the forward pass",
                               section_member(&DeployConfig::modes)));
  keys.push_back(integer_list_key("deploy.batches", 1, 4096, "Inference batch sizes",
                                  section_member(&DeployConfig::batches)));
  keys.push_back(number_list_key("deploy.wake_after_s", 0.001, 3600, false,
                                 "Idle gaps before a first burst (s)",
                                 &DeployConfig::wake_after_s));
  keys.push_back(integer_key("deploy.wake_repeats", 2, 1000, "Cycles per idle gap",
                             section_member(&DeployConfig::wake_repeats)));
  keys.push_back(number_key("deploy.idle_s", 0.05, 3600, "Idle power per state, measured over (s)",
                            section_member(&DeployConfig::idle_s)));
  keys.push_back(integer_key("deploy.bursts", 100, 1000000,
                             "Inference bursts timed for latency percentiles",
                             section_member(&DeployConfig::bursts)));
  keys.push_back(integer_key("deploy.train_bursts", 2, 1000000,
                             "Training steps timed for latency percentiles",
                             section_member(&DeployConfig::train_bursts)));
  keys.push_back(boolean_key("deploy.release",
                             "Also measure cold starts (the context released between bursts)",
                             section_member(&DeployConfig::release)));
  keys.push_back(number_list_key("deploy.check_rates_hz", 1e-4, 1e5, true,
                                 "Open-loop checks of the model: request rates (1/s)",
                                 &DeployConfig::check_rates_hz));
  keys.push_back(number_key("deploy.check_s", 1, 86400, "Length of each open-loop check (s)",
                            section_member(&DeployConfig::check_s)));
  keys.push_back(text_key("deploy.arrivals", {"poisson", "periodic"},
                          "How the checks' requests arrive",
                          section_member(&DeployConfig::arrivals)));
  add_study_section(t, "deploy", "The deploy study (DESIGN §9.4)", std::move(keys));
}

}  // namespace edp::bench
