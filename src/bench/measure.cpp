#include "bench/measure.h"

#include "bench/board_rails.h"
#include "bench/run_evidence.h"
#include "bench/sweep.h"
#include "bench/window.h"
#include "report/results_csv.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <limits>

#include "common/atomic_file.h"
#include "common/errors.h"
#include "common/json.h"
#include "platform/platform.h"
#include "power/total_rails.h"
#include "report/csv.h"
#include "report/stats.h"

namespace edp::bench {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A shell-like rendering of the command, for the summary and the default label.
std::string command_line(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    const bool plain =
        !a.empty() && a.find_first_of(" \t\n'\"\\$`*?[]{}()<>|&;#~") == std::string::npos;
    std::string q = "'";
    for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += (out.empty() ? "" : " ") + (plain ? a : q + "'");
  }
  return out;
}

// SIGINT, SIGTERM and SIGCHLD stay blocked in every thread while measuring
// and are taken synchronously with sigwaitinfo/sigtimedwait, so a signal can
// neither be lost between a check and a wait nor land in the sampler thread.
// The block must be in place before the sampler thread starts: threads
// inherit the creator's mask. SIGTTOU is blocked too, so that taking the
// terminal back from the command's process group does not stop us.
class SignalBlock {
 public:
  SignalBlock() {
    sigemptyset(&set_);
    for (int s : {SIGINT, SIGTERM, SIGCHLD, SIGTTOU}) sigaddset(&set_, s);
    pthread_sigmask(SIG_BLOCK, &set_, &old_);
  }
  ~SignalBlock() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  SignalBlock(const SignalBlock&) = delete;
  SignalBlock& operator=(const SignalBlock&) = delete;
  const sigset_t& old_mask() const { return old_; }

 private:
  sigset_t set_, old_;
};

sigset_t stop_signals() {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGINT);
  sigaddset(&s, SIGTERM);
  return s;
}

// Waits up to `seconds` for SIGINT or SIGTERM; returns it, or 0.
int wait_for_stop(double seconds) {
  const sigset_t s = stop_signals();
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (true) {
    const double left =
        std::chrono::duration<double>(until - std::chrono::steady_clock::now()).count();
    timespec ts{};
    if (left > 0) {
      ts.tv_sec = static_cast<time_t>(left);
      ts.tv_nsec = static_cast<long>((left - static_cast<double>(ts.tv_sec)) * 1e9);
    }
    const int sig = sigtimedwait(&s, nullptr, &ts);
    if (sig > 0) return sig;
    if (errno != EINTR || left <= 0) return 0;
  }
}

struct Started {
  pid_t pid = -1;
  std::string error;  // why the command could not be started
};

// fork + exec in a new process group. An exec failure is reported through a
// close-on-exec pipe: it closes without data when exec succeeds.
Started start_command(const std::vector<std::string>& command, const sigset_t& child_mask,
                      bool give_terminal) {
  std::vector<char*> argv;
  for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return {-1, std::string("pipe: ") + std::strerror(errno)};
  const pid_t pid = fork();
  if (pid == 0) {
    // Only async-signal-safe calls from here on: the parent has threads.
    close(fds[0]);
    setpgid(0, 0);
    if (give_terminal) tcsetpgrp(STDIN_FILENO, getpid());  // SIGTTOU is still blocked here
    pthread_sigmask(SIG_SETMASK, &child_mask, nullptr);
    execvp(argv[0], argv.data());
    const int err = errno;
    ssize_t ignored = write(fds[1], &err, sizeof err);
    (void)ignored;
    _exit(127);
  }
  close(fds[1]);
  if (pid < 0) {
    close(fds[0]);
    return {-1, std::string("fork: ") + std::strerror(errno)};
  }
  setpgid(pid, pid);  // also here, so that kill(-pid) cannot precede the child's own call
  int err = 0;
  ssize_t n;
  do n = read(fds[0], &err, sizeof err);
  while (n < 0 && errno == EINTR);
  close(fds[0]);
  if (n == static_cast<ssize_t>(sizeof err)) {
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return {-1, std::strerror(err)};
  }
  return {pid, ""};
}

// Waits for the command, forwarding SIGINT/SIGTERM to its process group (a
// second one sends SIGKILL). Returns the wait status; *stop gets the first
// stop signal.
int wait_command(pid_t pid, int* stop) {
  sigset_t s = stop_signals();
  sigaddset(&s, SIGCHLD);
  int forwarded = 0;
  while (true) {
    int status = 0;
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return status;
    if (r < 0 && errno != EINTR) return 0;     // cannot happen for our own child
    const int sig = sigwaitinfo(&s, nullptr);  // a SIGCHLD sent meanwhile is pending
    if (sig == SIGINT || sig == SIGTERM) {
      if (!*stop) *stop = sig;
      kill(-pid, forwarded++ ? SIGKILL : sig);
    }
  }
}

int exit_status_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

// Everything one run needs.
struct Context {
  const MeasureOptions& opt;
  power::EnergyMeter& meter;
  std::vector<std::string> total_rails;
  double baseline_w = kNaN;  // idle power over the total rails
  const sigset_t& child_mask;
  bool give_terminal;
};

// One measured run of the command: the window's record (the same type and
// the same judging as a sweep's runs: bench/window.h) and how it ended.
struct CommandRun {
  report::RunRecord record;
  int exit_status = 0;  // the command's exit code, or 128 + signal
};

struct RunOutcome {
  CommandRun run;
  int stop = 0;             // SIGINT/SIGTERM received during the run
  std::string start_error;  // the command could not be started
};

// One run: a window around fork, exec and wait, judged like a sweep's run
// (time is the energy window's own span with a meter).
RunOutcome run_once(const Context& c, int number) {
  RunOutcome out;
  report::RunRecord& r = out.run.record;
  r.run = number;
  RunWindow window(c.meter, "measure#" + std::to_string(number), /*probe_activity=*/false);
  const Started child = start_command(c.opt.command, c.child_mask, c.give_terminal);
  int status = 0;
  if (child.pid > 0) status = wait_command(child.pid, &out.stop);
  if (c.give_terminal && child.pid > 0) tcsetpgrp(STDIN_FILENO, getpgrp());
  const std::string failure =
      window.close(WindowJudging{c.total_rails, c.baseline_w, c.opt.power.rate_hz, 1}, 1, r);
  if (child.pid <= 0) {
    out.start_error = child.error;
    return out;
  }
  out.run.exit_status = exit_status_of(status);
  if (!failure.empty()) r.note += (r.note.empty() ? "" : "; ") + ("energy incomplete: " + failure);
  return out;
}

// --- outputs ---------------------------------------------------------------

// json_number keeps 10 digits, which would round a Unix time to the second.
std::string json_clock(double v) { return std::isfinite(v) ? fmt("%.6f", v) : "null"; }

JsonObject run_json(const CommandRun& c) {
  const report::RunRecord& r = c.record;
  JsonObject o;
  o.set("run", r.run);
  o.set("exit_status", c.exit_status);
  o.set("failed", c.exit_status != 0);
  o.set("time_s", r.time_s);
  o.set("energy_j", r.energy_j);
  o.set("dynamic_energy_j", r.dynamic_energy_j);
  o.set("edp_js", r.edp_js);
  o.set("power_w_mean", r.power_w_mean);
  std::map<std::string, double> rails;
  for (const auto& rail : r.rails) rails[rail.rail] = rail.energy_j;
  o.set("rail_energy_j", rails);
  o.set("samples", static_cast<double>(r.samples));
  o.set_raw("start_unix_s", json_clock(r.start_unix_s));
  o.set_raw("end_unix_s", json_clock(r.end_unix_s));
  o.set_raw("start_monotonic_s", json_clock(r.start_monotonic_s));
  o.set_raw("end_monotonic_s", json_clock(r.end_monotonic_s));
  o.set("update_interval_s", r.update_interval_s);
  o.set("distinct_values", static_cast<double>(r.distinct_values));
  o.set("largest_gap_s", r.largest_gap_s);
  o.set("lag_correction_s", r.lag_correction_s);
  o.set("read_failures", static_cast<double>(r.read_failures));
  o.set("missed_deadlines", static_cast<double>(r.missed_deadlines));
  o.set("anomalies", static_cast<double>(r.anomalies));
  o.set("low_confidence", r.low_confidence);
  o.set("frozen", r.frozen);
  o.set("note", r.note);
  return o;
}

// The measured values of one quantity over the runs, NaN ones left out.
std::vector<double> values(const std::vector<CommandRun>& runs, double report::RunRecord::*field) {
  std::vector<double> v;
  for (const auto& r : runs)
    if (!std::isnan(r.record.*field)) v.push_back(r.record.*field);
  return v;
}

struct Metric {
  const char* key;   // JSON key
  const char* name;  // summary label
  const char* unit;
  double report::RunRecord::*field;
};

const Metric kMetrics[] = {
    {"time_s", "time", "s", &report::RunRecord::time_s},
    {"energy_j", "energy", "J", &report::RunRecord::energy_j},
    {"dynamic_energy_j", "dynamic energy", "J", &report::RunRecord::dynamic_energy_j},
    {"edp_js", "EDP", "J*s", &report::RunRecord::edp_js},
    {"power_w_mean", "power", "W", &report::RunRecord::power_w_mean}};

struct Report {
  std::string label, command, source;
  std::vector<std::string> rails, total_rails;
  double baseline_w = kNaN;
  int warmup = 0;
  std::vector<CommandRun> runs;
  bool interrupted = false;
};

std::string measure_json(const Report& rep) {
  JsonObject o;
  o.set("label", rep.label);
  o.set("command", rep.command);
  o.set("power_source", rep.source);
  o.set("rails", join(rep.rails, ","));
  o.set("total_rails", join(rep.total_rails, "+"));
  o.set("baseline_w", rep.baseline_w);
  o.set("warmup", rep.warmup);
  o.set("interrupted", rep.interrupted);
  std::string runs = "[";
  for (size_t i = 0; i < rep.runs.size(); ++i)
    runs += (i ? "," : "") + run_json(rep.runs[i]).str(0);
  o.set_raw("runs", runs + "]");
  JsonObject summary;
  for (const auto& metric : kMetrics) {
    const report::Summary s = report::summarize(values(rep.runs, metric.field));
    JsonObject j;
    j.set("n", s.n);
    j.set("mean", s.n ? s.mean : kNaN);
    j.set("std", s.n ? s.std : kNaN);
    j.set("ci95", s.n ? s.ci95 : kNaN);
    j.set("median", s.n ? s.median : kNaN);
    j.set("min", s.n ? s.min : kNaN);
    j.set("max", s.n ? s.max : kNaN);
    summary.set(metric.key, j);
  }
  o.set("summary", summary);
  return o.str() + "\n";
}

// The --csv file: runs.csv's own columns (report/results_csv.h), the
// command's label as the workload, then label and exit_status.
std::string measure_csv(const Report& rep) {
  report::PartRecord part;
  part.study = "measure";
  part.workload = rep.label;
  part.device = "host";
  part.key = "measure:label=" + rep.label;
  std::vector<std::string> header = report::runs_columns();
  header.insert(header.end(), {"label", "exit_status"});
  std::string out = report::csv_line(header);
  for (const auto& r : rep.runs) {
    std::vector<std::string> row = report::runs_row(part, r.record);
    row.insert(row.end(), {rep.label, std::to_string(r.exit_status)});
    out += report::csv_line(row);
  }
  return out;
}

void write_outputs(const MeasureOptions& opt, const Report& rep) {
  if (!opt.csv_path.empty()) write_file_atomic(opt.csv_path, measure_csv(rep));
  if (!opt.json_path.empty()) write_file_atomic(opt.json_path, measure_json(rep));
}

// The perf-stat-like summary on stderr.
std::string summary_text(const Report& rep, bool metered) {
  std::string out = "\n Energy and time for: " + rep.command + " (" +
                    std::to_string(rep.runs.size()) + " run" + (rep.runs.size() == 1 ? "" : "s");
  if (rep.warmup) out += ", " + std::to_string(rep.warmup) + " warm-up";
  out += "):\n";
  if (metered) {
    out += "   power source " + rep.source + ", total rails " + join(rep.total_rails, "+");
    if (!std::isnan(rep.baseline_w)) out += ", idle baseline " + fmt("%.3f W", rep.baseline_w);
    out += "\n";
  }
  out += "\n";
  for (const auto& metric : kMetrics) {
    const std::vector<double> v = values(rep.runs, metric.field);
    if (v.empty()) continue;
    const report::Summary s = report::summarize(v);
    char line[256];
    std::snprintf(line, sizeof line, "   %14.6g %-3s  %s", s.mean, metric.unit, metric.name);
    out += line;
    if (s.n >= 2) {
      out += std::string(15 - std::strlen(metric.name), ' ');
      const double pct = s.mean != 0 ? 100 * s.std / std::fabs(s.mean) : 0;
      std::snprintf(line, sizeof line, " +- %-10.4g (%5.2f%%)   95%% CI [%.6g, %.6g]", s.std, pct,
                    s.mean - s.ci95, s.mean + s.ci95);
      out += line;
    }
    if (s.n != static_cast<int>(rep.runs.size()))
      out += "  (" + std::to_string(s.n) + " of " + std::to_string(rep.runs.size()) + " runs)";
    out += "\n";
  }
  out += "\n";
  return out;
}

std::vector<std::string> warnings(const Report& rep, bool metered) {
  std::vector<std::string> w;
  if (!metered) w.push_back("no power source: time only, the energy columns stay empty");
  size_t low = 0, frozen = 0, incomplete = 0, failed = 0;
  for (const auto& r : rep.runs) {
    low += r.record.low_confidence;
    frozen += r.record.frozen;
    incomplete += metered && std::isnan(r.record.energy_j);
    failed += r.exit_status != 0;
  }
  auto of = [&](size_t n) {
    return std::to_string(n) + " of " + std::to_string(rep.runs.size()) + " run(s) ";
  };
  if (low)
    w.push_back(of(low) +
                "low confidence: shorter than 10 sensor updates; lengthen the command's work");
  if (frozen) w.push_back(of(frozen) + "with a frozen sensor: their energy is not to be trusted");
  if (incomplete) w.push_back(of(incomplete) + "without energy (sensor reads failed)");
  if (failed) w.push_back(of(failed) + "failed (non-zero exit status)");
  return w;
}

}  // namespace

// The total rails, chosen as `run` chooses them (DESIGN §4.1): auto on the
// board the platform probe names, or an explicit list checked for nesting.
std::vector<std::string> choose_measure_total_rails(const power::EnergyMeter& meter,
                                                    const std::string& sysfs_root,
                                                    const std::vector<std::string>& requested,
                                                    std::string* why) {
  if (!meter.measures_energy()) return {};
  const platform::Prober prober(sysfs_root);
  const power::TotalRails chosen =
      power::choose_total_rails(meter.rails(), rail_roles(prober.platform()), requested);
  *why = chosen.why;
  return chosen.rails;
}

int run_measure(const MeasureOptions& opt) {
  if (opt.command.empty()) throw UsageError("measure needs a command after --");
  if (opt.runs < 1) throw UsageError("--runs must be at least 1");
  if (opt.warmup < 0) throw UsageError("--warmup must not be negative");
  if (!(opt.baseline_s >= 0)) throw UsageError("--baseline-s must not be negative");
  if (!(opt.cooldown_s >= 0)) throw UsageError("--cooldown-s must not be negative");

  // Before the meter exists: its sampler thread must inherit the block.
  const SignalBlock block;
  power::EnergyMeter meter = power::EnergyMeter::open(opt.power);
  const bool metered = meter.measures_energy();
  Report rep;
  rep.command = command_line(opt.command);
  rep.label = opt.label.empty() ? rep.command : opt.label;
  rep.source = meter.source_name();
  rep.rails = meter.rail_names();
  std::string total_why;
  rep.total_rails =
      choose_measure_total_rails(meter, opt.power.sysfs_root, opt.total_rails, &total_why);
  rep.warmup = opt.warmup;
  for (const auto& l : meter.discovery_log()) std::cerr << "edpbench: power: " << l << "\n";
  if (metered)
    std::cerr << "edpbench: power: energy = " << join(rep.total_rails, "+") << ": " << total_why
              << "\n";
  if (metered) {
    meter.set_total_rails(rep.total_rails);
    meter.start();
    // An averaging monitor's lag can only be corrected once its period is
    // known: wait for a few of its updates (at most 5 s) before the first run.
    if (!meter.await_averaging_periods(5.0))
      std::cerr << "edpbench: warning: the sensor's update interval is still unknown after 5 s; "
                   "the runs' energy is not lag-corrected and they are marked low confidence\n";
  }

  // The terminal goes to the command's process group while it runs (so that
  // it can read it and Ctrl-C reaches it), when we hold it ourselves.
  const bool give_terminal = isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp();
  Context ctx{opt, meter, rep.total_rails, kNaN, block.old_mask(), give_terminal};

  auto finish = [&](int code) {
    write_outputs(opt, rep);
    if (rep.interrupted)
      std::cerr << "edpbench: interrupted by " << (code == 128 + SIGINT ? "SIGINT" : "SIGTERM")
                << "; " << rep.runs.size() << " complete run(s) kept\n";
    std::cerr << summary_text(rep, metered);
    for (const auto& w : warnings(rep, metered)) std::cerr << "edpbench: warning: " << w << "\n";
    return code;
  };

  if (metered && opt.baseline_s > 0) {
    std::cerr << "edpbench: measuring idle power for " << opt.baseline_s << " s\n";
    int stop = 0;
    const auto idle = meter.measure_idle_w(opt.baseline_s, [&stop] {
      stop = wait_for_stop(0);
      return stop == 0;
    });
    if (stop) {
      rep.interrupted = true;
      return finish(128 + stop);
    }
    const double total = idle_total_w(rep.total_rails, idle);
    if (std::isnan(total))
      std::cerr << "edpbench: warning: no idle baseline for every total rail (reads failed); "
                   "dynamic energy stays empty\n";
    rep.baseline_w = ctx.baseline_w = total;
  }

  for (int i = 1; i <= opt.warmup + opt.runs; ++i) {
    const bool warmup = i <= opt.warmup;
    int stop = wait_for_stop(warmup ? 0 : opt.cooldown_s);
    if (stop) {
      rep.interrupted = true;
      return finish(128 + stop);
    }
    RunOutcome o = run_once(ctx, warmup ? -i : i - opt.warmup);
    if (!o.start_error.empty()) {
      std::cerr << "edpbench: error: cannot run '" << opt.command[0] << "': " << o.start_error
                << "\n";
      return 2;
    }
    if (o.stop) {  // the run in progress is not one of the runs done
      rep.interrupted = true;
      return finish(128 + o.stop);
    }
    if (warmup) {
      if (o.run.exit_status != 0) {
        std::cerr << "edpbench: warm-up run " << i << " of " << rep.command << " failed (exit "
                  << o.run.exit_status << ")\n";
        return finish(o.run.exit_status);
      }
      continue;
    }
    rep.runs.push_back(o.run);
    write_outputs(opt, rep);
    if (o.run.exit_status != 0) {
      std::cerr << "edpbench: run " << o.run.record.run << " of " << rep.command << " failed (exit "
                << o.run.exit_status << "); stopping\n";
      return finish(o.run.exit_status);
    }
  }
  return finish(0);
}

}  // namespace edp::bench
