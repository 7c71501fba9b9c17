// The simulated source (power/simulated.h): its counter is idle power x time
// plus power per busy CPU x the work's CPU time, with a sleep after a stated
// idle delay and a wake cost, on scripted clocks (hand-computed joules) and
// on the real clocks with a thread that spins; the reader's own CPU time is
// not work; `auto` never picks it.
#include <time.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "common/errors.h"
#include "power/clock.h"
#include "power/discovery.h"
#include "power/energy_meter.h"
#include "power/simulated.h"

using namespace edp::power;

namespace {

struct Script {
  double now = 0, process = 0, thread = 0;
  SimulatedSensor::Clocks clocks() {
    return {[this] { return now; }, [this] { return process; }, [this] { return thread; }};
  }
};

double read_j(SimulatedSensor& s) {
  double v = NAN;
  std::string err;
  REQUIRE(s.read(&v, &err) == 0);
  return v;
}

double cpu_clock_s(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}
double thread_cpu_s() { return cpu_clock_s(CLOCK_THREAD_CPUTIME_ID); }
double process_cpu_s() { return cpu_clock_s(CLOCK_PROCESS_CPUTIME_ID); }

}  // namespace

TEST_CASE("simulated source: joules follow idle time, work, sleep and wakes", "[simulated]") {
  SimulatedOptions o;
  o.idle_w = 2;
  o.cpu_w = 4;
  o.sleep_after_s = 1;
  o.sleep_w = 0.5;
  o.wake_j = 0.3;
  o.busy_cpu_s = 1e-3;
  Script t;
  SimulatedSensor s(o, t.clocks());
  CHECK(read_j(s) == 0);  // the first read starts the counter
  t.now = 0.5;
  t.process = 0.1;  // 0.1 s of work: 2 W x 0.5 s + 4 W x 0.1 s
  CHECK(read_j(s) == Approx(1.4));
  t.now = 1.0;  // idle 0.5 s since the busy read: awake
  CHECK(read_j(s) == Approx(2.4));
  t.now = 2.0;  // asleep from 1.5 s: 2 W x 0.5 s + 0.5 W x 0.5 s
  CHECK(read_j(s) == Approx(3.65));
  t.now = 3.0;  // asleep all along
  CHECK(read_j(s) == Approx(4.15));
  CHECK(s.wakes() == 0);
  t.now = 3.5;
  t.process = 0.3;  // work wakes it: 0.5 W x 0.5 s + 4 W x 0.2 s + 0.3 J
  CHECK(read_j(s) == Approx(5.5));
  CHECK(s.wakes() == 1);
  t.now = 4.0;
  t.process = 0.35;
  t.thread = 0.05;  // the reader's own CPU time is not work: idle, awake
  CHECK(read_j(s) == Approx(6.5));
  t.now = 4.999;  // 1.499 s since the busy read at 3.5: asleep from 4.5 on
  CHECK(read_j(s) == Approx(6.5 + 2 * 0.5 + 0.5 * 0.499));
  t.now = 5.5;
  t.process = 0.3505;  // 0.5 ms of work: below busy_cpu_s, it sleeps on
  CHECK(read_j(s) == Approx(7.7495 + 0.5 * 0.501 + 4 * 0.0005));
  CHECK(s.wakes() == 1);
}

TEST_CASE("simulated source: without sleep_after_s it never sleeps", "[simulated]") {
  SimulatedOptions o;
  o.idle_w = 3;
  o.cpu_w = 1;
  Script t;
  SimulatedSensor s(o, t.clocks());
  read_j(s);
  t.now = 100;
  CHECK(read_j(s) == Approx(300));
  t.now = 101;
  t.process = 0.5;
  CHECK(read_j(s) == Approx(303.5));
  CHECK(s.wakes() == 0);
}

TEST_CASE("simulated source: a spinning thread's CPU time on the real clocks", "[simulated]") {
  SimulatedOptions o;
  o.idle_w = 1;
  o.cpu_w = 10;
  SimulatedSensor s(o);
  read_j(s);
  const double t0 = now_s(), process0 = process_cpu_s(), reader0 = thread_cpu_s();
  std::atomic<double> spun_s{0};
  std::thread worker([&] {
    const double c0 = thread_cpu_s();
    volatile double x = 0;
    while (thread_cpu_s() - c0 < 0.15) x = x + 1;
    spun_s = thread_cpu_s() - c0;
  });
  // The test thread reads, as the sampler would, until the worker is done.
  while (spun_s == 0) {
    read_j(s);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  worker.join();
  const double joules = read_j(s);
  const double elapsed = now_s() - t0;
  // The process's CPU time besides the worker's spin and the reading thread
  // (which the sensor does not count as work): the worker's start and end,
  // and under qemu-user the emulator's own threads (code translation), which
  // grow with the load: 3.5 ms in one cross stage, 8 ms in another with four
  // tests at once.
  const double other_s = (process_cpu_s() - process0) - (thread_cpu_s() - reader0) - spun_s;
  INFO("elapsed " << elapsed << " s, spun " << spun_s << " s, other CPU time " << other_s << " s");
  // Known answer: 1 W x elapsed + 10 W x the worker's CPU time, and at most
  // 10 W x the rest of the process's; 0.02 J for the clocks' reads apart.
  CHECK(joules >= 1 * elapsed + 10 * spun_s - 0.02);
  CHECK(joules <= 1 * elapsed + 10 * (spun_s + std::max(0.0, other_s)) + 0.02);
  CHECK(joules > 10 * spun_s);
}

TEST_CASE("simulated source: named, checked, and never picked by auto", "[simulated]") {
  CHECK_THAT(valid_sources(), Catch::Contains("simulated"));
  PowerOptions o;
  o.source = "simulated";
  o.simulated.sleep_after_s = 0.5;
  o.simulated.wake_j = 0.1;
  Discovery d = discover_sensors(o);
  REQUIRE(d.sensors.size() == 1);
  CHECK(d.source_name == "simulated");
  REQUIRE(d.sensors[0]->rails().size() == 1);
  CHECK(d.sensors[0]->rails()[0].rail == "SIM_IN");
  CHECK(d.sensors[0]->rails()[0].timing == Timing::counter);
  CHECK_THAT(d.log.back(), Catch::Contains("test and demo source"));
  o.simulated.sleep_w = 5;  // above idle_w = 2
  CHECK_THROWS_WITH(discover_sensors(o), Catch::Contains("power.simulated.sleep_w = 5"));
  o.simulated.sleep_w = 1;
  o.simulated.cpu_w = -1;
  CHECK_THROWS_WITH(discover_sensors(o), Catch::Contains("power.simulated.cpu_w = -1"));
  // auto tries the real sources only: on an empty machine it finds nothing.
  PowerOptions a;
  a.source = "auto";
  a.sysfs_root = EDPBENCH_FIXTURES "/platform/x86-vm";
  for (const auto& sensor : discover_sensors(a).sensors) CHECK(sensor->name() != "simulated");
}
