#include "workloads/cache_flush.h"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <string>

#include "workloads/backend.h"

namespace edp {

namespace {

bool read_first_line(const std::string& path, std::string& out) {
  std::ifstream in(path);
  return static_cast<bool>(std::getline(in, out));
}

// "2048K", "32M", "512" (bytes) -> bytes; -1 when unparsable.
int64_t parse_cache_size(const std::string& text) {
  size_t i = 0;
  int64_t value = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    value = value * 10 + (text[i] - '0');
    ++i;
  }
  if (i == 0) return -1;
  const char unit = i < text.size() ? static_cast<char>(std::toupper(text[i])) : '\0';
  if (unit == 'K') return value << 10;
  if (unit == 'M') return value << 20;
  if (unit == 'G') return value << 30;
  return value;
}

}  // namespace

int64_t last_level_cache_bytes(const std::string& sysfs_root) {
  const std::string dir = sysfs_root + "/sys/devices/system/cpu/cpu0/cache/index";
  int best_level = -1;
  int64_t best_bytes = -1;
  for (int index = 0; index < 16; ++index) {
    std::string level_text, size_text;
    if (!read_first_line(dir + std::to_string(index) + "/level", level_text) ||
        !read_first_line(dir + std::to_string(index) + "/size", size_text))
      continue;
    const int level = std::atoi(level_text.c_str());
    const int64_t bytes = parse_cache_size(size_text);
    if (bytes > 0 && level >= best_level) {
      if (level > best_level || bytes > best_bytes) best_bytes = bytes;
      best_level = level;
    }
  }
  return best_bytes > 0 ? best_bytes : kFallbackCacheBytes;
}

int64_t flush_bytes_for(const Backend& backend, const std::string& sysfs_root) {
  const auto facts = backend.describe();
  const auto it = facts.find("l2_cache_bytes");
  if (it != facts.end()) {
    const int64_t l2 = std::atoll(it->second.c_str());
    if (l2 > 0) return 2 * l2;
  }
  return 2 * last_level_cache_bytes(sysfs_root);
}

}  // namespace edp
