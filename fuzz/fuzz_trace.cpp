// The power trace CSV (--power-trace): parse_trace returns the rows or throws
// a UsageError; a parsed trace is then replayed at a few times.
#include "common/errors.h"
#include "fuzz_common.h"
#include "power/trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  edp::power::TraceData trace;
  try {
    trace = edp::power::parse_trace(edp::fuzz::text(data, size), "fuzz.csv");
  } catch (const edp::UsageError&) {
    return 0;
  } catch (const std::exception& e) {
    edp::fuzz::broken_promise(std::string("not a UsageError: ") + e.what());
  }
  for (bool loop : {false, true}) {
    edp::power::TraceSensor sensor(trace, loop, 100.0);
    std::vector<double> values(sensor.rails().size() + 1);
    for (double t : {-1.0, 0.0, 0.5, 3.0, 1e9}) {
      const size_t row = sensor.row_at(sensor.trace_time(100.0 + t));
      if (!trace.t_s.empty() && row >= trace.t_s.size())
        edp::fuzz::broken_promise("row_at past the last row");
    }
    std::string error;
    sensor.read(values.data(), &error);
  }
  return 0;
}
