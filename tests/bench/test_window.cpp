// bench::RunWindow, the one window of DESIGN §3, as the monitor API uses it:
// cancel (no result, no wait), counted threads, and the measurement it keeps.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "bench/engine/window.h"
#include "platform/cpu_activity.h"
#include "power/energy_meter.h"
#include "power/trace.h"
#include "support/fixtures.h"

using edp::testing::kConstantTrace;
using namespace edp;

namespace {

power::EnergyMeter trace_meter() {
  std::vector<std::string> log;
  std::vector<std::unique_ptr<power::Sensor>> sensors;
  sensors.push_back(power::open_trace(kConstantTrace, true, &log));
  auto meter = power::EnergyMeter::from_sensors(std::move(sensors), {});
  meter.set_total_rails({"VDD_IN"});
  meter.start();
  return meter;
}

void spin_for(double seconds) {
  const auto t0 = std::chrono::steady_clock::now();
  volatile double x = 0;
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < seconds)
    x = x + 1;
}

}  // namespace

TEST_CASE("window: cancel drops the window without a result or a wait", "[bench][window]") {
  auto meter = trace_meter();
  {
    bench::RunWindow w(meter, "w", false);
    w.cancel();
    w.cancel();  // a second cancel does nothing
  }
  // The meter no longer knows the name: ending it is an error, opening it again is not.
  CHECK_THROWS(meter.end_window("w"));
  bench::RunWindow again(meter, "w", false);
  report::RunRecord r;
  bench::WindowJudging j;
  j.total_rails = {"VDD_IN"};
  CHECK(again.close(j, 1, r).empty());
  CHECK(r.energy_j == Approx(7.5 * r.time_s).epsilon(1e-9));
  // The measurement it keeps is the meter's, per rail.
  const auto& rails = again.measurement().rails;
  const auto vdd_in = std::find_if(rails.begin(), rails.end(), [](const power::RailMeasurement& x) {
    return x.rail == "VDD_IN";
  });
  REQUIRE(vdd_in != rails.end());
  CHECK(vdd_in->energy_j == Approx(r.energy_j));
  CHECK(again.measurement().time_s() == Approx(r.time_s));
}

TEST_CASE("window: counted threads are those that wanted a CPU, not the sleeping ones",
          "[bench][window][interference]") {
  auto meter = trace_meter();
  // A team member with nothing to do: asleep on a condition variable for the
  // whole window, never woken.
  std::mutex mutex;
  std::condition_variable cv;
  bool stop = false;
  std::thread sleeper([&] {
    std::unique_lock<std::mutex> lock(mutex);
    cv.wait(lock, [&] { return stop; });
  });
  // Wait until no thread of this process runs (OpenBLAS's pool threads,
  // started before main, spin ~0.1 s before they sleep), so the one busy
  // thread below is the known answer.
  const platform::ActivityProbe probe;
  for (int i = 0; i < 30; ++i) {
    const auto a = probe.snapshot();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (platform::busy_threads(a, probe.snapshot(), 0.1, 0.02) == 0) break;
  }
  bench::RunWindow w(meter, "busy", true);
  spin_for(0.3);  // this thread is the measured code
  report::RunRecord r;
  bench::WindowJudging j;
  j.total_rails = {"VDD_IN"};
  j.count_busy_threads = true;
  j.threads = 8;  // ignored when counting
  w.close(j, 1, r);
  {
    std::lock_guard<std::mutex> lock(mutex);
    stop = true;
  }
  cv.notify_one();
  sleeper.join();
  if (std::isnan(r.preempted_share)) {
    WARN("no schedstat on this kernel: threads are not counted");
    CHECK(w.threads_judged() == 0);
    return;
  }
#if EDPBENCH_EMULATED
  // Under qemu-user the emulator's own thread (it translates and frees code
  // blocks) sits in /proc/self/task beside ours and may run 10% of a window.
  CHECK(w.threads_judged() >= 1);
  CHECK(w.threads_judged() <= 2);
#else
  CHECK(w.threads_judged() == 1);
#endif
  // The busy thread ran for most of the window (it may wait on a busy
  // machine; other threads' waits, an idle BLAS pool's yields among them, add
  // to the wait sum, never to the count).
  CHECK(r.cpu_share * w.threads_judged() + r.preempted_share * w.threads_judged() > 0.8);
}
