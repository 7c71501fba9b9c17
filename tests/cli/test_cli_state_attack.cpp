// The attack of issue 20, item 1, end to end through the binary: whoever can
// write a sweep's output or the state directory plants a clock-state.txt
// whose nvpmodel_tool= names a script and whose file= line names an existing
// file with =PWNED; `edpbench restore` and `run --resume` must refuse it
// (exit 2) without running the script or writing the file.
#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>

#include "support/process.h"

namespace fs = std::filesystem;
using Catch::Contains;

namespace {

struct Scene {
  std::string dir = edp::testing::temp_dir("attack");
  std::string root = dir + "/root", victim = dir + "/victim.conf", marker = dir + "/script-ran",
              script = dir + "/evil.sh", out = dir + "/out";
  Scene() {
    ::unsetenv("STATE_DIRECTORY");
    ::setenv("XDG_STATE_HOME", (dir + "/state").c_str(), 1);
    fs::copy(EDPBENCH_FIXTURES "/platform/tx2", root,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    for (auto& e : fs::recursive_directory_iterator(root))
      if (e.is_regular_file() && !e.is_symlink())
        fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
    edp::testing::write_text(victim, "precious\n");
    edp::testing::write_text(script, "#!/bin/sh\ntouch '" + marker + "'\n");
    fs::permissions(script, fs::perms::owner_all);
    fs::create_directories(out);
  }
  ~Scene() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string plant(const std::string& sysfs_root) const {
    const std::string state = out + "/clock-state.txt";
    edp::testing::write_text(state, "version=1\nsysfs_root=" + sysfs_root +
                                        "\nnvpmodel_id=0\nnvpmodel_tool=" + script +
                                        "\npid=999999999\nfile=" + victim + "=PWNED\n");
    return state;
  }
  void nothing_happened() const {
    CHECK_FALSE(fs::exists(marker));
    CHECK(edp::testing::slurp(victim) == "precious\n");
  }
  std::string config() const {
    const std::string path = dir + "/points.yaml";
    edp::testing::write_text(path, std::string(R"(name: points
iterations: 1
runs: 1
warmup_iterations: 0
workloads: [tensors]
sizes:
  tiny: {n: 4, d_in: 8, h: 4, d_out: 2}
devices:
  - {kind: cpu, threads: 1, cpus: all}
power:
  source: trace
  baseline_s: 0
  trace: {file: )") + EDPBENCH_FIXTURES "/cli/constant_7w5.csv}\n" +
                                       R"(operating_points:
  - {name: slow, cpu_max_khz: 960000}
)");
    return path;
  }
};

}  // namespace

TEST_CASE("CLI: restore --state with a planted tool and file=ANY=PWNED is exit 2, nothing runs",
          "[cli][restore][security]") {
  Scene s;
  const std::string state = s.plant("");
  const auto r = edp::testing::edpbench("restore --state " + state);
  INFO(r.err);
  CHECK(r.exit_code == 2);
  s.nothing_happened();
  // --allow-root does not make the file trusted.
  const auto a = edp::testing::edpbench("restore --allow-root --state " + state);
  INFO(a.err);
  CHECK(a.exit_code == 2);
  s.nothing_happened();
  // Nor does a fake root: the entry is still no clock file.
  const auto f = edp::testing::edpbench("restore --state " + state + " --sysfs-root " + s.root);
  CHECK(f.exit_code == 2);
  CHECK_THAT(f.err, Contains("not a plain path under /sys"));
  s.nothing_happened();
}

TEST_CASE("CLI: run --resume validates a planted --out/clock-state.txt before restoring it",
          "[cli][restore][security]") {
  Scene s;
  s.plant("");
  const auto r = edp::testing::edpbench("run --config " + s.config() + " --out " + s.out +
                                        " --resume --sysfs-root " + s.root);
  INFO(r.err);
  CHECK(r.exit_code == 2);
  s.nothing_happened();
  CHECK(fs::exists(s.out + "/clock-state.txt"));
}

TEST_CASE("CLI: as root on the real board, run refuses before it restores anything",
          "[cli][restore][security]") {
  if (::geteuid() != 0) {
    WARN("skipped: needs root");
    return;
  }
  Scene s;
  s.plant("");
  const auto r = edp::testing::edpbench("run --config " + s.config() + " --out " + s.out +
                                        " --resume --sysfs-root /");
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("as root"));
  s.nothing_happened();
  const auto t = edp::testing::edpbench("restore --state " + s.out + "/clock-state.txt");
  CHECK(t.exit_code == 2);
  CHECK_THAT(t.err, Contains("--allow-root"));
  s.nothing_happened();
}

TEST_CASE("CLI: as root, a state file's sysfs_root another user can write is refused",
          "[cli][restore][security]") {
  if (::geteuid() != 0) {
    WARN("skipped: the rule is root's; this test runs as uid " << ::geteuid());
    return;
  }
  Scene s;
  // A valid state file for a tree that the service user could write to: root
  // would read every file of it (a FIFO there hangs it, /dev/zero exhausts it).
  const std::string state = s.out + "/clock-state.txt";
  edp::testing::write_text(state, "version=1\nsysfs_root=" + s.root + "\npid=999999999\n");
  fs::permissions(s.root, fs::perms::others_write, fs::perm_options::add);
  auto r = edp::testing::edpbench("restore --state " + state);
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("not a directory that only root can write"));
  // The same tree once only root can write it, or named by --sysfs-root.
  fs::permissions(s.root, fs::perms::others_write, fs::perm_options::remove);
  r = edp::testing::edpbench("restore --state " + state);
  INFO(r.err);
  CHECK_THAT(r.err, !Contains("not a directory that only root can write"));
}
