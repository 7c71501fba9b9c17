#include "bench/protocol/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace edp::bench {

Progress::Progress(double total_units, bool tty)
    : total_(std::max(total_units, 1e-9)), tty_(tty), start_(std::chrono::steady_clock::now()) {}

bool Progress::stderr_is_tty() { return ::isatty(STDERR_FILENO) == 1; }

std::string Progress::eta() const {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (done_ <= 0) return "--:--";
  const double left = elapsed * (total_ - done_) / done_;
  char buf[32];
  const long s = static_cast<long>(left + 0.5);
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s / 60) % 60);
  else
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  return buf;
}

void Progress::advance(double units, const std::string& label) {
  done_ = std::min(total_, done_ + units);
  if (!tty_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_draw_ < std::chrono::milliseconds(200)) return;
  last_draw_ = now;
  draw(label);
}

void Progress::draw(const std::string& label) {
  const int width = 30;
  const int filled = static_cast<int>(width * done_ / total_);
  std::string bar(static_cast<size_t>(filled), '#');
  bar.append(static_cast<size_t>(width - filled), '.');
  std::fprintf(stderr, "\r\033[K[%s] %5.1f%%  ETA %s  %s", bar.c_str(), 100.0 * done_ / total_,
               eta().c_str(), label.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::reach(double units) { done_ = std::max(done_, std::min(total_, units)); }

void Progress::line(const std::string& text) {
  if (tty_ && drawn_) std::fprintf(stderr, "\r\033[K");
  std::fprintf(stderr, "%s\n", text.c_str());
  std::fflush(stderr);
  drawn_ = false;
}

void Progress::status(const std::string& text) {
  if (tty_) return line(text);
  line(text + " [" + std::to_string(static_cast<int>(100.0 * done_ / total_ + 0.5)) +
       "% done, ETA " + eta() + "]");
}

void Progress::finish() {
  if (tty_ && drawn_) std::fprintf(stderr, "\r\033[K");
  drawn_ = false;
}

}  // namespace edp::bench
