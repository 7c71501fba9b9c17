// Shared by the simulator's tests: run a piece of code in a forked child and
// collect how it ended and what it wrote on stderr (the simulator aborts with
// a report on what CUDA leaves undefined).
#pragma once

#include <functional>
#include <string>

#include "cuda_runtime_api.h"

namespace edp_sim_test {

struct ChildResult {
  bool aborted = false;  // killed by SIGABRT
  int exit_code = -1;    // when it exited
  std::string err;       // its stderr
};

ChildResult run_in_child(const std::function<void()>& body);

// A device buffer of n floats (cudaMalloc), freed at scope end.
class DeviceFloats {
 public:
  explicit DeviceFloats(std::size_t n);
  ~DeviceFloats();
  DeviceFloats(const DeviceFloats&) = delete;
  DeviceFloats& operator=(const DeviceFloats&) = delete;
  float* get() const { return p_; }

 private:
  float* p_ = nullptr;
};

}  // namespace edp_sim_test
