// An exclusive lock on an output directory (issue 20, item 4): two `run` or
// `--resume` processes on one --out would measure at the same time and both
// save rows whose times the other one stretched. flock(2) on
// "<dir>/.edpbench.lock", which holds the owner's pid and command line; the
// kernel drops the lock when the process ends, however it ends (SIGKILL too),
// so a lock file left behind never blocks the next run.
#pragma once

#include <string>

#include "common/errors.h"

namespace edp {

// The lock is held by another process (or another DirLock of this one): a
// UsageError, so that callers that do not wait report it as such.
class DirBusy : public UsageError {
 public:
  using UsageError::UsageError;
};

class DirLock {
 public:
  // Creates <dir> when missing, then takes the lock without waiting. Throws
  // edp::DirBusy (a UsageError, exit 2) naming the directory and the process
  // that holds it (pid and command) when another process does.
  explicit DirLock(const std::string& dir);
  ~DirLock();
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;

  static const char* file_name() { return ".edpbench.lock"; }

 private:
  int fd_ = -1;
};

}  // namespace edp
