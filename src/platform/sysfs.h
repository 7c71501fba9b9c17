// Reading sysfs/procfs under a relocatable root. Every absolute path the
// platform layer touches ("/sys/...", "/proc/...", "/etc/...") goes through
// SysfsRoot::path(), so the same code reads the real machine (root "") and
// the fake trees in tests/fixtures/platform/. Missing or unreadable files are
// not errors here: the readers return std::nullopt.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace edp::platform {

class SysfsRoot {
 public:
  explicit SysfsRoot(std::string root = "");

  const std::string& root() const { return root_; }
  // `abs` must start with '/'; returns root + abs.
  std::string path(const std::string& abs) const;
  // Inverse of path() for a resolved path under the root (symlinks followed);
  // returns the path unchanged when it is not under the root.
  std::string strip(const std::string& real_path) const;

  // Whole file; nullopt when it cannot be opened or read.
  std::optional<std::string> read(const std::string& abs) const;
  // First line without surrounding whitespace and trailing NULs.
  std::optional<std::string> read_line(const std::string& abs) const;
  // A decimal integer file (clocks, temperatures).
  std::optional<long> read_long(const std::string& abs) const;
  // Entry names of a directory (no "." or ".."), sorted; empty when absent.
  std::vector<std::string> list(const std::string& abs_dir) const;
  bool exists(const std::string& abs) const;

 private:
  std::string root_;
};

// Strips whitespace and NUL bytes (device-tree strings end in NUL) at both ends.
std::string trim(const std::string& s);
// Parses a decimal integer, allowing surrounding whitespace; nullopt otherwise.
std::optional<long> parse_long(const std::string& s);

// An open read-only file descriptor that is re-read with pread, as sysfs
// attributes allow: each pread at offset 0 returns the current value.
// Move-only; closes on destruction. A default Fd is "not available".
class Fd {
 public:
  Fd() = default;
  explicit Fd(const std::string& path);  // stays invalid when open fails
  Fd(Fd&& other) noexcept;
  Fd& operator=(Fd&& other) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd();

  bool valid() const { return fd_ >= 0; }
  // The integer the file holds now, or nullopt when the read fails.
  std::optional<long> read_long() const;

 private:
  int fd_ = -1;
};

}  // namespace edp::platform
