// SysfsRoot and Fd: see sysfs.h.
#include "platform/sysfs.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace fs = std::filesystem;

namespace edp::platform {

SysfsRoot::SysfsRoot(std::string root) : root_(std::move(root)) {
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
  if (root_ == "/") root_.clear();
}

std::string SysfsRoot::path(const std::string& abs) const { return root_ + abs; }

std::string SysfsRoot::strip(const std::string& real_path) const {
  if (root_.empty()) return real_path;
  std::error_code ec;
  const fs::path real_root = fs::canonical(root_, ec);
  const std::string prefix = ec ? root_ : real_root.string();
  if (real_path.size() > prefix.size() && real_path.compare(0, prefix.size(), prefix) == 0 &&
      real_path[prefix.size()] == '/') {
    return real_path.substr(prefix.size());
  }
  return real_path;
}

std::optional<std::string> SysfsRoot::read(const std::string& abs) const {
  std::ifstream in(path(abs), std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  // A sysfs attribute whose show() fails (EINVAL, EIO) reads as an error.
  if (in.bad()) return std::nullopt;
  return ss.str();
}

std::optional<std::string> SysfsRoot::read_line(const std::string& abs) const {
  auto content = read(abs);
  if (!content) return std::nullopt;
  const auto nl = content->find('\n');
  return trim(nl == std::string::npos ? *content : content->substr(0, nl));
}

std::optional<long> SysfsRoot::read_long(const std::string& abs) const {
  auto line = read_line(abs);
  if (!line) return std::nullopt;
  return parse_long(*line);
}

std::vector<std::string> SysfsRoot::list(const std::string& abs_dir) const {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(path(abs_dir), ec), end; !ec && it != end; it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool SysfsRoot::exists(const std::string& abs) const {
  std::error_code ec;
  return fs::exists(path(abs), ec);
}

std::string trim(const std::string& s) {
  auto is_space = [](char c) {
    return c == '\0' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
  };
  size_t b = 0, e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

std::optional<long> parse_long(const std::string& s) {
  const std::string t = trim(s);
  if (t.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const long v = std::strtol(t.c_str(), &end, 10);
  if (errno != 0 || end != t.c_str() + t.size()) return std::nullopt;
  return v;
}

Fd::Fd(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}

Fd::Fd(Fd&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

Fd& Fd::operator=(Fd&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

Fd::~Fd() {
  if (fd_ >= 0) ::close(fd_);
}

std::optional<long> Fd::read_long() const {
  if (fd_ < 0) return std::nullopt;
  char buf[64];
  const ssize_t n = ::pread(fd_, buf, sizeof buf - 1, 0);
  if (n <= 0) return std::nullopt;
  buf[n] = '\0';
  return parse_long(buf);
}

}  // namespace edp::platform
