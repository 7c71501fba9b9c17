// `run --prometheus-textfile DIR` (DESIGN §12): the state of a sweep in
// progress as node_exporter's textfile collector serves it. The runner fills
// it after each item; sweep_families (exporter_metrics.h) turns it into
// metric families. Plain data, so that a build without prometheus-cpp still
// keeps it (and refuses the option).
#pragma once

#include <cmath>
#include <cstddef>
#include <string>

namespace edp::bench {

struct SweepProgress {
  std::string out_dir;                // the sweep's --out (a label)
  size_t items_total = 0;             // planned, resumed ones included
  size_t items_done = 0;              // finished (ok, failed or skipped), resumed ones included
  size_t items_failed = 0;            // failed or skipped in this process
  std::string status = "running";     // running | finished | interrupted | failed
  std::string last_key, last_status;  // the last item finished ("" none yet)
  double last_time_s = NAN, last_energy_j = NAN, last_edp_js = NAN;  // its means
  double started_unix_s = 0, updated_unix_s = 0;
};

}  // namespace edp::bench
