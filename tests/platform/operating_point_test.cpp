// Operating points on a writable copy of the TX2 fixture: nvpmodel.conf
// parsing, validation before any change, the privilege check, the write order
// and read-back, undo of a failed write, saved state and restore, and the
// nvpmodel tool path with a fake `nvpmodel` on PATH.
#include <catch2/catch.hpp>

#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "common/errors.h"
#include "platform/nvpmodel_conf.h"
#include "platform/operating_point.h"
#include "platform/sysfs.h"
#include "support/files.h"
#include "support/fixtures.h"

namespace fs = std::filesystem;
using edp::testing::kSysCpu;
using edp::testing::kTx2Tree;
using edp::testing::slurp;
using edp::testing::write_text;
using namespace edp::platform;
using Catch::Contains;

namespace {

const std::string kGpu = "/sys/devices/17000000.gp10b/devfreq/17000000.gp10b";
const std::string kEmc = "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap";

// A writable copy of the TX2 fixture, plus the EMC cap file of an L4T R32
// kernel (the fixture has none), removed at exit.
class Board {
 public:
  Board() {
    std::string tmpl = (fs::temp_directory_path() / "edp-opp-XXXXXX").string();
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    dir_ = tmpl;
    fs::copy(kTx2Tree, dir_ + "/root",
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    fs::create_directories(root() + "/sys/kernel/nvpmodel_emc_cap");
    write(kEmc, "0\n");
    for (auto& e : fs::recursive_directory_iterator(root())) {
      if (e.is_regular_file() && !e.is_symlink()) {
        fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
      }
    }
  }
  ~Board() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  Board(const Board&) = delete;
  Board& operator=(const Board&) = delete;

  std::string dir() const { return dir_; }
  std::string root() const { return dir_ + "/root"; }
  void write(const std::string& abs, const std::string& content) const {
    std::ofstream out(root() + abs, std::ios::trunc);
    REQUIRE(out);
    out << content;
  }
  std::string read(const std::string& abs) const {
    return SysfsRoot(root()).read_line(abs).value_or("(missing)");
  }
  // Every regular file's content, to prove that nothing changed.
  std::map<std::string, std::string> snapshot() const {
    std::map<std::string, std::string> m;
    for (auto& e : fs::recursive_directory_iterator(root())) {
      if (e.is_regular_file() && !e.is_symlink()) {
        std::ifstream in(e.path());
        m[e.path().string()] = std::string(std::istreambuf_iterator<char>(in), {});
      }
    }
    return m;
  }

 private:
  std::string dir_;
};

ApplyOptions fast() {
  ApplyOptions o;
  o.settle_timeout_s = 0.1;  // the fake tree's cur_freq never follows a cap
  o.poll_interval_s = 0.01;
  return o;
}

OperatingPoint low() {
  OperatingPoint p;
  p.name = "low";
  p.cpu_max_khz = 960000;
  p.cpu_min_khz = 499200;
  p.gpu_max_hz = 522750000;
  p.gpu_min_hz = 216750000;
  p.cpus_online = "0,3-5";
  p.cpu_governor = "userspace";
  return p;
}

OperatingPoint high() {
  OperatingPoint p;
  p.name = "high";
  p.cpu_max_khz = 2035200;
  p.cpu_min_khz = 1881600;
  p.gpu_max_hz = 1300500000;
  p.gpu_min_hz = 1236750000;
  p.cpus_online = "0-5";
  return p;
}

OperatingPoint mode(const std::string& name, int id) {
  OperatingPoint p;
  p.name = name;
  p.nvpmodel = id;
  return p;
}

std::string value_of(const ResolvedPoint& r, const std::string& path) {
  for (const auto& w : r.writes) {
    if (w.path == path) return w.value;
  }
  return "(none)";
}

size_t index_of(const std::vector<std::string>& v, const std::string& s) {
  return static_cast<size_t>(std::find(v.begin(), v.end(), s) - v.begin());
}

}  // namespace

TEST_CASE("nvpmodel.conf: the TX2 fixture's five modes, their settings and the default") {
  std::ifstream in(kTx2Tree + "/etc/nvpmodel.conf");
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  const NvpmodelConf conf = parse_nvpmodel_config(text);
  REQUIRE(conf.modes.size() == 5);
  CHECK(conf.mode_list() == "0 MAXN, 1 MAXQ, 2 MAXP_CORE_ALL, 3 MAXP_CORE_ARM, 4 MAXP_CORE_DENVER");
  CHECK(conf.default_mode == 3);
  CHECK(conf.params.at("CPU_ONLINE").type == "FILE");
  CHECK(conf.params.at("GPU").files.at("MAX_FREQ") == kGpu + "/max_freq");
  const NvpMode* maxq = conf.find(1);
  REQUIRE(maxq);
  CHECK(maxq->name == "MAXQ");
  bool gpu_cap = false;
  for (const auto& s : maxq->settings) {
    gpu_cap = gpu_cap || (s.param == "GPU" && s.arg == "MAX_FREQ" && s.value == "854250000");
  }
  CHECK(gpu_cap);
  CHECK(conf.find(7) == nullptr);
}

TEST_CASE("nvpmodel.conf: the early (R27) format of path-value lines is read too") {
  const auto conf = parse_nvpmodel_config(
      "< POWER_MODEL ID=1 NAME=MAXQ >\n"
      "# cpu core settings\n"
      "/sys/devices/system/cpu/cpu1/online 0\n"
      "/sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq 1200000\n"
      "< PM_CONFIG DEFAULT=1 >\n");
  REQUIRE(conf.modes.size() == 1);
  REQUIRE(conf.modes[0].settings.size() == 2);
  CHECK(conf.modes[0].settings[0].param.empty());
  CHECK(conf.modes[0].settings[0].arg == "/sys/devices/system/cpu/cpu1/online");
  CHECK(conf.default_mode == 1);
}

TEST_CASE("operating points: nvpmodel modes resolve to the conf's files, rounded to the tables") {
  Board b;
  const auto pts = validate_points(probe(b.root()), {mode("MAXQ", 1), mode("MAXN", 0)});
  REQUIRE(pts.size() == 2);
  const auto& maxq = pts[0];
  CHECK(maxq.nvpmodel_name == "MAXQ");
  CHECK(value_of(maxq, kSysCpu + "1/online") == "0");
  CHECK(value_of(maxq, kSysCpu + "3/online") == "1");
  CHECK(value_of(maxq, kSysCpu + "0/online") == "(none)");  // cpu0 has no online file; it stays on
  // 1190400 kHz and 854250000 Hz are not in the fixture's tables: a cap is
  // the highest listed rate not above it, and the raw figure is accepted on read-back.
  CHECK(value_of(maxq, kSysCpu + "0/cpufreq/scaling_max_freq") == "1113600");
  CHECK(value_of(maxq, kSysCpu + "0/cpufreq/scaling_min_freq") == "345600");
  CHECK(value_of(maxq, kGpu + "/max_freq") == "828750000");
  CHECK(value_of(maxq, kEmc) == "0");
  CHECK(value_of(pts[1], kSysCpu + "1/cpufreq/scaling_max_freq") == "2035200");  // -1: the top
  CHECK_THAT(maxq.describe(), Contains("nvpmodel 1 MAXQ"));
}

TEST_CASE("operating points: what the board does not offer is refused, naming file and choices") {
  Board b;
  const Platform p = probe(b.root());
  const auto before = b.snapshot();
  CHECK_THROWS_WITH(validate_points(p, {mode("x", 7)}),
                    Contains("nvpmodel: 7 is not a mode") && Contains("0 MAXN, 1 MAXQ"));
  OperatingPoint bad = low();
  bad.cpu_max_khz = 1200000;
  CHECK_THROWS_WITH(validate_points(p, {bad}), Contains("cpu_max_khz 1200000") &&
                                                   Contains("scaling_available_frequencies") &&
                                                   Contains("1113600 1267200"));
  bad = low();
  bad.gpu_max_hz = 854250000;
  CHECK_THROWS_WITH(validate_points(p, {bad}),
                    Contains("available_frequencies") && Contains("828750000 930750000"));
  bad = low();
  bad.cpu_governor = "turbo";
  CHECK_THROWS_WITH(validate_points(p, {bad}), Contains("'turbo'") && Contains("schedutil"));
  bad = low();
  bad.cpus_online = "0,9";
  CHECK_THROWS_WITH(validate_points(p, {bad}), Contains("cpu9 is not present") && Contains("0-5"));
  bad = low();
  bad.cpus_online = "3-5";  // cpu0 has no online file: it cannot go offline
  CHECK_THROWS_WITH(validate_points(p, {bad}), Contains("cpu0 cannot go offline"));
  bad = low();
  bad.cpu_min_khz = 1881600;
  CHECK_THROWS_WITH(validate_points(p, {bad}), Contains("above cpu_max_khz"));
  CHECK_THROWS_WITH(validate_points(p, {low(), low()}), Contains("named twice"));
  CHECK_THROWS_AS(validate_points(p, {OperatingPoint{}}), edp::UsageError);
  // A file the board lacks.
  fs::remove(b.root() + kGpu + "/min_freq");
  CHECK_THROWS_WITH(validate_points(probe(b.root()), {low()}),
                    Contains("'low'") && Contains(kGpu + "/min_freq is missing"));
  fs::remove(b.root() + "/etc/nvpmodel.conf");
  CHECK_THROWS_WITH(validate_points(probe(b.root()), {mode("MAXQ", 1)}),
                    Contains("/etc/nvpmodel.conf"));
  b.write(kGpu + "/min_freq", "114750000\n");
  fs::remove(b.root() + "/etc/nvpmodel.conf");
  CHECK(b.snapshot().size() == before.size() - 1);  // only the conf removed by the test
}

TEST_CASE("operating points: points apply in a safe order and read back, then restore") {
  Board b;
  const Platform p = probe(b.root());
  const auto original = b.snapshot();
  std::vector<std::string> order;
  ApplyOptions opt = fast();
  opt.write_file = [&](const std::string& real, const std::string& value) {
    order.push_back(real.substr(b.root().size()));
    std::ofstream(real, std::ios::trunc) << value << "\n";
    return 0;
  };
  const auto pts = validate_points(p, {low(), high()});
  REQUIRE(check_privileges(p, pts).ok());
  const SavedState saved = capture_state(p, pts);
  const std::string state = b.dir() + "/out/clock-state.txt";
  write_state(saved, {state});
  REQUIRE(fs::exists(state));

  // Down: the min falls first, the max after it; cpu1-2 go offline last.
  const ApplyResult r1 = apply_point(p, pts[0], opt);
  const std::string a57 = kSysCpu + "0/cpufreq/";
  CHECK(index_of(order, a57 + "scaling_min_freq") < index_of(order, a57 + "scaling_max_freq"));
  CHECK(index_of(order, kGpu + "/min_freq") < index_of(order, kGpu + "/max_freq"));
  CHECK(order.back() == kSysCpu + "2/online");
  CHECK(index_of(order, a57 + "scaling_governor") < index_of(order, a57 + "scaling_max_freq"));
  CHECK(b.read(a57 + "scaling_max_freq") == "960000");
  CHECK(b.read(a57 + "scaling_min_freq") == "499200");
  CHECK(b.read(kSysCpu + "1/online") == "0");
  CHECK(b.read(kGpu + "/max_freq") == "522750000");
  CHECK(r1.read_back.size() == pts[0].writes.size());
  CHECK_FALSE(r1.warnings.empty());  // the fake cur_freq stays above the cap
  CHECK_THAT(r1.summary(), Contains("scaling_max_freq=960000"));

  // Up: CPUs online first, then the max rises before the min.
  order.clear();
  apply_point(p, pts[1], opt);
  CHECK(order.front() == kSysCpu + "1/online");
  CHECK(index_of(order, a57 + "scaling_max_freq") < index_of(order, a57 + "scaling_min_freq"));
  CHECK(index_of(order, kGpu + "/max_freq") < index_of(order, kGpu + "/min_freq"));
  CHECK(b.read(a57 + "scaling_min_freq") == "1881600");
  CHECK(b.read(kGpu + "/min_freq") == "1236750000");

  const ApplyResult back = restore_state(parse_state(slurp(state)), opt);
  CHECK(back.failures.empty());
  CHECK(b.snapshot() == original);
}

TEST_CASE("operating points: a failed write is undone and names the file and the error") {
  Board b;
  const Platform p = probe(b.root());
  const auto pts = validate_points(p, {low()});
  const auto original = b.snapshot();
  ApplyOptions opt = fast();
  opt.write_file = [&](const std::string& real, const std::string& value) {
    if (real == b.root() + kGpu + "/max_freq" && value == "522750000") return EINVAL;
    std::ofstream(real, std::ios::trunc) << value << "\n";
    return 0;
  };
  CHECK_THROWS_WITH(apply_point(p, pts[0], opt), Contains(kGpu + "/max_freq") &&
                                                     Contains("Invalid argument") &&
                                                     Contains("were restored"));
  CHECK(b.snapshot() == original);
}

TEST_CASE("operating points: a read-only file is refused before anything changes, by name") {
  Board b;
  fs::permissions(b.root() + kSysCpu + "2/online",
                  fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  const Platform p = probe(b.root());
  const auto original = b.snapshot();
  const std::string state = b.dir() + "/out/clock-state.txt";
  const auto pts = validate_points(p, {low()});
  const PrivilegeReport rep = check_privileges(p, pts);
  REQUIRE_FALSE(rep.ok());
  CHECK(rep.unwritable == std::vector<std::string>{kSysCpu + "2/online"});
  CHECK_THAT(rep.message(), Contains(kSysCpu + "2/online") && Contains("tmpfiles.d") &&
                                Contains("edpbench-clocks") && Contains("never as root"));
  CHECK_THROWS_WITH(OperatingPointSession(p, {low()}, {state}, fast()),
                    Contains(kSysCpu + "2/online"));
  CHECK_FALSE(fs::exists(state));
  CHECK(b.snapshot() == original);
}

TEST_CASE("operating points: a session saves first, restores at the end, removes its state") {
  Board b;
  const Platform p = probe(b.root());
  const auto original = b.snapshot();
  const std::string out = b.dir() + "/out/clock-state.txt";
  const std::string sd = b.dir() + "/state/clock-state.txt";
  {
    OperatingPointSession s(p, {mode("MAXQ", 1), low(), mode("MAXN", 0)}, {out, sd}, fast());
    REQUIRE(fs::exists(out));
    REQUIRE(fs::exists(sd));
    CHECK_THAT(slurp(sd), Contains("file=" + kSysCpu + "1/online=1"));
    s.apply(0);
    CHECK(b.read(kSysCpu + "1/online") == "0");
    CHECK(b.read(kSysCpu + "0/cpufreq/scaling_max_freq") == "1113600");
    s.apply(1);
    CHECK(b.read(kSysCpu + "0/cpufreq/scaling_governor") == "userspace");
    const ApplyResult r = s.restore();
    CHECK(r.failures.empty());
    CHECK(b.snapshot() == original);
    CHECK_FALSE(fs::exists(out));
    CHECK_FALSE(fs::exists(sd));
    s.apply(2);  // restored again by the destructor
  }
  CHECK(b.snapshot() == original);
}

TEST_CASE("operating points: a state file left by a crash is restored at the next start") {
  Board b;
  const Platform p = probe(b.root());
  const auto original = b.snapshot();
  const std::string out = b.dir() + "/out/clock-state.txt";
  const std::string sd = b.dir() + "/state/clock-state.txt";
  const auto pts = validate_points(p, {mode("MAXP_CORE_DENVER", 4), low()});
  SavedState saved = capture_state(p, pts);
  saved.pid = 999999999;  // the crashed process
  write_state(saved, {out, sd});
  apply_point(p, pts[0], fast());
  apply_point(p, pts[1], fast());
  REQUIRE(b.snapshot() != original);
  CHECK_FALSE(restore_leftover({b.dir() + "/none"}).has_value());
  const auto r = restore_leftover({out, sd});
  REQUIRE(r.has_value());
  CHECK(r->failures.empty());
  CHECK(b.snapshot() == original);
  CHECK_FALSE(fs::exists(out));
  CHECK_FALSE(fs::exists(sd));
}

TEST_CASE("operating points: a live owner's state file is left alone, garbage is refused") {
  Board b;
  const Platform p = probe(b.root());
  const std::string path = b.dir() + "/clock-state.txt";
  write_text(path, "hello\n");
  CHECK_THROWS_WITH(restore_leftover({path}), Contains("not an edpbench state file"));
  write_text(path, "version=1\nfile=relative=1\n");
  CHECK_THROWS_AS(restore_leftover({path}), edp::UsageError);
  CHECK(fs::exists(path));

  // A state file whose owner is a running edpbench: that process restores it.
  fs::copy_file("/bin/sleep", b.dir() + "/edpbench");
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    execl((b.dir() + "/edpbench").c_str(), "edpbench", "30", static_cast<char*>(nullptr));
    _exit(127);
  }
  usleep(100000);
  SavedState s = capture_state(p, validate_points(p, {low()}));
  s.pid = child;
  s.pid_start = process_start_ticks(child);
  write_state(s, {path});
  CHECK_THROWS_WITH(restore_leftover({path}), Contains("still running"));
  CHECK(fs::exists(path));
  kill(child, SIGTERM);
  waitpid(child, nullptr, 0);
  CHECK(restore_leftover({path}).has_value());
  CHECK_FALSE(fs::exists(path));
}

TEST_CASE("operating points: with a tool set, nvpmodel points run `nvpmodel -m N` from PATH") {
  Board b;
  const std::string bin = b.dir() + "/bin";
  const std::string log = b.dir() + "/nvpmodel.log";
  fs::create_directories(bin);
  // A fake nvpmodel: records its arguments and writes what the real tool
  // writes for the two modes used here (the conf's raw figures).
  const std::string r = b.root();
  write_text(bin + "/nvpmodel",
             "#!/bin/sh\n"
             "echo \"$@\" >> '" +
                 log +
                 "'\n"
                 "c=" +
                 r + kSysCpu +
                 "\n"
                 "case \"$2\" in\n"
                 "  1) echo 0 > ${c}1/online; echo 0 > ${c}2/online;\n"
                 "     echo 1190400 > ${c}0/cpufreq/scaling_max_freq;\n"
                 "     echo 854250000 > " +
                 r + kGpu +
                 "/max_freq ;;\n"
                 "  0) echo 1 > ${c}1/online; echo 1 > ${c}2/online;\n"
                 "     echo 2035200 > ${c}0/cpufreq/scaling_max_freq;\n"
                 "     echo 1300500000 > " +
                 r + kGpu +
                 "/max_freq ;;\n"
                 "  *) exit 3 ;;\n"
                 "esac\n");
  fs::permissions(bin + "/nvpmodel", fs::perms::owner_all);
  const std::string old_path = getenv("PATH") ? getenv("PATH") : "";
  setenv("PATH", (bin + ":" + old_path).c_str(), 1);

  const Platform p = probe(b.root());
  const auto original = b.snapshot();
  ApplyOptions opt = fast();
  opt.nvpmodel_tool = "nvpmodel";
  // The mode's files need not be writable by edpbench itself: the tool writes them.
  fs::permissions(b.root() + kSysCpu + "1/online", fs::perms::owner_read);
  const auto pts = validate_points(p, {mode("MAXQ", 1)});
  CHECK(check_privileges(p, pts, opt).ok());
  CHECK_FALSE(check_privileges(p, pts, fast()).ok());
  fs::permissions(b.root() + kSysCpu + "1/online", fs::perms::owner_read | fs::perms::owner_write);

  const SavedState saved = capture_state(p, pts, opt);
  CHECK(saved.nvpmodel_by_tool);
  CHECK(saved.nvpmodel_id == 0);
  const ApplyResult res = apply_point(p, pts[0], opt);
  CHECK(b.read(kGpu + "/max_freq") == "854250000");  // the raw figure, accepted on read-back
  CHECK(res.written.front().path == "nvpmodel -m 1");
  const ApplyResult back = restore_state(saved, opt);
  CHECK(back.failures.empty());
  CHECK(slurp(log) == "-m 1\n-m 0\n");
  CHECK(b.snapshot() == original);

  // A tool that fails: the point is undone and the exit status reported.
  const auto bad = validate_points(p, {mode("MAXP_CORE_ALL", 2)});
  CHECK_THROWS_WITH(apply_point(p, bad[0], opt), Contains("-m 2 exited with status 3"));
  opt.nvpmodel_tool = "no-such-nvpmodel";
  CHECK_THAT(check_privileges(p, bad, opt).message(), Contains("not found on PATH"));
  setenv("PATH", old_path.c_str(), 1);
}

TEST_CASE("operating points: root never changes the real board's clocks") {
  if (geteuid() != 0) return;
  Platform p;  // sysfs_root "" = the real machine; nothing is written
  ResolvedPoint pt;
  pt.point.name = "x";
  CHECK_THROWS_AS(apply_point(p, pt), edp::UsageError);
  CHECK_THAT(check_privileges(p, {pt}).message(), Contains("as root"));
}

TEST_CASE("operating points: state files live in the output and the state directory") {
  setenv("STATE_DIRECTORY", "/var/lib/edpbench", 1);
  CHECK(state_file_paths("out") ==
        std::vector<std::string>{"out/clock-state.txt", "/var/lib/edpbench/clock-state.txt"});
  unsetenv("STATE_DIRECTORY");
  setenv("XDG_STATE_HOME", "/x", 1);
  CHECK(state_file_paths("").back() == "/x/edpbench/clock-state.txt");
  unsetenv("XDG_STATE_HOME");
  SavedState s;
  s.sysfs_root = "/r";
  s.nvpmodel_id = 3;
  s.pid = 42;
  s.files = {{"/sys/a/online", "1", "", false}, {"/sys/b/governor", "schedutil", "", false}};
  const SavedState t = parse_state(format_state(s));
  CHECK(t.sysfs_root == "/r");
  CHECK(t.nvpmodel_id == 3);
  CHECK(t.pid == 42);
  REQUIRE(t.files.size() == 2);
  CHECK(t.files[1].path == "/sys/b/governor");
  CHECK(t.files[1].value == "schedutil");
}

TEST_CASE("operating points: the shipped tmpfiles.d grant opens exactly the files points write") {
  if (geteuid() != 0 || std::system("command -v systemd-tmpfiles >/dev/null 2>&1") != 0) {
    WARN("skipped: needs root (chown) and systemd-tmpfiles");
    return;
  }
  Board b;
  // Everything root:root 0644 first, as sysfs has it.
  for (auto& e : fs::recursive_directory_iterator(b.root())) {
    if (e.is_regular_file() && !e.is_symlink()) {
      REQUIRE(chown(e.path().c_str(), 0, 0) == 0);
      fs::permissions(e.path(), static_cast<fs::perms>(0644));
    }
  }
  fs::create_directories(b.root() + "/etc/tmpfiles.d");
  write_text(b.root() + "/etc/group", "root:x:0:\nedpbench:x:4242:\n");
  write_text(b.root() + "/etc/passwd", "root:x:0:0::/root:/bin/sh\n");
  fs::copy_file(EDPBENCH_CONFIGS "/../packaging/edpbench-clocks.tmpfiles",
                b.root() + "/etc/tmpfiles.d/edpbench-clocks.conf");
  REQUIRE(std::system(("systemd-tmpfiles --create --root='" + b.root() + "'").c_str()) == 0);

  std::set<std::string> granted;
  for (auto& e : fs::recursive_directory_iterator(b.root() + "/sys")) {
    struct stat st;
    if (e.is_regular_file() && !e.is_symlink() && stat(e.path().c_str(), &st) == 0 &&
        st.st_gid == 4242) {
      CHECK((st.st_mode & 0777) == 0664);
      granted.insert(e.path().string().substr(b.root().size()));
    }
  }
  OperatingPoint all = low();
  all.emc_max_hz = 0;
  std::vector<OperatingPoint> pts = {all};
  for (int id = 0; id < 5; ++id) pts.push_back(mode("m" + std::to_string(id), id));
  std::set<std::string> written;
  for (const auto& r : validate_points(probe(b.root()), pts)) {
    for (const auto& w : r.writes) written.insert(w.path);
  }
  for (const auto& w : written) CHECK(granted.count(w) == 1);
  const std::set<std::string> kinds = {"online",           "scaling_max_freq", "scaling_min_freq",
                                       "scaling_governor", "max_freq",         "min_freq",
                                       "emc_iso_cap"};
  for (const auto& g : granted) CHECK(kinds.count(fs::path(g).filename().string()) == 1);
  CHECK(granted.count(kSysCpu + "0/cpufreq/scaling_cur_freq") == 0);
}
