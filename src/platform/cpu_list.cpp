// CPU list parsing and formatting: see cpu_list.h.
#include "platform/cpu_list.h"

#include <sched.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "platform/sysfs.h"

namespace edp::platform {
namespace {

// Upper bound on a CPU id: far above any real machine, low enough that a
// typo such as "0-99999999" cannot allocate gigabytes.
constexpr long kMaxCpuId = 65535;

bool is_cpu_number(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

int parse_id(const std::string& s, const std::string& term) {
  const std::string t = trim(s);
  if (!is_cpu_number(t) || t.size() > 6 || std::stol(t) > kMaxCpuId) {
    throw std::invalid_argument("'" + term + "' is not a CPU id or a range N-M");
  }
  return static_cast<int>(std::stol(t));
}

}  // namespace

std::vector<int> parse_cpu_list(const std::string& list) {
  std::vector<int> cpus;
  if (trim(list).empty()) return cpus;
  size_t start = 0;
  while (true) {
    const size_t comma = list.find(',', start);
    const std::string term =
        trim(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (term.empty()) throw std::invalid_argument("empty term in CPU list '" + trim(list) + "'");
    const size_t dash = term.find('-');
    if (dash == std::string::npos) {
      cpus.push_back(parse_id(term, term));
    } else {
      const int lo = parse_id(term.substr(0, dash), term);
      const int hi = parse_id(term.substr(dash + 1), term);
      if (hi < lo) throw std::invalid_argument("range '" + term + "' runs backwards");
      for (int c = lo; c <= hi; ++c) cpus.push_back(c);
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

std::string format_cpu_list(const std::vector<int>& cpus) {
  std::string out;
  for (size_t i = 0; i < cpus.size();) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(cpus[i]);
    if (j > i) out += '-' + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

}  // namespace edp::platform
