// An exclusive lock on an output directory (issue 20, item 4): two `run` or
// `--resume` processes on one --out would measure at the same time and both
// save rows whose times the other one stretched. flock(2) on
// "<dir>/.edpbench.lock", which holds the owner's pid and command line; the
// kernel drops the lock when the process ends, however it ends (SIGKILL too),
// so a lock file left behind never blocks the next run.
#pragma once

#include <string>

namespace edp {

class DirLock {
 public:
  // Creates <dir> when missing, then takes the lock without waiting. Throws
  // edp::UsageError (exit 2) naming the directory and the process that holds
  // it (pid and command) when another process does.
  explicit DirLock(const std::string& dir);
  ~DirLock();
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;

  static const char* file_name() { return ".edpbench.lock"; }

 private:
  int fd_ = -1;
};

}  // namespace edp
