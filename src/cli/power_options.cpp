// The power options of every measuring command (see power_options.h).
#include "cli/power_options.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <map>

#include "common/errors.h"
#include "common/text.h"

namespace edp::cli {

namespace {

const char* const kSources = "auto|jetson|ina226|hwmon|rapl|nvml|trace|none";

}  // namespace

std::string power_option_name(const std::string& path) {
  static const std::map<std::string, std::string> flags{{"power.source", "--power-source"},
                                                        {"power.trace.file", "--trace"},
                                                        {"power.total_rails", "--total-rails"},
                                                        {"power.rate_hz", "--rate-hz"}};
  const auto it = flags.find(path);
  return it == flags.end() ? path : it->second;
}

void PowerFlags::add_to(CLI::App& sub, const std::string& source_alias) {
  const std::string source_names =
      "--power-source" + (source_alias.empty() ? "" : "," + source_alias);
  sub.add_option(source_names, source_,
                 std::string("Power source: ") + kSources + " (default auto)")
      ->type_name("S")
      ->group("Power options");
  sub.add_option("--trace", trace_, "Replay this power trace CSV (implies --power-source trace)")
      ->type_name("FILE")
      ->group("Power options");
  sub.add_option("--sysfs-root", sysfs_root_,
                 "Prefix every /sys, /proc and /dev path with DIR (fake trees, containers)")
      ->type_name("DIR")
      ->group("Power options");
  sub.add_option("--total-rails", total_rails_,
                 "Rails whose sum is the energy, e.g. VDD_IN (default: chosen automatically)")
      ->type_name("A,B")
      ->delimiter(',')
      ->group("Power options");
  sub.add_option("--rate-hz", rate_hz_, "Sampling rate, 1 to 10000 (default 100)")
      ->type_name("HZ")
      ->group("Power options");
  sub.add_flag("-v,--verbose", verbose_,
               "Show what sensor discovery tried and found (shown anyway when it found none)");
}

void PowerFlags::apply(bench::Config& c) const {
  std::vector<std::string> problems;
  auto set = [&](auto&& f) {
    try {
      f();
    } catch (const UsageError& e) {
      problems.push_back(e.what());
    }
  };
  if (!source_.empty())
    set([&] { bench::set_config_value(c, "power.source", source_, "--power-source"); });
  if (!rate_hz_.empty())
    set([&] { bench::set_config_value(c, "power.rate_hz", rate_hz_, "--rate-hz"); });
  if (!total_rails_.empty())
    set([&] { bench::set_config_list(c, "power.total_rails", total_rails_, "--total-rails"); });
  if (!trace_.empty()) {
    // Relative to the working directory here (in a config: to the config).
    // A missing file or a directory is refused here, in the config's words;
    // a link, a FIFO or a device is left to the one reader of untrusted
    // files, which says what it is ("not read: it is a FIFO") unopened.
    struct stat st {};
    if (::lstat(trace_.c_str(), &st) != 0)
      problems.push_back("--trace: trace file '" + trace_ + "' cannot be read (" +
                         std::strerror(errno) +
                         "); a relative path is relative to the working directory");
    else if (S_ISDIR(st.st_mode))
      problems.push_back("--trace: " + bench::trace_file_problem(trace_));
    c.power.trace.file = trace_;
    // --trace names the source; another one beside it is a contradiction.
    if (source_.empty())
      c.power.source = "trace";
    else if (source_ != "trace")
      problems.push_back("--trace " + trace_ + " replays a trace, but --power-source is " +
                         source_ + "; leave out one of them");
  } else if (c.power.source == "trace" && !source_.empty() && c.power.trace.file.empty()) {
    problems.push_back("--power-source trace needs --trace FILE (a CSV t_s,<rail>_w,...)");
  }
  if (!problems.empty()) throw UsageError(join(problems, "\n"));
}

void PowerFlags::apply(bench::SessionOptions& o) const {
  bench::Config c;
  c.power = o.power;
  apply(c);
  o.power = c.power;
  if (!sysfs_root_.empty()) o.sysfs_root = sysfs_root_;
}

}  // namespace edp::cli
