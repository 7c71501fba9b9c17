#include "bench/signals.h"

#include <csignal>

namespace edp::bench {

namespace {
volatile std::sig_atomic_t g_signal = 0;
extern "C" void on_stop(int sig) {
  g_signal = sig;
  // A second SIGINT/SIGTERM takes the default action: the way out of a hang
  // (a GPU that never finishes a synchronize) is always one more Ctrl-C.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(SIGINT, &dfl, nullptr);
  sigaction(SIGTERM, &dfl, nullptr);
}
}  // namespace

void install_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_stop;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a sleeping wait returns early
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int stop_signal() { return g_signal; }

}  // namespace edp::bench
