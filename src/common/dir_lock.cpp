#include "common/dir_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "common/errors.h"
#include "common/text.h"

namespace edp {

namespace {

// /proc/PID/cmdline with its NULs as spaces, at most 200 characters.
std::string command_of(const std::string& pid) {
  std::ifstream in("/proc/" + pid + "/cmdline", std::ios::binary);
  std::string cmd((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!cmd.empty() && cmd.back() == '\0') cmd.pop_back();
  for (char& c : cmd)
    if (c == '\0') c = ' ';
  // Another user's command line: DEL and C1 controls as \xNN too.
  const bool cut = cmd.size() > 200;
  return terminal_text(cut ? cmd.substr(0, 200) : cmd) + (cut ? "..." : "");
}

}  // namespace

DirLock::DirLock(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw std::runtime_error("cannot create the output directory " + dir + ": " + ec.message());
  const std::string path = dir + "/" + file_name();
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    const int err = errno;
    throw UsageError("cannot open the lock file " + path + ": " + std::strerror(err) +
                     (err == ELOOP ? " (it is a symbolic link; remove it)" : ""));
  }
  struct stat st;
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    fd_ = -1;
    throw UsageError(path + " is not a regular file; remove it");
  }
  // A hard link planted by whoever can write the directory would have the
  // pid written over another file (as root: any file on this filesystem).
  if (st.st_nlink != 1) {
    ::close(fd_);
    fd_ = -1;
    throw UsageError(path + " has " + std::to_string(st.st_nlink) +
                     " hard links (it should be edpbench's own file); remove it");
  }
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    char buf[64] = {};
    const ssize_t n = ::pread(fd_, buf, sizeof buf - 1, 0);
    ::close(fd_);
    fd_ = -1;
    if (err != EWOULDBLOCK) throw UsageError("cannot lock " + path + ": " + std::strerror(err));
    std::string pid(buf, n > 0 ? static_cast<size_t>(n) : 0);
    pid = pid.substr(0, pid.find('\n'));
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) pid = "?";
    const std::string cmd = pid == "?" ? "" : command_of(pid);
    throw DirBusy(dir + " is in use by another edpbench process (pid " + pid +
                  (cmd.empty() ? "" : ": " + cmd) +
                  "); two sweeps in one directory would disturb each other's measurements. "
                  "Wait for it to finish, stop it (kill " +
                  pid + "), or choose another --out directory");
  }
  const std::string me = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) == 0) (void)!::pwrite(fd_, me.data(), me.size(), 0);
}

DirLock::~DirLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace edp
