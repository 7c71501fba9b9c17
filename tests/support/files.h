// What many tests need, defined once: files read and written whole, a
// temporary folder removed at the end, a copy of a fixture tree to change,
// a substring check and a sleep in seconds. One definition each also lets
// the tests' sources share a unity batch (EDPBENCH_UNITY_BUILD, docs/ci.md).
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>

namespace edp::testing {

// The whole file, bytes as they are; "" when it cannot be read.
inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Writes `text` (any bytes: device-tree files hold NULs) as the whole file.
inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("test: cannot write " + path);
}

// A new folder edpbench-test-TAG-XXXXXX in $TMPDIR (else /tmp), left for
// the caller to remove.
inline std::string temp_dir(const std::string& tag) {
  std::string t =
      (std::filesystem::temp_directory_path() / ("edpbench-test-" + tag + "-XXXXXX")).string();
  if (!::mkdtemp(t.data())) throw std::runtime_error("mkdtemp failed");
  return t;
}

// A temporary folder, removed with everything in it when this goes.
struct TempDir {
  std::string path;
  explicit TempDir(const std::string& tag = "tmp") : path(temp_dir(tag)) {}
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

// A copy of the fixture tree `from` (its files, links and modes), to change.
struct CopiedTree : TempDir {
  explicit CopiedTree(const std::string& from) : TempDir("tree") {
    std::filesystem::copy(
        from, path,
        std::filesystem::copy_options::recursive | std::filesystem::copy_options::copy_symlinks);
  }
  // Makes `file` (a path in the copy) one line, `text`, as a sysfs value reads.
  void write(const std::string& file, const std::string& text) const {
    write_text(path + "/" + file, text + "\n");
  }
};

inline bool contains(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

// How many times `needle` occurs in `hay` (overlapping ones too).
inline size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

// The part of `s` from the first `start` to the next `end` after it ("" when
// there is no `start`; to the end when there is no `end`).
inline std::string between(const std::string& s, const std::string& start, const std::string& end) {
  const size_t a = s.find(start);
  if (a == std::string::npos) return "";
  const size_t b = s.find(end, a);
  return s.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

inline void sleep_s(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

}  // namespace edp::testing
