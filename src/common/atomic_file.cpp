#include "common/atomic_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace edp {

namespace {
[[noreturn]] void fail(const std::string& what, const std::string& path, int err) {
  throw std::runtime_error(what + " " + path + ": " + std::strerror(err));
}

// The pid of a temp-file name "<base>.tmp.<pid>[.XXXXXX]", or -1.
long temp_owner(const std::string& name, const std::string& base) {
  const std::string prefix = base + ".tmp.";
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return -1;
  const std::string rest = name.substr(prefix.size());
  const auto dot = rest.find('.');
  const std::string pid = rest.substr(0, dot);
  if (pid.empty() || pid.size() > 10 || pid.find_first_not_of("0123456789") != std::string::npos)
    return -1;
  if (dot != std::string::npos) {  // mkstemp's six characters
    const std::string suffix = rest.substr(dot + 1);
    if (suffix.size() != 6 || suffix.find('.') != std::string::npos) return -1;
  }
  return std::strtol(pid.c_str(), nullptr, 10);
}
}  // namespace

int remove_stale_temp_files(const std::string& path) {
  const auto slash = path.rfind('/');
  const std::string dir =
      slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  DIR* d = ::opendir(dir.c_str());
  if (!d) return 0;
  int removed = 0;
  const long self = static_cast<long>(::getpid());
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    const long pid = temp_owner(name, base);
    if (pid <= 0 || pid == self) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // alive (or not ours)
    struct stat st;
    const std::string full = dir + "/" + name;
    if (::lstat(full.c_str(), &st) != 0 || !(S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))) continue;
    if (::unlink(full.c_str()) == 0) ++removed;
  }
  ::closedir(d);
  return removed;
}

void write_file_atomic(const std::string& path, const std::string& content) {
  remove_stale_temp_files(path);
  std::string tmp = path + ".tmp." + std::to_string(::getpid()) + ".XXXXXX";
  const int fd = ::mkostemp(&tmp[0], O_CLOEXEC);
  if (fd < 0) fail("cannot create", tmp, errno);
  // mkstemp makes 0600; results are read by the report and other users.
  if (::fchmod(fd, 0644) != 0) {
    const int err = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    fail("cannot set the mode of", tmp, err);
  }
  const char* p = content.data();
  size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      fail("cannot write", tmp, err);
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  // fsync so that a power cut after rename() cannot leave an empty file.
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail("cannot flush", tmp, err);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail("cannot rename onto", path, err);
  }
  // The rename itself is durable once the directory is synced (best effort).
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace edp
