// Writes a whole file so that readers (and a later --resume) only ever see the
// old or the new content: a fresh temp file "<path>.tmp.<pid>.XXXXXX" made by
// mkstemp (O_CREAT|O_EXCL: a planted symlink or file at that name is never
// followed or reused) in the target's directory, fsync, rename over <path>.
#pragma once

#include <string>

namespace edp {

// Throws std::runtime_error naming the path and errno text on failure.
// Before writing, removes the stale temp files of <path> that processes
// which no longer run left behind (SIGKILL, power cut): see
// remove_stale_temp_files.
void write_file_atomic(const std::string& path, const std::string& content);

// Removes "<path>.tmp.<pid>" and "<path>.tmp.<pid>.XXXXXX" files in <path>'s
// directory whose <pid> is not a running process (kill(pid, 0) gives ESRCH);
// a live process's temp file is kept. Only regular files and symlinks of that
// exact pattern are unlinked (never followed). Returns how many it removed.
int remove_stale_temp_files(const std::string& path);

}  // namespace edp
