// What the deploy study measures besides the warm burst's energy, on the
// session's windows (docs/deploy.md, "What is measured"): idle power per
// device state, single-burst latency, the first burst after each idle gap
// with the context kept (wake) or released (cold), and open-loop runs that
// check the model. Results go into the item record's values, named by
// report/deploy_csv.h, from which deploy.csv's rows are written.
#pragma once

#include <string>
#include <vector>

#include "bench/config/config.h"
#include "bench/engine/session.h"
#include "bench/protocol/plan_item.h"
#include "bench/studies/deploy/deploy_config.h"
#include "common/elapsed.h"
#include "platform/platform.h"
#include "report/deploy_model.h"
#include "report/records.h"
#include "workloads/workload.h"

namespace edp::bench {

// The delay after which an idle device enters its gated state, where it was
// read, or why there is none (report::deploy_values codes).
struct GateDelay {
  double delay_s = INFINITY;
  double source = 0;  // kGateFromBoard, kGateFromSimulated
  double absent = 0;  // kNoGateOnCpu, kRailgateDisabled, kNoRailgateFile
};
// The simulated source's sleep applies to every device; a GPU's rail-gating
// delay is read from the board (platform/gpu_devfreq.h).
GateDelay gate_delay(const Config& cfg, const platform::Platform& platform, const DeviceSpec& dev);

// The quiet time kept around a burst inside and outside windows, so that a
// sensor read only every sampler period books the burst's energy on the
// right side of a window edge: three sampler periods, at least 20 ms.
double burst_tail_s(const Config& cfg);

class DeployPass {
 public:
  DeployPass(Session& session, const Config& cfg, const PlanItem& item, report::ItemRecord& rec);

  // Before the item's backend exists (no context of its device): the host
  // state's idle power right after a release, cold starts (each a fresh
  // backend, workload and first burst after an idle gap, the context
  // released after it) and the release policy's open-loop checks. What
  // they cost over the idle the device would have had anyway needs the
  // gated state's power, measured after the part: warm() prices them.
  void cold_starts();
  // After the item's part, on its backend: latency of single bursts, idle
  // power per state, wake costs, the open-loop checks, and the prices of
  // what cold_starts() measured.
  void warm(Backend& be);

 private:
  struct Window {
    double energy_j = NAN, span_s = NAN;
  };
  // A window `name` around `body`: its energy over the total rails and its span.
  template <class Body>
  Window windowed(const std::string& name, Body body);
  double single_burst(Workload& wl);
  // One open-loop run's serving (inside its window): each batch of
  // `arrivals` (s from the start) served by serve(), which returns when its
  // requests are answered, in s from its own start; then idle to check_s.
  struct OpenLoop {
    std::vector<double> gaps_s;       // the idle before each burst (report::RealisedRun)
    std::vector<double> latencies_s;  // each served request's, arrival to answer
    double after_s = 0;               // idle after the last burst
    bool overloaded = false;          // stopped at twice check_s with requests due
  };
  template <class Serve>
  OpenLoop serve_open_loop(const std::vector<double>& arrivals, int batch, Serve serve);
  void latency(Workload& wl);
  void idle_states(Workload& wl);
  void wake_costs(Workload& wl);
  void checks(Workload& wl);
  // A new backend and workload, one burst (its latency in *elapsed_s), and
  // the device's context released; false when the device cannot start.
  bool cold_cycle(double* elapsed_s);
  void host_idle();
  void release_checks();
  // The cold starts' energy over the idle in the host and gated states,
  // and the release checks' predictions (after idle_states()).
  void cold_costs();
  void release_predictions();
  // How the device idles: at awake_w up to the gating delay, at the gated
  // state's power past it.
  report::IdleProfile profile(double awake_w) const;

  Session& session_;
  const Config& cfg_;
  const DeployConfig& deploy_;  // cfg_'s deploy section
  const PlanItem& item_;
  report::ItemRecord& rec_;
  GateDelay gate_;
  double tail_s_;
  Backend* be_ = nullptr;
  double context_w_ = NAN, gated_w_ = NAN;
  // When the last cold cycle's context was released.
  SteadyClock::time_point released_at_{};
};

}  // namespace edp::bench
