// Operating points (DESIGN §10): named sets of clock and core limits that a
// sweep applies one after the other, and the board state they replace, saved
// before the first change and restored at the end, on a signal, or after a
// crash by `edpbench restore` / restore_leftover().
//
// Every path here is absolute ("/sys/...") and read or written under the
// Platform's sysfs root, so tests use a writable copy of a fake tree. The
// files are the kernel's sysfs ABI:
//   /sys/devices/system/cpu/cpuN/online            CPU hotplug (0/1)
//     (Documentation/ABI/testing/sysfs-devices-system-cpu; cpu0 has none on
//     arm64 and cannot go offline)
//   /sys/devices/system/cpu/cpuN/cpufreq/scaling_{min,max}_freq, kHz,
//     scaling_available_frequencies, scaling_governor,
//     scaling_available_governors, related_cpus
//     (Documentation/admin-guide/pm/cpufreq.rst, "policy attributes")
//   /sys/class/devfreq/<dev>/{min,max}_freq, Hz, available_frequencies
//     (Documentation/ABI/testing/sysfs-class-devfreq)
//   /sys/kernel/nvpmodel_emc_cap/emc_iso_cap, Hz, 0 = no cap: the L4T R32
//     kernel's EMC cap that nvpmodel writes on a TX2 (nvpmodel_t186.conf)
//
// The process never needs root and refuses to change the real board's clocks
// as root: the `edpbench` group gets write access to exactly these files
// through the grant shipped in the package (docs/deployment.md §6).
//
// The implementation is split by concept: operating_point_resolve.cpp (what
// a point means on this board), operating_point_privileges.cpp (what may be
// written, the grant, the nvpmodel tool), clock_state_file.cpp (the state
// file: format, parse, validation) and operating_point_apply.cpp (apply,
// undo, restore). A state file is untrusted data (docs/reliability.md).
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "platform/platform.h"

namespace edp::platform {

// One operating point, as the config's `operating_points:` list names it.
// Either an nvpmodel mode (`nvpmodel: N`, settings from /etc/nvpmodel.conf)
// or explicit limits, or both (the explicit limits then override the mode's).
// -1 / "" leave that setting as the mode or the board has it.
struct OperatingPoint {
  std::string name;
  int nvpmodel = -1;      // mode id of /etc/nvpmodel.conf
  long cpu_max_khz = -1;  // every cpufreq policy; a value its table lists
  long cpu_min_khz = -1;
  long gpu_max_hz = -1;  // the GPU devfreq node
  long gpu_min_hz = -1;
  long emc_max_hz = -1;      // EMC cap; 0 = no cap
  std::string cpus_online;   // "0,3-5": these online, every other present CPU offline
  std::string cpu_governor;  // every policy's scaling_governor
};

// One sysfs write: the absolute path and the value. `alt` is another value
// that counts as reached when read back (the raw nvpmodel.conf figure that
// the nvpmodel tool writes, where edpbench writes the table entry it rounds to).
struct ClockWrite {
  std::string path;
  std::string value;
  std::string alt;
  bool from_mode = false;  // set by the nvpmodel mode (the tool writes it when one is used)
};

// A point checked against the board: the writes that make it, unordered.
struct ResolvedPoint {
  OperatingPoint point;
  std::string nvpmodel_name;  // "MAXQ" for an nvpmodel point
  std::vector<ClockWrite> writes;
  std::string describe() const;  // "MAXQ: cpu 0,3-5; cpu0 max 1190400 kHz; ..."
};

// Validates every point against the board without changing anything: point
// names unique and non-empty, the nvpmodel mode in /etc/nvpmodel.conf (under
// the root), each frequency one the hardware lists (scaling_available_
// frequencies, devfreq available_frequencies), min <= max, the governor one
// the policy offers, the CPUs present, and every file a write needs present.
// nvpmodel.conf figures are rounded to the table as nvpmodel's caps work:
// MAX_FREQ to the highest listed rate not above it (-1: the top), MIN_FREQ to
// the lowest not below it. Throws edp::UsageError naming the point, the file
// or value, and the valid choices.
std::vector<ResolvedPoint> validate_points(const Platform& p,
                                           const std::vector<OperatingPoint>& points);

// How points are applied.
struct ApplyOptions {
  // "" writes sysfs. Otherwise the nvpmodel command (a name looked up on PATH,
  // or a path): an nvpmodel point is applied by running `TOOL -m N`, then its
  // explicit overrides are written and everything is read back.
  std::string nvpmodel_tool;
  double settle_timeout_s = 2.0;  // read-back polling bound per point
  double poll_interval_s = 0.02;
  // Tests only: replaces the write of one file; returns 0 or an errno value.
  std::function<int(const std::string& real_path, const std::string& value)> write_file;
  // Restore only: lets root restore the real board's clocks (`restore
  // --allow-root`); without it root is refused before anything is read.
  bool allow_root = false;
};

// The files a set of points would write that this process cannot write
// (faccessat W_OK under the root; as root, a file counts as writable only when
// its mode has a write bit, so a fake tree behaves as for the service user).
struct PrivilegeReport {
  std::vector<std::string> unwritable;  // absolute paths, sorted
  std::vector<std::string> problems;    // e.g. running as root on the real board, tool missing
  bool ok() const { return unwritable.empty() && problems.empty(); }
  // Every file, then the exact grant (packaging/edpbench-clocks.conf,
  // docs/deployment.md §6); "" when ok().
  std::string message() const;
};
// The commands that install the shipped grant (tmpfiles.d snippet and the
// service drop-in), several lines ending in a newline.
std::string grant_instructions();
PrivilegeReport check_privileges(const Platform& p, const std::vector<ResolvedPoint>& points,
                                 const ApplyOptions& opt = {});

// The board's state before the first change: every file any point writes.
struct SavedState {
  std::string sysfs_root;
  int nvpmodel_id = -1;           // /var/lib/nvpmodel/status at save time
  bool nvpmodel_by_tool = false;  // points were applied through the nvpmodel tool
  long pid = 0;                   // the process that saved it
  long pid_start = 0;             // its start time (/proc/PID/stat field 22), 0 = unknown
  std::vector<ClockWrite> files;
};
SavedState capture_state(const Platform& p, const std::vector<ResolvedPoint>& points,
                         const ApplyOptions& opt = {});
// key=value text; write_state writes each path atomically (directories made).
std::string format_state(const SavedState& s);
// Syntax only (throws edp::UsageError naming the line); an old file's
// `nvpmodel_tool=NAME` only means "the tool was used", NAME is never run.
SavedState parse_state(const std::string& text);
// A parsed state file is untrusted: every file= entry must be a clock or core
// file that this board's platform layer finds itself under `sysfs_root`
// (cpuN/online, cpufreq scaling_{min,max}_freq and scaling_governor, the GPU
// devfreq min/max_freq, the EMC cap, the files /etc/nvpmodel.conf names),
// written as a plain /sys path (no "..", ".", "//"), resolving inside
// <root>/sys and not a symlink itself, listed once, and its value inside the
// file's own range (online 0/1, a governor the policy offers, a rate within
// the table / cpuinfo range, 0 allowed for a min). nvpmodel_id must be a mode
// of the conf. Throws edp::UsageError naming the entry; writes nothing.
void validate_state(const SavedState& s, const std::string& sysfs_root);
// Writes `value` + "\n" to <sysfs_root>/<abs>: opened with O_NOFOLLOW and
// O_NONBLOCK, and only when the file actually opened (/proc/self/fd) is a
// regular file with one link inside <real root>/sys. "" or why not.
std::string write_clock_file(const std::string& sysfs_root, const std::string& abs,
                             const std::string& value);
// Field 22 of /proc/PID/stat (clock ticks since boot), 0 when unknown.
long process_start_ticks(long pid);
// Whether `pid` is a running process named exactly "edpbench" (and, when
// start_ticks > 0, started at that time: a recycled pid is not the owner).
bool pid_is_live_edpbench(long pid, long start_ticks);
// The nvpmodel tool at a fixed path (/usr/sbin/nvpmodel, /usr/bin/nvpmodel),
// root-owned and writable by no one else; "" when there is none.
std::string discover_nvpmodel_tool();
// Each copy ends with a "# copy: PATH" line per path, the same in all, so
// that restore_leftover can remove the copies it did not restore from.
inline constexpr const char* kCopyComment = "# copy: ";
void write_state(const SavedState& s, const std::vector<std::string>& paths);
// Where the state lives for a sweep writing into `out_dir` ("" = none): the
// out dir's clock-state.txt, then the state directory's: $STATE_DIRECTORY
// (systemd's StateDirectory=), else $XDG_STATE_HOME/edpbench, else
// $HOME/.local/state/edpbench.
std::vector<std::string> state_file_paths(const std::string& out_dir);

// What one apply or restore did.
struct ApplyResult {
  std::string name;
  std::vector<ClockWrite> written;    // in write order
  std::vector<ClockWrite> read_back;  // the same files, read after settling
  std::vector<std::string> warnings;  // e.g. a clock outside its new limits
  std::vector<std::string> failures;  // restore only: files it could not set
  double settle_s = 0;
  std::string summary() const;  // one line for the log and the results note
};

// Applying failed: the writes already made were undone. what() names the
// file, the value and the errno text (or the read-back that never settled).
class ApplyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes the point in a safe order (CPUs online first, then governors, then
// per clock the max before the min when the ceiling rises and the min first
// when it falls, CPUs offline last), reads every file back until it holds the
// value (bounded by settle_timeout_s) and returns what it saw. Throws
// ApplyError after undoing on any failure, and edp::UsageError as root on the
// real board.
ApplyResult apply_point(const Platform& p, const ResolvedPoint& point,
                        const ApplyOptions& opt = {});

// Writes the saved values back (same ordering), best effort: every file is
// tried and the ones that failed are listed in `failures`. When the state
// says the tool was used and has an nvpmodel id, runs `TOOL -m ID` first,
// TOOL being opt.nvpmodel_tool or else discover_nvpmodel_tool(). Callers
// with a state read from a file validate it first (restore_leftover does).
ApplyResult restore_state(const SavedState& s, const ApplyOptions& opt = {});

// At start-up (run, restore): restores the first state file of `paths` that
// exists and removes them all once it succeeded, and with them the copies
// its "# copy:" lines name that are still byte for byte the same file (a
// regular file named clock-state.txt): the state directory's copy of an
// out-dir state restored with --state was "restored" again by the next
// sweep over a later setting. nullopt when there was none.
// `sysfs_root_override` ("" = keep; "/" = the real machine) replaces the root
// the file records. In this order: the file is read (not through a symlink),
// parsed, its owner checked (pid and start time), root refused on the real
// board unless opt.allow_root, validate_state(), and only then written.
// Throws edp::UsageError for any of those, std::runtime_error when some files
// could not be restored (the state files are then kept).
std::optional<ApplyResult> restore_leftover(const std::vector<std::string>& paths,
                                            const std::string& sysfs_root_override = "",
                                            const ApplyOptions& opt = {});

// The runner's handle: validate + check privileges + save in the
// constructor (throws edp::UsageError before anything changed), apply(i) per
// point, restore() at the end or after a signal (idempotent; the destructor
// calls it too). State files are removed after a complete restore.
class OperatingPointSession {
 public:
  OperatingPointSession(const Platform& p, const std::vector<OperatingPoint>& points,
                        std::vector<std::string> state_paths, ApplyOptions opt = {});
  ~OperatingPointSession();
  OperatingPointSession(const OperatingPointSession&) = delete;
  OperatingPointSession& operator=(const OperatingPointSession&) = delete;

  const std::vector<ResolvedPoint>& points() const { return points_; }
  const SavedState& saved() const { return saved_; }
  ApplyResult apply(size_t index);  // throws ApplyError (undone) for that point
  ApplyResult restore();

 private:
  Platform platform_;
  std::vector<ResolvedPoint> points_;
  std::vector<std::string> state_paths_;
  ApplyOptions opt_;
  SavedState saved_;
  bool changed_ = false;
  bool restored_ = false;
};

// What `probe` lists: the nvpmodel modes of the conf and the rates each
// clock offers.
struct OfferedPoints {
  std::vector<std::pair<int, std::string>> nvpmodel_modes;
  int nvpmodel_default = -1;
  // One entry per cpufreq policy: "cpu0,3-5" (its CPUs), its rates in kHz.
  std::vector<std::pair<std::string, std::vector<long>>> cpu_khz;
  std::vector<std::string> cpu_governors;
  std::vector<long> gpu_hz;
  bool emc_cap = false;  // /sys/kernel/nvpmodel_emc_cap/emc_iso_cap present
};
OfferedPoints offered_points(const Platform& p);

}  // namespace edp::platform
