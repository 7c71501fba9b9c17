// Where a sweep's timelines go (DESIGN §5 samples.csv, power.timeline): each
// closed window's power::Timeline becomes rows (report/samples_csv.h) kept
// with its item until the item is done, then appended to the file, so a
// sweep of hours never rewrites it. The file holds at most
// power.timeline_max_rows rows: a window that would pass the cap is left out
// with every later one, and that is said once (log) and in facts() (for
// context.json), never silently. On --resume the rows of items that are not
// done (a crash mid-item, a failed item measured again) are dropped once.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "power/measurement.h"
#include "report/samples_csv.h"

namespace edp::bench {

// report::WindowSamples of one window's timeline (rails in m.rails order).
report::WindowSamples window_samples(const std::string& study, const std::string& key,
                                     const std::string& workload, int run,
                                     const power::Measurement& m);

class TimelineSink {
 public:
  struct Facts {
    std::string file;          // the path written
    double hz = 0;             // points a second (power.timeline_hz)
    size_t window_points = 0;  // a window's most points (power::Sampler::kTimelinePoints)
    int64_t max_rows = 0;      // power.timeline_max_rows
    int64_t rows = 0;          // written so far
    std::string full_at;       // the first window left out by the cap ("" while none)
  };

  // Starts `path` with the header, or with `resume` keeps the rows whose key
  // `keep` accepts (and drops a torn last line). Throws UsageError for a
  // samples.csv that is not a regular file or not ours, runtime_error on I/O.
  TimelineSink(std::string path, double hz, int64_t max_rows, bool resume,
               const std::function<bool(const std::string& key)>& keep);

  // Where "samples.csv is full" goes (once).
  void log_to(std::function<void(const std::string&)> log) { log_ = std::move(log); }

  // Buffers the window's rows with the item in progress; nothing when the
  // window has no timeline or the cap is reached.
  void add(const std::string& study, const std::string& key, const std::string& workload, int run,
           const power::Measurement& m);
  // The item is done: its rows go to the file (appended, flushed to disk).
  void commit();
  // The item is not done (failed, interrupted): its rows are dropped.
  void drop();

  const Facts& facts() const { return facts_; }

 private:
  Facts facts_;
  std::string pending_;
  int64_t pending_rows_ = 0;
  std::function<void(const std::string&)> log_;
};

}  // namespace edp::bench
