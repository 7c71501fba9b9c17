// What a sweep shares between its plan items (DESIGN §3, §9): the config,
// its measuring session (bench/engine/session.h: the meter, total rails,
// baselines, cool-down and windows), and the sweep's own bookkeeping: the
// backends' facts, the GEMM chooser, the operating points applied,
// progress. Every study's items are measured against one Sweep.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/baseline.h"
#include "bench/config.h"
#include "bench/engine/session.h"
#include "bench/gemm_choice.h"
#include "bench/plan.h"
#include "bench/progress.h"
#include "bench/timeline_sink.h"
#include "common/text.h"
#include "platform/platform.h"
#include "report/records.h"

namespace edp::bench {

struct Sweep {
  Sweep(const Config& c, Session& s) : cfg(c), session(s) {}

  const Config& cfg;
  Session& session;
  std::map<std::string, std::map<std::string, std::string>> backends;  // device -> describe()
  GemmChooser gemm_chooser;
  std::vector<std::string> point_log;  // operating points applied and restored
  std::unique_ptr<Progress> progress;
  // Called after each measured run, with its part's record so far: a client
  // that keeps what is complete through an interruption (`measure` writes
  // its files after every run).
  std::function<void(const report::PartRecord&, const report::RunRecord&)> on_run;
  // Where each window's timeline goes (power.timeline); null: nowhere.
  TimelineSink* timeline = nullptr;
  std::string start_time;
  int measured_ok = 0;
};

// Usage errors a device entry can only reveal on this machine.
void validate_devices(const Config& cfg, const platform::Platform& platform);
// Every device entry's problem on this machine, each "FILE:LINE:COL: ...".
std::vector<std::string> device_problems(const Config& cfg, const platform::Platform& platform);
// The session's problems (power source, total rails), each with the config's
// place: "FILE:LINE:COL: power: ...".
std::vector<std::string> session_problems(const Config& cfg, const Session& session);
// What the config asks that this machine cannot give, all of it: the
// session's problems, the device entries, the sizes against memory.
std::vector<std::string> machine_problems(const Config& cfg, const Session& session);

// "VDD_IN+VDD_SYS_GPU", or "(none)".
std::string join_rails(const std::vector<std::string>& rails);

}  // namespace edp::bench
