#include "common/safe_file.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "common/errors.h"

namespace edp {

namespace {

std::atomic<void (*)()> g_interrupt_check{nullptr};

void check_interrupt() {
  if (auto check = g_interrupt_check.load()) check();
}

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

std::string mib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return buf;
}

std::string type_name(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a directory";
  return "not a regular file";
}

[[noreturn]] void refuse(const std::string& path, const FileKind& kind, const std::string& why) {
  throw UsageError(path + ": not read: " + why + " (a " + kind.what +
                   " is read only from a regular file, never through a link, a FIFO or a "
                   "device; replace it with the file itself)");
}

// "/dev/fd/N" or "/proc/self/fd/N": a descriptor the shell handed us.
int handed_descriptor(const std::string& path) {
  for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    const std::string p = prefix;
    if (path.compare(0, p.size(), p) != 0) continue;
    const std::string n = path.substr(p.size());
    if (n.empty() || n.size() > 6 || n.find_first_not_of("0123456789") != std::string::npos)
      return -1;
    return std::atoi(n.c_str());
  }
  return -1;
}

// Reads to the end, by chunks, refusing more than kind.max_bytes. A pipe is
// polled (a tenth of a second at a time) so that the interrupt check runs
// while it is empty.
std::string read_all(int fd, bool pipe, const std::string& path, const FileKind& kind) {
  std::string out;
  char buf[1 << 16];
  while (true) {
    check_interrupt();
    if (pipe) {
      pollfd p{fd, POLLIN, 0};
      const int n = ::poll(&p, 1, 100);
      if (n < 0 && errno != EINTR)
        throw UsageError(path + ": cannot be read: " + std::strerror(errno));
      if (n <= 0) continue;
    }
    const ssize_t got = ::read(fd, buf, sizeof buf);
    if (got < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      throw UsageError(path + ": cannot be read: " + std::strerror(errno));
    }
    if (got == 0) return out;
    if (out.size() + static_cast<std::uint64_t>(got) > kind.max_bytes)
      throw UsageError(path + ": not read: more than the " + mib(kind.max_bytes) + " a " +
                       kind.what + " may have (is it the right file?)");
    out.append(buf, static_cast<size_t>(got));
  }
}

std::optional<std::string> read_handed(int n, const std::string& path, const FileKind& kind) {
  struct stat st {};
  if (::fstat(n, &st) != 0)
    throw UsageError(path + ": cannot be read: " + std::strerror(errno) +
                     " (no such open descriptor)");
  if (!S_ISFIFO(st.st_mode) && !S_ISREG(st.st_mode)) refuse(path, kind, type_name(st.st_mode));
  Fd fd{::fcntl(n, F_DUPFD_CLOEXEC, 0)};
  if (fd.fd < 0) throw UsageError(path + ": cannot be read: " + std::strerror(errno));
  if (S_ISFIFO(st.st_mode)) {
    const int flags = ::fcntl(fd.fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd.fd, F_SETFL, flags | O_NONBLOCK);
    return read_all(fd.fd, true, path, kind);
  }
  if (static_cast<std::uint64_t>(st.st_size) > kind.max_bytes)
    throw UsageError(path + ": not read: " + mib(static_cast<std::uint64_t>(st.st_size)) +
                     ", more than the " + mib(kind.max_bytes) + " a " + kind.what +
                     " may have (is it the right file?)");
  ::lseek(fd.fd, 0, SEEK_SET);
  return read_all(fd.fd, false, path, kind);
}

}  // namespace

void set_read_interrupt_check(void (*check)()) { g_interrupt_check = check; }

bool path_present(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

bool is_directory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string path_base_name(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::optional<std::string> read_untrusted_file_if_present(const std::string& path,
                                                          const FileKind& kind) {
  if (kind.pipe_allowed) {
    const int n = handed_descriptor(path);
    if (n >= 0) return read_handed(n, path, kind);
  }
  Fd fd{::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (fd.fd < 0) {
    const int err = errno;
    struct stat st {};
    if (err == ENOENT) return std::nullopt;
    if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode))
      refuse(path, kind, "it is a symbolic link");
    throw UsageError(path + ": cannot be read: " + std::strerror(err));
  }
  struct stat st {};
  if (::fstat(fd.fd, &st) != 0)
    throw UsageError(path + ": cannot be read: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) refuse(path, kind, "it is " + type_name(st.st_mode));
  if (static_cast<std::uint64_t>(st.st_size) > kind.max_bytes)
    throw UsageError(path + ": not read: " + mib(static_cast<std::uint64_t>(st.st_size)) +
                     ", more than the " + mib(kind.max_bytes) + " a " + kind.what +
                     " may have (is it the right file?)");
  // A regular file read with O_NONBLOCK behaves as without it.
  return read_all(fd.fd, false, path, kind);
}

std::string read_untrusted_file(const std::string& path, const FileKind& kind) {
  auto text = read_untrusted_file_if_present(path, kind);
  if (!text) throw UsageError(path + ": cannot be read: " + std::strerror(ENOENT));
  return std::move(*text);
}

std::string escaped_excerpt(const std::string& text, std::size_t max) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i == max) return out + "...";
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

}  // namespace edp
