// pread-based sysfs access (see sysfs.h).
#include "power/sysfs.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace edp::power {

FileHandle::~FileHandle() {
  if (fd_ >= 0) ::close(fd_);
}

FileHandle& FileHandle::operator=(FileHandle&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.release();
    path_ = std::move(other.path_);
    dev_ = other.dev_;
    ino_ = other.ino_;
  }
  return *this;
}

FileHandle open_read_only(const std::string& path, std::string* error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 && error) *error = path + ": " + std::strerror(errno);
  FileHandle h(fd);
  struct stat st {};
  if (fd >= 0 && ::fstat(fd, &st) == 0) {
    h.path_ = path;
    h.dev_ = st.st_dev;
    h.ino_ = st.st_ino;
  }
  return h;
}

std::string FileHandle::replaced() const {
  if (path_.empty()) return "";
  struct stat st {};
  if (::stat(path_.c_str(), &st) != 0)
    return path_ + " is gone (" + std::strerror(errno) + ") since discovery";
  if (st.st_dev != dev_ || st.st_ino != ino_)
    return path_ + " was replaced by another file since discovery";
  return "";
}

bool pread_integer(int fd, long long* out, std::string* error) {
  char buf[64];
  ssize_t n;
  do {
    n = ::pread(fd, buf, sizeof(buf) - 1, 0);
  } while (n < 0 && errno == EINTR);
  if (n <= 0) {
    if (error) *error = n < 0 ? std::strerror(errno) : "empty file";
    return false;
  }
  buf[n] = '\0';
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(buf, &end, 10);
  if (end == buf || errno == ERANGE) {
    if (error) *error = "not an integer";
    return false;
  }
  *out = v;
  return true;
}

bool read_text(const std::string& path, std::string* out) {
  std::string err;
  FileHandle fh = open_read_only(path, &err);
  if (!fh.valid()) return false;
  std::string text;
  char buf[4096];
  off_t off = 0;
  for (;;) {
    ssize_t n = ::pread(fh.get(), buf, sizeof(buf), off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
    off += n;
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
    text.pop_back();
  *out = text;
  return true;
}

bool read_integer(const std::string& path, long long* out) {
  FileHandle fh = open_read_only(path, nullptr);
  return fh.valid() && pread_integer(fh.get(), out);
}

bool path_exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

bool is_directory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<std::string> list_directory(const std::string& path) {
  std::vector<std::string> names;
  DIR* dir = ::opendir(path.c_str());
  if (!dir) return names;
  while (struct dirent* e = ::readdir(dir)) {
    if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
    names.emplace_back(e->d_name);
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
    long na = trailing_number(a), nb = trailing_number(b);
    std::string pa = a.substr(0, a.find_last_not_of("0123456789") + 1);
    std::string pb = b.substr(0, b.find_last_not_of("0123456789") + 1);
    if (pa != pb || na < 0 || nb < 0) return a < b;
    return na < nb;
  });
  return names;
}

long trailing_number(const std::string& name) {
  size_t i = name.size();
  while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') --i;
  if (i == name.size()) return -1;
  return std::strtol(name.c_str() + i, nullptr, 10);
}

}  // namespace edp::power
