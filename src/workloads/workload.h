// What the measurement protocol measures (DESIGN §2): one unit of work on a
// backend, its FLOP and byte counts, and a way back to its initial state.
// The MLP programs, their stages and the operator microbenchmarks are all
// Workloads, so the protocol (src/bench/protocol/protocol.h) measures them the same
// way and never knows which one it runs. A workload never sees energy
// windows, records or CSV.
#pragma once

#include <cmath>
#include <string>

#include "workloads/backend.h"

namespace edp {

class Workload {
 public:
  virtual ~Workload() = default;
  Workload(const Workload&) = delete;
  Workload& operator=(const Workload&) = delete;

  // "tensors", "add", "gemm", ...
  virtual std::string name() const = 0;
  // One unit of work, queued on the backend (a GPU backend returns before
  // it has run; the protocol synchronises around blocks of steps).
  virtual void step() = 0;
  // Back to the initial state: called before every run, outside the window.
  virtual void reset() = 0;
  // Counts of one step (DESIGN §2.1, §2.3), for GFLOP/s, GB/s, the roofline
  // and progress. bytes: what one step moves to and from memory (0 when the
  // count means nothing for the workload).
  virtual double flop_per_step() const = 0;
  virtual double bytes_per_step() const = 0;
  // Read once after a run's window has closed (it may synchronise): the
  // MLP's loss after its last step; NaN for workloads without one.
  virtual double result() { return std::nan(""); }

  // Why the last step failed, "" when it did not: a workload whose step can
  // fail without throwing (a command's non-zero exit) says so here, and the
  // protocol ends the part's runs after it and marks the part failed.
  virtual std::string step_failure() const { return ""; }
  // Whether the step's work runs on this process's own threads (the
  // interference probe judges their CPU share); false for a workload whose
  // step runs another program.
  virtual bool runs_in_process() const { return true; }

  Backend& backend() const { return backend_; }

 protected:
  explicit Workload(Backend& backend) : backend_(backend) {}
  Backend& backend_;
};

}  // namespace edp
