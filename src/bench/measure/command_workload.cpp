// The command workload (see command_workload.h).
#include "bench/measure/command_workload.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <iostream>
#include <string>

#include "bench/engine/signals.h"

namespace edp::bench {
namespace {

// fork + exec in a new process group. An exec failure is reported through a
// close-on-exec pipe: it closes without data when exec succeeds. Returns the
// pid; throws CommandNotStarted.
pid_t start_command(const CommandSpec& spec) {
  std::vector<char*> argv;
  for (const auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    throw CommandNotStarted(std::string("pipe: ") + std::strerror(errno));
  const pid_t pid = fork();
  if (pid == 0) {
    // Only async-signal-safe calls from here on: the parent has threads.
    close(fds[0]);
    setpgid(0, 0);
    if (spec.give_terminal) tcsetpgrp(STDIN_FILENO, getpid());  // SIGTTOU is still blocked here
    pthread_sigmask(SIG_SETMASK, &spec.child_mask, nullptr);
    execvp(argv[0], argv.data());
    const int err = errno;
    ssize_t ignored = write(fds[1], &err, sizeof err);
    (void)ignored;
    _exit(127);
  }
  close(fds[1]);
  if (pid < 0) {
    close(fds[0]);
    throw CommandNotStarted(std::string("fork: ") + std::strerror(errno));
  }
  setpgid(pid, pid);  // also here, so that kill(-pid) cannot precede the child's own call
  int err = 0;
  ssize_t n;
  do n = read(fds[0], &err, sizeof err);
  while (n < 0 && errno == EINTR);
  close(fds[0]);
  if (n == static_cast<ssize_t>(sizeof err)) {
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    throw CommandNotStarted(std::strerror(err));
  }
  return pid;
}

std::string sigabbrev(int sig) {
  switch (sig) {
    case SIGSTOP:
      return "SIGSTOP";
    case SIGTSTP:
      return "SIGTSTP";
    case SIGTTIN:
      return "SIGTTIN";
    case SIGTTOU:
      return "SIGTTOU";
  }
  return "signal " + std::to_string(sig);
}

// Waits for the command, forwarding SIGINT/SIGTERM/SIGHUP to its process
// group (a second one sends SIGKILL) and recording the first as the stop
// signal. SIGCHLD is blocked, so one sent between waitpid and the wait stays
// pending and ends the wait at once: the window closes as soon as the
// command has ended. A stop that a library's thread took with the handler
// (signals.h) is seen within kPoll and forwarded too. Returns the wait status.
int wait_command(pid_t pid, int* stopped_by) {
  constexpr long kPoll_ns = 100'000'000;
  sigset_t s = stop_signals();  // SIGHUP left out under nohup
  sigaddset(&s, SIGCHLD);
  int forwarded = 0;
  while (true) {
    int status = 0;
    // WUNTRACED: a command that stops (kill -STOP $$; SIGCHLD is not sent for
    // a stop, SA_NOCLDSTOP) would otherwise be waited for forever, window
    // open. A stopped command cannot be measured: it is said, and killed.
    const pid_t r = waitpid(pid, &status, WNOHANG | WUNTRACED);
    if (r == pid && WIFSTOPPED(status)) {
      *stopped_by = WSTOPSIG(status);
      std::cerr << "edpbench: measure: the command was stopped by signal " << *stopped_by << " ("
                << sigabbrev(*stopped_by)
                << "); a stopped command cannot be measured, so it is killed\n";
      kill(-pid, SIGKILL);
      kill(-pid, SIGCONT);
      continue;
    }
    if (r == pid) return status;
    if (r < 0 && errno != EINTR) return 0;  // cannot happen for our own child
    const timespec poll{0, kPoll_ns};
    const int sig = sigtimedwait(&s, nullptr, &poll);
    if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
      record_stop_signal(sig);
      kill(-pid, forwarded++ ? SIGKILL : sig);
    } else if (forwarded == 0 && stop_signal() != 0) {
      kill(-pid, stop_signal());
      forwarded = 1;
    }
  }
}

int exit_status_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

class CommandWorkload final : public Workload {
 public:
  CommandWorkload(Backend& be, CommandSpec spec, std::shared_ptr<CommandOutcome> outcome)
      : Workload(be), spec_(std::move(spec)), outcome_(std::move(outcome)) {
    if (!SynchronousStops::active())
      throw std::logic_error(
          "the command workload needs SynchronousStops (bench/engine/signals.h)");
    if (spec_.argv.empty()) throw std::logic_error("the command workload needs a command");
  }

  std::string name() const override { return spec_.name; }

  void step() override {
    const pid_t pid = start_command(spec_);
    outcome_->stopped_by = 0;
    const int status = wait_command(pid, &outcome_->stopped_by);
    if (spec_.give_terminal) tcsetpgrp(STDIN_FILENO, getpgrp());
    outcome_->exit_status =
        outcome_->stopped_by ? 128 + outcome_->stopped_by : exit_status_of(status);
    ++outcome_->steps;
  }

  void reset() override {}
  double flop_per_step() const override { return 0; }
  double bytes_per_step() const override { return 0; }

  std::string step_failure() const override {
    if (outcome_->steps == 0 || outcome_->exit_status == 0) return "";
    if (outcome_->stopped_by)
      return "the command was stopped by signal " + std::to_string(outcome_->stopped_by) + " (" +
             sigabbrev(outcome_->stopped_by) + ") and killed";
    return "the command exited with status " + std::to_string(outcome_->exit_status);
  }
  bool runs_in_process() const override { return false; }

 private:
  CommandSpec spec_;
  std::shared_ptr<CommandOutcome> outcome_;
};

}  // namespace

std::unique_ptr<Workload> make_command_workload(Backend& backend, CommandSpec spec,
                                                std::shared_ptr<CommandOutcome> outcome) {
  return std::make_unique<CommandWorkload>(backend, std::move(spec), std::move(outcome));
}

std::string command_line(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    const bool plain =
        !a.empty() && a.find_first_of(" \t\n'\"\\$`*?[]{}()<>|&;#~") == std::string::npos;
    std::string q = "'";
    for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += (out.empty() ? "" : " ") + (plain ? a : q + "'");
  }
  return out;
}

bool holds_terminal() { return isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp(); }

}  // namespace edp::bench
