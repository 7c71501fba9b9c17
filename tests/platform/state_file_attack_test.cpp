// A clock-state.txt is written by whoever can write a sweep's output or the
// state directory (the service user, which runs arbitrary workloads), and
// restored by `edpbench restore` or `run --resume`, maybe as root (issue 20,
// item 1). These tests plant the attacks of the issue on a writable copy of
// the TX2 fixture: a state file naming a script in nvpmodel_tool= and a file=
// line naming an arbitrary existing file with =PWNED, traversal with /../, a
// symlink planted inside the sysfs root pointing outside, values outside the
// files' ranges. Each is refused before anything is written or run.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "common/errors.h"
#include "platform/operating_point.h"
#include "platform/sysfs.h"
#include "support/files.h"
#include "support/fixtures.h"

namespace fs = std::filesystem;
using edp::testing::kSysCpu;
using edp::testing::slurp;
using edp::testing::write_text;
using namespace edp::platform;
using Catch::Contains;

namespace {

// A writable TX2 tree, a victim file outside it, and a script that would
// prove it ran by creating a marker.
struct Scene {
  std::string dir;
  std::string root, victim, script, marker, state;
  Scene() {
    std::string t = (fs::temp_directory_path() / "edp-attack-XXXXXX").string();
    REQUIRE(mkdtemp(t.data()) != nullptr);
    dir = t;
    root = dir + "/root";
    fs::copy(EDPBENCH_FIXTURES "/platform/tx2", root,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    for (auto& e : fs::recursive_directory_iterator(root)) {
      if (e.is_regular_file() && !e.is_symlink())
        fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
    }
    victim = dir + "/victim.conf";
    write_text(victim, "precious\n");
    marker = dir + "/script-ran";
    script = dir + "/evil.sh";
    write_text(script, "#!/bin/sh\ntouch '" + marker + "'\n");
    fs::permissions(script, fs::perms::owner_all);
    state = dir + "/clock-state.txt";
  }
  ~Scene() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string cpu1_online() const {
    return SysfsRoot(root).read_line(kSysCpu + "1/online").value();
  }
  void plant(const std::string& sysfs_root, const std::string& files) const {
    write_text(state, "version=1\nsysfs_root=" + sysfs_root +
                          "\nnvpmodel_id=0\nnvpmodel_tool=" + script + "\npid=999999999\n" + files);
  }
  void nothing_happened() const {
    CHECK_FALSE(fs::exists(marker));
    CHECK(slurp(victim) == "precious\n");
    CHECK(fs::exists(state));  // kept for the operator to look at
  }
};

}  // namespace

TEST_CASE("state file: the issue's attack (tool script, file=ANY=PWNED) runs and writes nothing") {
  Scene s;
  // sysfs_root empty: the real machine; the file= path is absolute.
  s.plant("", "file=" + s.victim + "=PWNED\n");
  CHECK_THROWS_AS(restore_leftover({s.state}), edp::UsageError);
  s.nothing_happened();
  // The same under the fake root (so that root is not refused first): the
  // entry is not a clock file of the board.
  s.plant(s.root, "file=" + s.victim + "=PWNED\n");
  CHECK_THROWS_WITH(restore_leftover({s.state}), Contains("not a plain path under /sys"));
  s.nothing_happened();
}

TEST_CASE("state file: a valid restore never runs the tool the file names") {
  Scene s;
  write_text(s.root + kSysCpu + "1/online", "0\n");
  s.plant(s.root, "file=" + kSysCpu + "1/online=1\n");
  const auto r = restore_leftover({s.state});
  REQUIRE(r.has_value());
  CHECK(s.cpu1_online() == "1");
  CHECK_FALSE(fs::exists(s.marker));
  CHECK(slurp(s.victim) == "precious\n");
  // Old files' nvpmodel_tool=NAME only says the tool was used.
  CHECK(parse_state("version=1\nnvpmodel_tool=/tmp/x\n").nvpmodel_by_tool);
}

TEST_CASE("state file: /../ traversal, '.', '//' and files of no clock are refused") {
  Scene s;
  const std::string up = "/sys/devices/system/cpu/cpu1/../../../../../victim.conf";
  for (const std::string& entry : std::vector<std::string>{
           up + "=PWNED", kSysCpu + "1/./online=1", kSysCpu + "1//online=1",
           "/sys/../victim.conf=1", kSysCpu + "0/cpufreq/scaling_available_frequencies=1",
           "/etc/nvpmodel.conf=PWNED", "/sys/devices/system/cpu/cpu1/online/=1"}) {
    INFO(entry);
    s.plant(s.root, "file=" + entry + "\n");
    CHECK_THROWS_AS(restore_leftover({s.state}), edp::UsageError);
    s.nothing_happened();
  }
  CHECK(slurp(s.root + "/etc/nvpmodel.conf").find("PWNED") == std::string::npos);
}

TEST_CASE("state file: a symlink planted inside the sysfs root is not followed") {
  Scene s;
  // The file itself replaced by a link to the victim.
  const std::string online = s.root + kSysCpu + "1/online";
  fs::remove(online);
  fs::create_symlink(s.victim, online);
  s.plant(s.root, "file=" + kSysCpu + "1/online=1\n");
  CHECK_THROWS_WITH(restore_leftover({s.state}), Contains("outside"));
  s.nothing_happened();
  // The writer refuses it on its own too (O_NOFOLLOW), whatever was checked before.
  CHECK_THAT(write_clock_file(s.root, kSysCpu + "1/online", "1"), Contains("symbolic link"));
  CHECK(slurp(s.victim) == "precious\n");

  // A directory on the way replaced by a link outside the root.
  const std::string outside = s.dir + "/elsewhere";
  fs::create_directories(outside);
  write_text(outside + "/online", "0\n");
  fs::remove_all(s.root + kSysCpu + "2");
  fs::create_directory_symlink(outside, s.root + kSysCpu + "2");
  s.plant(s.root, "file=" + kSysCpu + "2/online=1\n");
  CHECK_THROWS_AS(restore_leftover({s.state}), edp::UsageError);
  CHECK(slurp(outside + "/online") == "0\n");
  CHECK_THAT(write_clock_file(s.root, kSysCpu + "2/online", "1"), Contains("outside"));
  CHECK(slurp(outside + "/online") == "0\n");

  // A hard link to a file outside (same file system) is not a sysfs attribute.
  fs::remove(online);
  fs::create_hard_link(s.victim, online);
  CHECK_THAT(write_clock_file(s.root, kSysCpu + "1/online", "1"), Contains("one link"));
  CHECK(slurp(s.victim) == "precious\n");
}

TEST_CASE("state file: values outside the files' own ranges are refused") {
  Scene s;
  const std::string gpu = "/sys/devices/17000000.gp10b/devfreq/17000000.gp10b";
  for (const std::string& entry : std::vector<std::string>{
           kSysCpu + "1/online=2", kSysCpu + "1/online=-1",
           kSysCpu + "0/cpufreq/scaling_max_freq=99999999",
           kSysCpu + "0/cpufreq/scaling_max_freq=1", kSysCpu + "0/cpufreq/scaling_governor=evil",
           kSysCpu + "0/cpufreq/scaling_governor=" + std::string(100, 'a'), gpu + "/max_freq=5",
           gpu + "/max_freq=1300500001", kSysCpu + "1/online=1 2"}) {
    INFO(entry);
    s.plant(s.root, "file=" + entry + "\n");
    CHECK_THROWS_AS(restore_leftover({s.state}), edp::UsageError);
  }
  // Listed twice (the second would win silently).
  s.plant(s.root, "file=" + kSysCpu + "1/online=1\nfile=" + kSysCpu + "1/online=0\n");
  CHECK_THROWS_WITH(restore_leftover({s.state}), Contains("twice"));
  // An nvpmodel id the conf does not have.
  write_text(s.state, "version=1\nsysfs_root=" + s.root + "\nnvpmodel_id=77\nnvpmodel_by_tool=1\n");
  CHECK_THROWS_WITH(restore_leftover({s.state}), Contains("not a mode"));
  // In range: accepted (min 0 = no lower limit is a valid devfreq value).
  s.plant(s.root,
          "file=" + gpu + "/min_freq=0\nfile=" + kSysCpu + "0/cpufreq/scaling_max_freq=1113600\n");
  CHECK(restore_leftover({s.state}).has_value());
  CHECK(SysfsRoot(s.root).read_line(gpu + "/min_freq").value() == "0");
}

TEST_CASE("state file: a state file that is a symlink is not read") {
  Scene s;
  s.plant(s.root, "file=" + kSysCpu + "1/online=1\n");
  const std::string link = s.dir + "/link-state.txt";
  fs::create_symlink(s.state, link);
  CHECK_THROWS_WITH(restore_leftover({link}), Contains("symbolic link"));
}

TEST_CASE("state file: a FIFO or a file over 1 MiB is refused by the common reader, naming it") {
  // read_state_file had its own open/fstat/one read(); now the one reader of
  // untrusted files (common/safe_file.h) with the clock state file's kind.
  Scene s;
  const std::string big = s.dir + "/big/clock-state.txt";
  fs::create_directories(s.dir + "/big");
  std::ofstream(big) << "version=1\n" << std::string((1 << 20) + 1, '#') << "\n";
  CHECK_THROWS_WITH(restore_leftover({big}),
                    Contains(big + ": not read:") && Contains("a clock state file may have"));
  const std::string fifo = s.dir + "/fifo-state.txt";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH(restore_leftover({fifo}),
                    Contains(fifo + ": not read: it is a FIFO") && Contains("clock state file"));
}

TEST_CASE("state file: root is refused on the real board before anything is read or run") {
  if (geteuid() != 0) {
    WARN("skipped: needs root");
    return;
  }
  Scene s;
  for (const std::string& r : {std::string(""), std::string("/"), std::string("/sys/..")}) {
    INFO("sysfs_root=" << r);
    s.plant(r, "file=" + kSysCpu + "1/online=1\n");
    CHECK_THROWS_WITH(restore_leftover({s.state}), Contains("as root"));
    s.nothing_happened();
  }
  // With --allow-root the file is still validated: the attack stays refused.
  s.plant("", "file=" + s.victim + "=PWNED\n");
  ApplyOptions allow;
  allow.allow_root = true;
  CHECK_THROWS_AS(restore_leftover({s.state}, "", allow), edp::UsageError);
  s.nothing_happened();
}

TEST_CASE("state file: the owner check compares the start time, and the name exactly") {
  Scene s;
  // A process whose name only contains "edpbench" (the job wrapper) and a
  // pid with another start time (recycled) are not the owner.
  fs::copy_file("/bin/sleep", s.dir + "/edpbench-job");
  fs::copy_file("/bin/sleep", s.dir + "/edpbench");
  auto spawn = [&](const std::string& exe) {
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      execl(exe.c_str(), fs::path(exe).filename().c_str(), "30", static_cast<char*>(nullptr));
      _exit(127);
    }
    usleep(100000);
    return child;
  };
  const pid_t job = spawn(s.dir + "/edpbench-job");
  const pid_t bench = spawn(s.dir + "/edpbench");
  CHECK(process_start_ticks(bench) > 0);
  CHECK_FALSE(pid_is_live_edpbench(job, 0));
  CHECK_FALSE(pid_is_live_edpbench(job, process_start_ticks(job)));
  CHECK(pid_is_live_edpbench(bench, process_start_ticks(bench)));
  CHECK(pid_is_live_edpbench(bench, 0));  // a file of an earlier version
  CHECK_FALSE(pid_is_live_edpbench(bench, process_start_ticks(bench) + 1));
  write_text(s.root + kSysCpu + "1/online", "0\n");
  write_text(s.state, "version=1\nsysfs_root=" + s.root + "\npid=" + std::to_string(job) +
                          "\nfile=" + kSysCpu + "1/online=1\n");
  CHECK(restore_leftover({s.state}).has_value());
  CHECK(s.cpu1_online() == "1");
  for (pid_t c : {job, bench}) {
    kill(c, SIGKILL);
    waitpid(c, nullptr, 0);
  }
}

TEST_CASE("state file: a sysfs root swapped for a symlink after validation is not written") {
  // The attacker owns the tree the state file names. A FIFO in it stops the
  // restore at its first read of that file; meanwhile the tree is renamed
  // and its name made a symlink to another tree (on a real attack "/", so
  // the writes, checked against the attacker's own nvpmodel.conf and
  // ranges, would land in the real /sys). Nothing may be written there.
  Scene s;
  const std::string other = s.dir + "/other";  // stands for "/"
  fs::copy(EDPBENCH_FIXTURES "/platform/tx2", other,
           fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  const std::string target = other + kSysCpu + "0/cpufreq/scaling_max_freq";
  fs::permissions(target, fs::perms::owner_write, fs::perm_options::add);
  write_text(target, "2035200\n");
  const std::string fifo = s.root + kSysCpu + "0/cpufreq/scaling_max_freq";
  fs::remove(fifo);
  REQUIRE(mkfifo(fifo.c_str(), 0644) == 0);
  write_text(s.state, "version=1\nsysfs_root=" + s.root + "\npid=999999999\nfile=" + kSysCpu +
                          "0/cpufreq/scaling_max_freq=345600\n");
  std::thread attacker([&] {
    int fd = -1;
    for (int i = 0; i < 500 && fd < 0; ++i) {  // until the restore opens it to read
      fd = open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
      if (fd < 0) usleep(10000);
    }
    fs::rename(s.root, s.dir + "/moved");
    fs::create_directory_symlink(other, s.root);
    if (fd >= 0) {
      (void)!write(fd, "2035200\n", 8);
      close(fd);
    }
  });
  try {
    restore_leftover({s.state});
  } catch (const std::exception&) {
  }
  attacker.join();
  CHECK(slurp(target) == "2035200\n");
}
