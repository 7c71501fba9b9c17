// The workload of `measure -- CMD` (DESIGN §3, §6): one step forks the
// command into its own process group, with stdin, stdout and stderr passed
// through, and waits for it. The protocol measures it like any other
// workload (bench/protocol/protocol.h): warm-up steps, then runs of one step, each
// in the one judged window (bench/engine/window.h).
//
// Stop signals are taken synchronously (bench/engine/signals.h SynchronousStops,
// which must be alive): SIGINT, SIGTERM and SIGHUP received while the
// command runs are forwarded to its process group (a second one sends
// SIGKILL), recorded as the stop signal, and the step returns once the
// command has ended, so the protocol discards that run and stops.
#pragma once

#include <signal.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "workloads/workload.h"

namespace edp::bench {

// The command could not be started (exec failed, fork failed): not a run.
struct CommandNotStarted : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct CommandSpec {
  std::vector<std::string> argv;  // searched in PATH
  std::string name;               // the workload's name (measure's label)
  sigset_t child_mask{};          // the mask the command starts with
  // Hand the terminal to the command's process group while it runs (so that
  // it can read it and Ctrl-C reaches it): when we hold it ourselves.
  bool give_terminal = false;
};

// How the last step ended, shared with the client that reads it after each
// run (the protocol owns the workload).
struct CommandOutcome {
  int exit_status = 0;  // the command's exit code, or 128 + signal
  int steps = 0;        // commands run so far, warm-up included
  int stopped_by = 0;   // the signal that stopped the last command (it was then killed)
};

// Throws std::logic_error without a SynchronousStops alive.
std::unique_ptr<Workload> make_command_workload(Backend& backend, CommandSpec spec,
                                                std::shared_ptr<CommandOutcome> outcome);

// A shell-like rendering of argv, for summaries and the default label.
std::string command_line(const std::vector<std::string>& argv);

// Whether this process holds the terminal on stdin (give_terminal).
bool holds_terminal();

}  // namespace edp::bench
