// Operating points, privileges: what this process may write, how to grant
// the service user access to exactly those files, and the nvpmodel tool
// (found by our own fixed paths for a restore, never named by a state file).
// The process never changes the real board's clocks as root (DESIGN §10).
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <sstream>

#include "common/errors.h"
#include "platform/operating_point.h"
#include "platform/operating_point_detail.h"

extern char** environ;

namespace edp::platform {
namespace {
const char* const kGrantFile = "/usr/lib/edpbench/edpbench-clocks.tmpfiles";
const char* const kDropinFile = "/usr/lib/edpbench/edpbench-clocks.service.conf";
}  // namespace

namespace detail {

std::string find_tool(const std::string& tool) {
  if (tool.empty()) return "";
  if (tool.find('/') != std::string::npos) return ::access(tool.c_str(), X_OK) == 0 ? tool : "";
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin");
  for (std::string d; std::getline(dirs, d, ':');) {
    if (d.empty()) d = ".";
    const std::string candidate = d + "/" + tool;
    struct stat st;
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return "";
}

// Runs `tool -m id` with its stdout on our stderr; returns "" or the failure.
std::string run_tool(const std::string& tool, int id) {
  const std::string exe = find_tool(tool);
  if (exe.empty()) return "nvpmodel tool '" + tool + "' not found on PATH";
  const std::string mode = std::to_string(id);
  std::vector<char*> argv = {const_cast<char*>(exe.c_str()), const_cast<char*>("-m"),
                             const_cast<char*>(mode.c_str()), nullptr};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, 2, 1);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return exe + " -m " + mode + ": " + std::strerror(rc);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  return exe + " -m " + mode + " " +
         (WIFEXITED(status) ? "exited with status " + std::to_string(WEXITSTATUS(status))
                            : "was killed by signal " + std::to_string(WTERMSIG(status)));
}

bool as_root_on_real_board(const std::string& sysfs_root) {
  if (::geteuid() != 0) return false;
  const std::string root = SysfsRoot(sysfs_root).root();
  if (root.empty()) return true;
  // "/.", "/sys/..", a symlink to "/": still the real machine.
  std::error_code ec;
  const auto real = std::filesystem::canonical(root, ec);
  return ec || real == "/";
}

bool writable(const std::string& real) {
  if (::geteuid() == 0) {
    // Root passes every access() check; judge a (fake) tree by its mode bits
    // as the unprivileged service user would meet them.
    struct stat st;
    return ::stat(real.c_str(), &st) == 0 && (st.st_mode & 0222) != 0;
  }
  return ::faccessat(AT_FDCWD, real.c_str(), W_OK, AT_EACCESS) == 0;
}

}  // namespace detail

using namespace detail;

std::string discover_nvpmodel_tool() {
  // L4T installs the tool as /usr/sbin/nvpmodel (package nvidia-l4t-tools).
  // Only a root-owned file that no one else may modify is run.
  for (const char* path : {"/usr/sbin/nvpmodel", "/usr/bin/nvpmodel"}) {
    struct stat st;
    if (::stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == 0 &&
        (st.st_mode & (S_IWGRP | S_IWOTH)) == 0 && ::access(path, X_OK) == 0) {
      return path;
    }
  }
  return "";
}

std::string grant_instructions() {
  return std::string(
             "Grant group edpbench write access to exactly these files (docs/deployment.md, "
             "\"Changing clocks\"):\n"
             "  sudo cp ") +
         kGrantFile +
         " /etc/tmpfiles.d/edpbench-clocks.conf\n"
         "  sudo systemd-tmpfiles --create /etc/tmpfiles.d/edpbench-clocks.conf\n"
         "then run edpbench as a member of edpbench (sudo adduser $USER edpbench, log in "
         "again), never as root; under systemd also let the service write them:\n"
         "  sudo mkdir -p /etc/systemd/system/edpbench.service.d\n"
         "  sudo cp " +
         kDropinFile +
         " /etc/systemd/system/edpbench.service.d/clocks.conf\n"
         "  sudo systemctl daemon-reload\n";
}

std::string PrivilegeReport::message() const {
  if (ok()) return "";
  std::string m;
  for (const auto& p : problems) m += p + "\n";
  if (!unwritable.empty()) {
    m += "edpbench cannot write " + std::to_string(unwritable.size()) +
         " file(s) that the operating points change:\n";
    for (const auto& f : unwritable) m += "  " + f + "\n";
    m += grant_instructions();
  }
  return m;
}

PrivilegeReport check_privileges(const Platform& p, const std::vector<ResolvedPoint>& points,
                                 const ApplyOptions& opt) {
  PrivilegeReport r;
  const SysfsRoot root(p.sysfs_root);
  if (as_root_on_real_board(p.sysfs_root)) {
    r.problems.push_back(
        "edpbench does not change clocks as root: run it as a user in group edpbench (the "
        "service user is one) with the grant below");
  }
  bool tool_needed = false;
  std::set<std::string> bad;
  for (const auto& pt : points) {
    const bool by_tool = !opt.nvpmodel_tool.empty() && pt.point.nvpmodel >= 0;
    tool_needed = tool_needed || by_tool;
    for (const auto& w : pt.writes) {
      if (by_tool && w.from_mode) continue;
      if (!writable(root.path(w.path))) bad.insert(w.path);
    }
  }
  if (tool_needed && find_tool(opt.nvpmodel_tool).empty()) {
    r.problems.push_back("nvpmodel tool '" + opt.nvpmodel_tool + "' not found on PATH");
  }
  r.unwritable.assign(bad.begin(), bad.end());
  return r;
}

}  // namespace edp::platform
