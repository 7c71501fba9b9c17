// The GPU launching thread is pinned away from the power sampler's CPU
// (bench::pin_launch_thread, used by make_backend_for for gpu devices) and
// gets its CPUs back afterwards. Runs on any machine: each case works on a
// thread of its own, so a failure cannot leave the test process pinned.
#include <catch2/catch.hpp>

#include <pthread.h>
#include <sched.h>

#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "bench/config/config.h"
#include "bench/protocol/backend_setup.h"
#include "workloads/cuda_factory.h"

namespace {

using edp::bench::LaunchPinning;
using edp::bench::pin_launch_thread;
using edp::bench::ThreadAffinityGuard;

std::vector<int> my_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  REQUIRE(::pthread_getaffinity_np(::pthread_self(), sizeof(set), &set) == 0);
  std::vector<int> out;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) out.push_back(c);
  return out;
}

void set_my_cpus(const std::vector<int>& cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus) CPU_SET(c, &set);
  REQUIRE(::pthread_setaffinity_np(::pthread_self(), sizeof(set), &set) == 0);
}

std::vector<int> without(std::vector<int> cpus, int cpu) {
  std::vector<int> out;
  for (int c : cpus)
    if (c != cpu) out.push_back(c);
  return out;
}

// Runs `body` on a fresh thread (with the caller's affinity), waits, and
// rethrows here what it threw (a failed REQUIRE included).
void on_own_thread(const std::function<void()>& body) {
  std::exception_ptr failure;
  std::thread t([&] {
    try {
      body();
    } catch (...) {
      failure = std::current_exception();
    }
  });
  t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace

TEST_CASE("pin_launch_thread excludes the sampler CPU and the guard restores the affinity",
          "[bench][affinity]") {
  const std::vector<int> all = my_cpus();
  if (all.size() < 2) {
    WARN("only one CPU is allowed to this process: nothing to exclude the sampler CPU from");
    return;
  }
  const int sampler = all.back();
  on_own_thread([&] {
    {
      LaunchPinning pin = pin_launch_thread(sampler);
      CHECK(pin.guard.engaged());
      CHECK(pin.cpus == without(all, sampler));
      CHECK(my_cpus() == without(all, sampler));
      CHECK(pin.note.find("sampler CPU " + std::to_string(sampler) + " excluded") !=
            std::string::npos);
      // Moving the guard moves the duty to restore; the moved-from one is inert.
      ThreadAffinityGuard moved = std::move(pin.guard);
      CHECK_FALSE(pin.guard.engaged());
      CHECK(moved.engaged());
      CHECK(my_cpus() == without(all, sampler));
    }
    CHECK(my_cpus() == all);
  });
}

TEST_CASE("pin_launch_thread leaves the thread alone when there is nothing to avoid",
          "[bench][affinity]") {
  const std::vector<int> all = my_cpus();
  on_own_thread([&] {
    {
      LaunchPinning pin = pin_launch_thread(-1);  // power.sampler_cpu not set
      CHECK_FALSE(pin.guard.engaged());
      CHECK(pin.cpus == all);
      CHECK(pin.note.find("not pinned") != std::string::npos);
      CHECK(my_cpus() == all);
    }
    if (all.size() >= 2) {
      // The sampler's CPU is not one of this thread's CPUs.
      set_my_cpus({all.front()});
      LaunchPinning pin = pin_launch_thread(all.back());
      CHECK_FALSE(pin.guard.engaged());
      CHECK(my_cpus() == std::vector<int>{all.front()});
      CHECK(pin.note.find("not among them") != std::string::npos);
    }
    // The sampler's CPU is the only one: pinning away from it would leave none.
    set_my_cpus({all.front()});
    {
      LaunchPinning pin = pin_launch_thread(all.front());
      CHECK_FALSE(pin.guard.engaged());
      CHECK(my_cpus() == std::vector<int>{all.front()});
      CHECK(pin.note.find("only CPU") != std::string::npos);
    }
    CHECK(my_cpus() == std::vector<int>{all.front()});
  });
  CHECK(my_cpus() == all);  // the other thread's changes never reached this one
}

TEST_CASE("make_backend_for gpu pins the launching thread for the setup's lifetime",
          "[bench][affinity]") {
  const std::vector<int> all = my_cpus();
  if (all.size() < 2) {
    WARN("only one CPU is allowed to this process: nothing to exclude the sampler CPU from");
    return;
  }
  const int sampler = all.front();
  edp::bench::Config cfg;
  cfg.power.sampler_cpu = sampler;
  edp::bench::DeviceSpec dev;
  dev.kind = "gpu";
  dev.index = 0;
  dev.label = "gpu";
  const edp::platform::Platform platform;  // not consulted for a gpu device
  const bool have_gpu = edp::cuda_unavailable_reason(0).empty();
  on_own_thread([&] {
    {
      edp::bench::BackendSetup setup = edp::bench::make_backend_for(dev, cfg, platform);
      if (!have_gpu) {
        // Skipped before anything is pinned.
        CHECK(setup.backend == nullptr);
        CHECK_FALSE(setup.skip_reason.empty());
        CHECK_FALSE(setup.affinity.engaged());
        CHECK(my_cpus() == all);
      } else {
        REQUIRE(setup.backend != nullptr);
        CHECK(setup.affinity.engaged());
        CHECK(setup.cpus == without(all, sampler));
        CHECK(my_cpus() == without(all, sampler));
        const auto facts = setup.backend->describe();
        REQUIRE(facts.count("host_thread_cpus") == 1);
        CHECK(facts.at("host_thread_cpus").find("excluded") != std::string::npos);
        CHECK(facts.at("sync") == "block");  // the config's default
      }
    }
    CHECK(my_cpus() == all);
  });
  edp::cuda_release_device(0);
}
