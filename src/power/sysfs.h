// File access for sensors: descriptors opened once at discovery and read with
// pread (no seek, no reopen, safe to call from the sampler thread), plus the
// small directory helpers discovery needs. Nothing here throws.
#pragma once

#include <string>
#include <vector>

namespace edp::power {

// Move-only owner of a file descriptor.
class FileHandle {
 public:
  FileHandle() = default;
  explicit FileHandle(int fd) : fd_(fd) {}
  ~FileHandle();
  FileHandle(FileHandle&& other) noexcept
      : fd_(other.release()), path_(std::move(other.path_)), dev_(other.dev_), ino_(other.ino_) {}
  FileHandle& operator=(FileHandle&& other) noexcept;
  FileHandle(const FileHandle&) = delete;
  FileHandle& operator=(const FileHandle&) = delete;

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }
  // Why the file this descriptor reads is no longer the one at its path, or
  // "": the path is gone (ENOENT: a device unbound, a file renamed or
  // deleted) or names another file (a different inode). The descriptor would
  // keep reading the old file's last value, a constant that looks like a
  // quiet rail. Only for handles opened by open_read_only.
  std::string replaced() const;

 private:
  friend FileHandle open_read_only(const std::string& path, std::string* error);
  int fd_ = -1;
  std::string path_;
  unsigned long long dev_ = 0, ino_ = 0;
};

// Opens read-only; on failure returns an invalid handle and sets *error to
// "<path>: <strerror>".
FileHandle open_read_only(const std::string& path, std::string* error);

// Reads the whole (small) file at offset 0 and parses one integer. False on
// an I/O or parse error, with *error naming the path if given.
bool pread_integer(int fd, long long* out, std::string* error = nullptr);

// Whole small file as text with the trailing newline removed; empty optional
// semantics: returns false when it cannot be read.
bool read_text(const std::string& path, std::string* out);
bool read_integer(const std::string& path, long long* out);

bool path_exists(const std::string& path);
bool is_directory(const std::string& path);

// Entry names (no "." or ".."), sorted so that discovery is deterministic.
std::vector<std::string> list_directory(const std::string& path);

// "hwmon12" -> 12 for natural ordering; -1 when the name has no digits.
long trailing_number(const std::string& name);

}  // namespace edp::power
