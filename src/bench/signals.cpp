#include "bench/signals.h"

#include <csignal>
#include <initializer_list>

namespace edp::bench {

namespace {
volatile std::sig_atomic_t g_signal = 0;

extern "C" void on_stop(int sig) {
  if (g_signal == 0) g_signal = sig;
  if (sig == SIGPIPE) return;  // stays caught (see signals.h)
  // A second SIGINT/SIGTERM/SIGHUP takes the default action: the way out of
  // a hang (a GPU that never finishes a synchronize) is always one more Ctrl-C.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaction(s, &dfl, nullptr);
}
}  // namespace

void install_stop_handlers() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  struct sigaction sa {};
  sa.sa_handler = on_stop;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a sleeping wait returns early
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) sigaction(s, &sa, nullptr);
}

int stop_signal() { return g_signal; }

}  // namespace edp::bench
