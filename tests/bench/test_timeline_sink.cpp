// samples.csv's sink (bench/protocol/timeline_sink.h): an item's rows reach
// the file on commit, and a file replaced mid-sweep (a FIFO, a hard link) is
// refused at once rather than written to or waited on.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>

#include "bench/protocol/timeline_sink.h"
#include "support/process.h"

using namespace edp::bench;

namespace {

edp::power::Measurement one_window() {
  edp::power::Measurement m;
  edp::power::RailMeasurement rail{};
  rail.rail = "VDD_IN";
  m.rails.push_back(rail);
  m.timeline.t_s = {0, 0.05, 0.1};
  m.timeline.power_w = {{1.5, 1.6, 1.7}};
  m.timeline.corrected_w = m.timeline.power_w;
  return m;
}

TimelineSink sink_in(const std::string& dir) {
  return TimelineSink(dir + "/samples.csv", 20, 1000, false,
                      [](const std::string&) { return true; });
}

}  // namespace

TEST_CASE("timeline sink: an item's rows are appended on commit", "[timeline]") {
  const std::string dir = edp::testing::temp_dir("sink");
  TimelineSink sink = sink_in(dir);
  sink.add("mlp", "k1", "tensors", 1, one_window());
  CHECK(sink.facts().rows == 0);
  sink.commit();
  CHECK(sink.facts().rows == 3);
  const std::string text = edp::testing::slurp(dir + "/samples.csv");
  CHECK(text.find("VDD_IN") != std::string::npos);
}

TEST_CASE("timeline sink: a FIFO or a hard link in the file's place is refused at once",
          "[timeline]") {
  for (const bool fifo : {true, false}) {
    INFO((fifo ? "FIFO" : "hard link"));
    const std::string dir = edp::testing::temp_dir(fifo ? "sink-fifo" : "sink-link");
    TimelineSink sink = sink_in(dir);
    sink.add("mlp", "k1", "tensors", 1, one_window());
    sink.commit();
    const std::string file = dir + "/samples.csv";
    if (fifo) {
      REQUIRE(std::remove(file.c_str()) == 0);
      REQUIRE(::mkfifo(file.c_str(), 0600) == 0);
    } else {
      REQUIRE(::link(file.c_str(), (dir + "/other").c_str()) == 0);
    }
    sink.add("mlp", "k2", "tensors", 1, one_window());
    const auto t0 = std::chrono::steady_clock::now();
    CHECK_THROWS_WITH(sink.commit(), Catch::Contains(file));
    // A FIFO without a reader used to block the sweep for good.
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
    CHECK(sink.facts().rows == 3);
  }
}
