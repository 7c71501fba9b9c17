// The one step-timing loop (workloads/step_loop.h, issue 34): blocks of
// steps, the synchronisations around them, the hooks in order, the block
// count the caller's rule decides, and the elapsed time the loop reports.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "workloads/counting_backend.h"
#include "workloads/reference_backend.h"
#include "workloads/step_loop.h"

using namespace edp;

TEST_CASE("step loop: blocks of steps, synchronised, until the caller's rule says enough",
          "[workloads][step_loop]") {
  auto ref = make_reference_backend();
  CountingBackend be(*ref);
  std::vector<std::string> trace;
  int steps = 0;
  StepLoop loop;
  loop.steps_per_block = 3;
  loop.synchronize_first = true;
  std::vector<int> asked;
  loop.another = [&](const StepLoopResult& done) {
    asked.push_back(done.blocks);
    return done.blocks < 4;
  };
  const StepLoopResult r = run_steps(
      be, loop,
      [&] {
        ++steps;
        trace.push_back("step");
      },
      [&] { trace.push_back("before"); },
      [&](const StepLoopResult& done) {
        trace.push_back("after " + std::to_string(done.steps) + "/" + std::to_string(done.blocks));
      });
  CHECK(r.blocks == 4);
  CHECK(r.steps == 12);
  CHECK(steps == 12);
  CHECK(asked == std::vector<int>{1, 2, 3, 4});
  CHECK(be.counts().synchronize == 1 + 4);  // before the clock, and after each block
  CHECK(r.device_s == -1);                  // the reference backend has no device timer
  REQUIRE(trace.size() >= 6);
  CHECK(trace[0] == "before");
  CHECK(trace[1] == "step");
  CHECK(trace[2] == "after 1/0");
  CHECK(trace[5] == "after 2/0");
}

TEST_CASE("step loop: one block without a rule, and elapsed covers the steps",
          "[workloads][step_loop]") {
  auto ref = make_reference_backend();
  CountingBackend be(*ref);
  StepLoop loop;
  loop.steps_per_block = 2;
  loop.synchronize_blocks = false;  // the caller's hooks wait (a loss readback)
  const StepLoopResult r =
      run_steps(be, loop, [] { std::this_thread::sleep_for(std::chrono::milliseconds(10)); });
  CHECK(r.blocks == 1);
  CHECK(r.steps == 2);
  CHECK(be.counts().synchronize == 0);
  CHECK(r.elapsed_s >= 0.02);
  CHECK(r.per_step_s() == Approx(r.elapsed_s / 2));
}
