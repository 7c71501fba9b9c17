// What a sweep shares between its plan items (DESIGN §3, §9): the config,
// its measuring session (bench/engine/session.h: the meter, total rails,
// baselines, cool-down and windows), and the sweep's own bookkeeping: the
// backends' facts, the GEMM chooser, the operating points applied,
// progress. Every study's items are measured against one Sweep: the
// protocol gets its session and hooks() (the protocol knows no Sweep).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/config/config.h"
#include "bench/engine/session.h"
#include "bench/protocol/baseline.h"
#include "bench/protocol/gemm_choice.h"
#include "bench/protocol/plan_item.h"
#include "bench/protocol/progress.h"
#include "bench/protocol/protocol.h"
#include "bench/protocol/timeline_sink.h"
#include "bench/studies/study.h"
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
  // Where each window's timeline goes (power.timeline); null: nowhere.
  TimelineSink* timeline = nullptr;
  std::string start_time;
  int measured_ok = 0;

  // The protocol's hooks into this sweep (its config, progress, timeline,
  // GEMM chooser and backends' facts), with `study`'s passes on `item`
  // bound; both must outlive the hooks.
  ProtocolHooks hooks(const Study& study, const PlanItem& item);
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
