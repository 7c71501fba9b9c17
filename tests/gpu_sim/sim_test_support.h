// Shared by the simulator's tests: run a piece of code in a forked child and
// collect how it ended and what it wrote on stderr (the simulator aborts with
// a report on what CUDA leaves undefined).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cuda_runtime_api.h"
#include "workloads/backend.h"

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

// The first n floats of `d`, copied to the host (throws when the copy fails).
std::vector<float> download(const DeviceFloats& d, std::size_t n);

// Copies `host` to the start of `d` (throws when the copy fails).
void upload(const DeviceFloats& d, const std::vector<float>& host);

// The CUDA backend on the simulator, with the ReLU path `relu`.
std::unique_ptr<edp::Backend> gpu(const std::string& relu = "kernel");

}  // namespace edp_sim_test
