// Operating points, apply / undo / restore: writes a resolved point in a safe
// order with read-back and undo, and puts saved state back. Every write goes
// through write_clock_file(): a regular file reached inside <root>/sys, the
// last component never a symlink. See operating_point.h.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <thread>

#include "common/errors.h"
#include "common/safe_file.h"
#include "platform/operating_point.h"
#include "platform/operating_point_detail.h"

namespace fs = std::filesystem;

namespace edp::platform {

using namespace detail;

namespace {

// linux/magic.h: sysfs ignores truncation and offsets; a fake tree's regular
// files need the old content cut.
constexpr long kSysfsMagic = 0x62656572;

}  // namespace

std::string write_clock_file(const std::string& sysfs_root, const std::string& abs,
                             const std::string& value) {
  const SysfsRoot root(sysfs_root);
  std::error_code ec;
  const fs::path real_root = fs::canonical(root.root().empty() ? "/" : root.root(), ec);
  if (ec) return "sysfs root " + root.root() + ": " + ec.message();
  // An absolute root is taken as it resolved when it was checked (a restore
  // pins it: restore_leftover): if a component has since become a symlink,
  // the tree it was validated against is no longer the one written.
  if (!root.root().empty() && root.root()[0] == '/' && real_root.string() != root.root())
    return "sysfs root " + root.root() + " now resolves to " + real_root.string() +
           " (a directory on the way was replaced by a symbolic link); refused";
  const std::string sys_dir = (real_root / "sys").string() + "/";
  const std::string path = root.path(abs);
  // No O_TRUNC before the file is known to be the right one; O_NONBLOCK so a
  // planted FIFO cannot block us; O_NOFOLLOW: the last component is no link.
  const int fd = ::open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    return err == ELOOP ? path + " is a symbolic link; refused" : std::strerror(err);
  }
  auto fail = [fd](const std::string& why) {
    ::close(fd);
    return why;
  };
  char link[4096];
  const std::string self = "/proc/self/fd/" + std::to_string(fd);
  const ssize_t n = ::readlink(self.c_str(), link, sizeof link - 1);
  if (n <= 0) return fail("cannot tell where " + path + " leads (" + self + ")");
  const std::string opened(link, static_cast<size_t>(n));
  if (opened.compare(0, sys_dir.size(), sys_dir) != 0)
    return fail(path + " leads to " + opened + ", outside " + sys_dir + "; refused");
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1)
    return fail(path + " is not a plain sysfs attribute (a regular file with one link); refused");
  struct statfs fsinfo;
  if (::fstatfs(fd, &fsinfo) == 0 && static_cast<long>(fsinfo.f_type) != kSysfsMagic &&
      ::ftruncate(fd, 0) != 0)
    return fail(std::strerror(errno));
  const std::string data = value + "\n";
  const ssize_t w = ::write(fd, data.data(), data.size());
  const int err = w < 0 ? errno : (static_cast<size_t>(w) != data.size() ? EIO : 0);
  if (::close(fd) != 0 && err == 0) return std::strerror(errno);
  return err ? std::strerror(err) : "";
}

namespace {

std::string write_one(const SysfsRoot& root, const ClockWrite& w, const ApplyOptions& opt) {
  if (opt.write_file) {
    const int err = opt.write_file(root.path(w.path), w.value);
    return err ? std::strerror(err) : "";
  }
  return write_clock_file(root.root(), w.path, w.value);
}

bool holds(const SysfsRoot& root, const ClockWrite& w) {
  const auto now = root.read_line(w.path);
  if (!now) return false;
  return *now == trim(w.value) || (!w.alt.empty() && *now == trim(w.alt));
}

// The pre-change value of every file, for undo.
std::vector<ClockWrite> current_values(const SysfsRoot& root, const std::vector<ClockWrite>& ws) {
  std::vector<ClockWrite> out;
  for (const auto& w : ws) {
    if (auto v = root.read_line(w.path)) out.push_back({w.path, *v, "", false});
  }
  return out;
}

// Best-effort write of `values` (in a safe order); returns one line per failure.
std::vector<std::string> write_back(const SysfsRoot& root, const std::vector<ClockWrite>& values,
                                    const ApplyOptions& opt) {
  std::vector<std::string> failures;
  for (const auto& w : ordered(root, values)) {
    if (holds(root, w)) continue;
    if (const std::string err = write_one(root, w, opt); !err.empty()) {
      failures.push_back(w.path + ": writing '" + w.value + "' failed: " + err);
    }
  }
  return failures;
}

}  // namespace

std::string ApplyResult::summary() const {
  std::string s = name + ":";
  for (const auto& w : read_back)
    s += " " + basename_of(dirname_of(w.path)) + "/" + basename_of(w.path) + "=" + w.value;
  char buf[48];
  snprintf(buf, sizeof buf, " (settled in %.2f s)", settle_s);
  s += buf;
  for (const auto& w : warnings) s += "; warning: " + w;
  for (const auto& f : failures) s += "; failed: " + f;
  return s;
}

ApplyResult apply_point(const Platform& p, const ResolvedPoint& point, const ApplyOptions& opt) {
  if (as_root_on_real_board(p.sysfs_root)) {
    throw UsageError(
        "edpbench does not change clocks as root: run it as a user in group edpbench "
        "(docs/deployment.md, \"Changing clocks\")");
  }
  const SysfsRoot root(p.sysfs_root);
  const std::string& name = point.point.name;
  const std::vector<ClockWrite> before = current_values(root, point.writes);
  ApplyResult r;
  r.name = name;
  const double t0 = now_s();

  auto undo_and_throw = [&](const std::string& why) {
    const auto failures = write_back(root, before, opt);
    std::string msg = "operating point '" + name + "': " + why;
    msg += failures.empty() ? "; the files it had changed were restored"
                            : "; undoing also failed: " + join(failures, "; ");
    throw ApplyError(msg);
  };

  std::vector<ClockWrite> to_write = point.writes;
  if (!opt.nvpmodel_tool.empty() && point.point.nvpmodel >= 0) {
    if (auto err = run_tool(opt.nvpmodel_tool, point.point.nvpmodel); !err.empty()) {
      undo_and_throw(err);
    }
    r.written.push_back({"nvpmodel -m " + std::to_string(point.point.nvpmodel), "", "", true});
    to_write.erase(std::remove_if(to_write.begin(), to_write.end(),
                                  [](const ClockWrite& w) { return w.from_mode; }),
                   to_write.end());
  }
  for (const auto& w : ordered(root, to_write)) {
    if (const std::string err = write_one(root, w, opt); !err.empty()) {
      undo_and_throw("writing '" + w.value + "' to " + w.path + " failed: " + err);
    }
    r.written.push_back(w);
  }

  // Settle: every file reads back its value, and every clock with a new cap
  // runs at or below it, polled until settle_timeout_s.
  const double deadline = t0 + opt.settle_timeout_s;
  std::vector<std::string> pending;
  auto clocks_above_cap = [&]() {
    std::vector<std::string> out;
    for (const auto& w : point.writes) {
      const std::string b = basename_of(w.path);
      std::string cur;
      if (b == "scaling_max_freq") cur = dirname_of(w.path) + "/scaling_cur_freq";
      if (b == "max_freq") cur = dirname_of(w.path) + "/cur_freq";
      if (cur.empty()) continue;
      const auto c = root.read_long(cur);
      const auto cap = root.read_long(w.path);
      if (c && cap && *c > *cap) {
        out.push_back(cur + " is " + std::to_string(*c) + ", above the cap " +
                      std::to_string(*cap));
      }
    }
    return out;
  };
  for (;;) {
    pending.clear();
    for (const auto& w : point.writes) {
      if (!holds(root, w)) pending.push_back(w.path);
    }
    const auto above = pending.empty() ? clocks_above_cap() : std::vector<std::string>{};
    if (pending.empty() && above.empty()) break;
    if (now_s() >= deadline) {
      if (!pending.empty()) {
        const auto now = root.read_line(pending.front());
        const ClockWrite* w = nullptr;
        for (const auto& x : point.writes) {
          if (x.path == pending.front()) w = &x;
        }
        undo_and_throw(pending.front() + " reads '" + now.value_or("(unreadable)") + "', not '" +
                       (w ? w->value : "") + "', after " + std::to_string(opt.settle_timeout_s) +
                       " s");
      }
      r.warnings = above;
      break;
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(opt.poll_interval_s));
  }
  r.settle_s = now_s() - t0;
  r.read_back = current_values(root, point.writes);
  return r;
}

ApplyResult restore_state(const SavedState& s, const ApplyOptions& opt) {
  const SysfsRoot root(s.sysfs_root);
  ApplyResult r;
  r.name = "restore";
  const double t0 = now_s();
  if (s.nvpmodel_by_tool && s.nvpmodel_id >= 0) {
    // The tool is the caller's (code, not data) or found at our own fixed
    // paths; a state file never names what runs.
    const std::string tool =
        opt.nvpmodel_tool.empty() ? discover_nvpmodel_tool() : opt.nvpmodel_tool;
    if (tool.empty()) {
      r.warnings.push_back("the sweep set nvpmodel mode " + std::to_string(s.nvpmodel_id) +
                           " through the nvpmodel tool, which is not installed at "
                           "/usr/sbin/nvpmodel; the saved files are written back instead");
    } else if (auto err = run_tool(tool, s.nvpmodel_id); !err.empty()) {
      r.failures.push_back(err);
    }
  }
  std::vector<ClockWrite> todo;
  for (const auto& f : s.files) {
    if (!holds(root, f)) todo.push_back(f);
  }
  for (const auto& w : ordered(root, todo)) {
    if (const std::string err = write_one(root, w, opt); !err.empty()) {
      r.failures.push_back(w.path + ": writing '" + w.value + "' failed: " + err);
    } else {
      r.written.push_back(w);
    }
  }
  const double deadline = t0 + opt.settle_timeout_s;
  for (;;) {
    bool all = true;
    for (const auto& w : r.written) all = all && holds(root, w);
    if (all || now_s() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::duration<double>(opt.poll_interval_s));
  }
  for (const auto& w : r.written) {
    if (!holds(root, w)) {
      r.failures.push_back(w.path + " reads '" + root.read_line(w.path).value_or("(unreadable)") +
                           "', not the saved '" + w.value + "'");
    }
  }
  r.settle_s = now_s() - t0;
  r.read_back = current_values(root, s.files);
  return r;
}

namespace {

// The state file's text, through the one reader of untrusted files: no link
// followed, no FIFO waited on, read to the end in a loop, at most its cap.
std::string read_state_file(const std::string& path) {
  return read_untrusted_file(path, file_kind::clock_state);
}

// The other copies of a restored state file (its "# copy:" lines), each
// removed only when it is a regular file named clock-state.txt whose text is
// the restored one's: a line an attacker wrote can name nothing else.
void remove_identical_copies(const std::string& text, const std::string& restored) {
  std::istringstream in(text);
  const std::string prefix = kCopyComment;
  for (std::string line; std::getline(in, line);) {
    if (line.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string copy = line.substr(prefix.size());
    struct stat st {};
    if (copy == restored || fs::path(copy).filename() != "clock-state.txt" ||
        ::lstat(copy.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
      continue;
    try {
      if (read_state_file(copy) == text) ::unlink(copy.c_str());
    } catch (const UsageError&) {
    }
  }
}

}  // namespace

std::optional<ApplyResult> restore_leftover(const std::vector<std::string>& paths,
                                            const std::string& sysfs_root_override,
                                            const ApplyOptions& opt) {
  for (const auto& path : paths) {
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(path, ec))) continue;
    SavedState s;
    const std::string text = read_state_file(path);  // its errors name the path
    try {
      s = parse_state(text);
    } catch (const UsageError& e) {
      throw UsageError(path + ": " + e.what());
    }
    if (pid_is_live_edpbench(s.pid, s.pid_start)) {
      throw UsageError(path + " belongs to edpbench process " + std::to_string(s.pid) +
                       ", which is still running; it restores the board itself when it ends");
    }
    if (!sysfs_root_override.empty()) s.sysfs_root = sysfs_root_override;
    // The root, resolved once before anything else reads it: validation and
    // every write then use this one real path, and write_clock_file refuses
    // a file that is no longer under it, so an owner of the tree cannot
    // swap a directory of the path for a symlink (to "/") once validated.
    if (!SysfsRoot(s.sysfs_root).root().empty()) {
      const fs::path real = fs::canonical(s.sysfs_root, ec);
      if (ec)
        throw UsageError(path + ": sysfs_root=" + s.sysfs_root + ": " + ec.message() +
                         " (pass --sysfs-root, or delete the file if it is not edpbench's)");
      s.sysfs_root = real.string() == "/" ? "" : real.string();
      // As root, a tree named by the file itself (not by --sysfs-root) must
      // be root's alone: every file in it is read by root, and a FIFO or a
      // link to /dev/zero there would hang it or exhaust its memory (found
      // by the security review).
      struct stat st {};
      if (sysfs_root_override.empty() && !s.sysfs_root.empty() && ::geteuid() == 0 &&
          (::stat(s.sysfs_root.c_str(), &st) != 0 || st.st_uid != 0 ||
           (st.st_mode & (S_IWGRP | S_IWOTH)) != 0))
        throw UsageError(path + ": sysfs_root=" + s.sysfs_root +
                         " is not a directory that only root can write; root does not read a "
                         "tree another user controls (pass --sysfs-root to name it yourself)");
    }
    // Root first: whoever can write the state file's directory must not get
    // root's writes. Then every entry is checked before anything is written.
    if (as_root_on_real_board(s.sysfs_root) && !opt.allow_root) {
      throw UsageError(
          "edpbench does not restore the real board's clocks as root from " + path +
          ", a file that the service user can write: run `edpbench restore` as a user in "
          "group edpbench (sudo -u edpbench edpbench restore ...), or check the file and pass "
          "--allow-root");
    }
    try {
      validate_state(s, s.sysfs_root);
    } catch (const UsageError& e) {
      throw UsageError(path + ": " + e.what());
    }
    ApplyResult r = restore_state(s, opt);
    if (!r.failures.empty()) {
      throw std::runtime_error("restoring the board from " + path + " failed for " +
                               join(r.failures, "; ") + " (the state file is kept)\n" +
                               grant_instructions());
    }
    for (const auto& other : paths) fs::remove(other, ec);
    remove_identical_copies(text, path);
    return r;
  }
  return std::nullopt;
}

OperatingPointSession::OperatingPointSession(const Platform& p,
                                             const std::vector<OperatingPoint>& points,
                                             std::vector<std::string> state_paths, ApplyOptions opt)
    : platform_(p), state_paths_(std::move(state_paths)), opt_(std::move(opt)) {
  points_ = validate_points(platform_, points);
  const PrivilegeReport priv = check_privileges(platform_, points_, opt_);
  if (!priv.ok()) throw UsageError(priv.message());
  saved_ = capture_state(platform_, points_, opt_);
  write_state(saved_, state_paths_);
}

OperatingPointSession::~OperatingPointSession() {
  try {
    restore();
  } catch (...) {
  }
}

ApplyResult OperatingPointSession::apply(size_t index) {
  changed_ = true;
  restored_ = false;
  return apply_point(platform_, points_.at(index), opt_);
}

ApplyResult OperatingPointSession::restore() {
  ApplyResult r;
  r.name = "restore";
  if (restored_) return r;
  if (changed_) r = restore_state(saved_, opt_);
  if (r.failures.empty()) {
    std::error_code ec;
    for (const auto& path : state_paths_) fs::remove(path, ec);
    restored_ = true;
  }
  return r;
}

}  // namespace edp::platform
