// Writes a whole file so that readers (and a later --resume) only ever see the
// old or the new content: write "<path>.tmp.<pid>", fsync, rename over <path>.
#pragma once

#include <string>

namespace edp {

// Throws std::runtime_error naming the path and errno text on failure.
void write_file_atomic(const std::string& path, const std::string& content);

}  // namespace edp
