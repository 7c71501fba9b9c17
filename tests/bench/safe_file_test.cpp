// The one reader of files a user or the service user can write
// (common/safe_file.h, issue 33): real symbolic links, a real FIFO made with
// mkfifo, /dev/zero, a directory, a sparse file past the cap, and a pipe
// handed over as /dev/fd/N that never ends until a stop is requested.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>

#include "common/errors.h"
#include "common/safe_file.h"
#include "support/files.h"

namespace fs = std::filesystem;

using edp::testing::TempDir;

namespace {

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// The message of the UsageError that reading `path` throws ("" if none).
std::string refusal(const std::string& path, const edp::FileKind& kind) {
  try {
    edp::read_untrusted_file(path, kind);
  } catch (const edp::UsageError& e) {
    return e.what();
  }
  return "";
}

struct Stop {};

}  // namespace

TEST_CASE("safe file: a regular file is read whole and a missing one is nullopt", "[safe_file]") {
  TempDir d;
  const std::string f = d.path + "/results.csv";
  std::string big(3 << 16, 'x');  // several chunks
  write(f, big);
  CHECK(edp::read_untrusted_file(f, edp::file_kind::results_csv) == big);
  CHECK_FALSE(edp::read_untrusted_file_if_present(d.path + "/none", edp::file_kind::results_csv));
  CHECK(refusal(d.path + "/none", edp::file_kind::results_csv).find("No such file") !=
        std::string::npos);
}

TEST_CASE("safe file: a symbolic link is refused, dangling or not, and its target is not read",
          "[safe_file]") {
  TempDir d;
  const std::string secret = d.path + "/secret";
  write(secret, "SECRET-CONTENT\n");
  const std::string link = d.path + "/context.json";
  REQUIRE(::symlink(secret.c_str(), link.c_str()) == 0);
  const std::string why = refusal(link, edp::file_kind::context_json);
  CHECK(why.find(link) != std::string::npos);
  CHECK(why.find("symbolic link") != std::string::npos);
  CHECK(why.find("SECRET") == std::string::npos);
  const std::string dangling = d.path + "/runs.csv";
  REQUIRE(::symlink((d.path + "/nowhere").c_str(), dangling.c_str()) == 0);
  CHECK(edp::path_present(dangling));
  CHECK(refusal(dangling, edp::file_kind::results_csv).find("symbolic link") != std::string::npos);
  // A link in a directory component is resolved (a `latest` link to a sweep).
  const std::string sweep = d.path + "/sweep";
  REQUIRE(::mkdir(sweep.c_str(), 0755) == 0);
  write(sweep + "/results.csv", "a\n1\n");
  REQUIRE(::symlink(sweep.c_str(), (d.path + "/latest").c_str()) == 0);
  CHECK(edp::read_untrusted_file(d.path + "/latest/results.csv", edp::file_kind::results_csv) ==
        "a\n1\n");
}

TEST_CASE("safe file: a FIFO with no writer is refused at once, not waited on", "[safe_file]") {
  TempDir d;
  const std::string fifo = d.path + "/runs.csv";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  auto read =
      std::async(std::launch::async, [&] { return refusal(fifo, edp::file_kind::results_csv); });
  if (read.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
    // Blocked in open(): let it go (a writer arrives) before failing.
    const int w = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (w >= 0) ::close(w);
    FAIL("reading a FIFO blocked");
  }
  const std::string why = read.get();
  CHECK(why.find("FIFO") != std::string::npos);
}

TEST_CASE("safe file: devices, directories and files over the cap are refused", "[safe_file]") {
  CHECK(refusal("/dev/zero", edp::file_kind::trace_csv).find("character device") !=
        std::string::npos);
  CHECK(refusal("/dev/null", edp::file_kind::config).find("character device") != std::string::npos);
  TempDir d;
  CHECK(refusal(d.path, edp::file_kind::results_csv).find("a directory") != std::string::npos);
  // A sparse 3 GB runs.csv (the audit's): refused from its size, unread.
  const std::string sparse = d.path + "/runs.csv";
  const int fd = ::open(sparse.c_str(), O_WRONLY | O_CREAT, 0644);
  REQUIRE(fd >= 0);
  REQUIRE(::ftruncate(fd, 3LL << 30) == 0);
  ::close(fd);
  const auto t0 = std::chrono::steady_clock::now();
  const std::string why = refusal(sparse, edp::file_kind::results_csv);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(1));
  CHECK(why.find("3072.0 MiB, more than the 64.0 MiB a results CSV may have") != std::string::npos);
}

TEST_CASE("safe file: a handed pipe is read, and a stop ends a read that never ends",
          "[safe_file]") {
  int p[2];
  REQUIRE(::pipe(p) == 0);
  REQUIRE(::write(p[1], "runs: 3\n", 8) == 8);
  ::close(p[1]);
  const std::string fd_path = "/dev/fd/" + std::to_string(p[0]);
  CHECK(edp::read_untrusted_file(fd_path, edp::file_kind::config) == "runs: 3\n");
  ::close(p[0]);
  // Only a kind that allows pipes takes /dev/fd/N; others open it as a path.
  REQUIRE(::pipe(p) == 0);
  CHECK(refusal("/dev/fd/" + std::to_string(p[0]), edp::file_kind::results_csv)
            .find("symbolic link") != std::string::npos);

  // The writer stays open and writes nothing: the read waits, interruptibly.
  static int calls = 0;
  calls = 0;
  edp::set_read_interrupt_check([] {
    if (++calls > 3) throw Stop{};
  });
  const auto t0 = std::chrono::steady_clock::now();
  CHECK_THROWS_AS(
      edp::read_untrusted_file("/dev/fd/" + std::to_string(p[0]), edp::file_kind::config), Stop);
  edp::set_read_interrupt_check(nullptr);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
  ::close(p[0]);
  ::close(p[1]);
}

TEST_CASE("safe file: an excerpt is short and escapes what a terminal would run", "[safe_file]") {
  CHECK(edp::escaped_excerpt("abc") == "abc");
  CHECK(edp::escaped_excerpt("a\x1b[2Jb\n") == "a\\x1b[2Jb\\x0a");
  CHECK(edp::escaped_excerpt(std::string(100, 'r'), 8) == "rrrrrrrr...");
  CHECK(edp::escaped_excerpt("back\\slash") == "back\\x5cslash");
}
