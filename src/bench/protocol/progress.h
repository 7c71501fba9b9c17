// Progress of a sweep on stderr: a bar with ETA rewritten in place on a TTY,
// one plain line per finished run otherwise (what journald keeps). Work is
// counted in GEMM FLOPs so that a large configuration weighs what it costs.
#pragma once

#include <chrono>
#include <string>

namespace edp::bench {

class Progress {
 public:
  Progress(double total_units, bool tty);
  // Work done since the last call; `label` names what is running now.
  void advance(double units, const std::string& label);
  // The work done so far is at least `units` (the items finished, skipped
  // and failed ones included, whatever their runs advanced), so that the
  // count reaches 100% at the end.
  void reach(double units);
  // A line that must stay visible (a warning, a summary): as it is.
  void line(const std::string& text);
  // A line that reports progress (a finished run or item): off a TTY it
  // ends with "[40% done, ETA 2m10s]", the progress a journal keeps.
  void status(const std::string& text);
  void finish();
  static bool stderr_is_tty();

 private:
  void draw(const std::string& label);
  std::string eta() const;
  double total_, done_ = 0;
  bool tty_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace edp::bench
