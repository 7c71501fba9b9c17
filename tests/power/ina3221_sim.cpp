// Simulated TX2 INA3221 (JetPack 4 ina3221x) sysfs tree; see ina3221_sim.h.
#include "power/ina3221_sim.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "power/clock.h"
#include "power/energy_meter.h"
#include "power/measurement.h"
#include "support/files.h"

namespace edp::testing {
using edp::testing::write_text;

namespace {

using edp::power::now_s;

// Every value file has this width (leading spaces, then a newline), so a
// pwrite at offset 0 replaces the whole content and the size never changes.
// pread_integer (strtoll) skips the leading spaces.
constexpr int kWidth = 10;

std::chrono::steady_clock::time_point to_time_point(double t_s) {
  return std::chrono::steady_clock::time_point(
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(t_s)));
}

int open_value_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("ina3221 sim: cannot create " + path);
  return fd;
}

void put_value(int fd, long long v) {
  if (fd < 0) return;  // a file this layout does not have (hwmon: no power file)
  char buf[32];
  const int n = std::snprintf(buf, sizeof(buf), "%*lld\n", kWidth, v);
  // One pwrite of the full fixed-width text: same inode, same size.
  if (::pwrite(fd, buf, static_cast<size_t>(n), 0) != n) {
    // Nothing sensible to do in the update thread; the reader sees the old value.
  }
}

}  // namespace

struct Ina3221Sim::Rail {
  std::string name;
  size_t device = 0;
  int channel = 0;
  double voltage_v = 0;
  int fd_power = -1, fd_current = -1, fd_voltage = -1;
  // The true signal: from `t` on, `w` watts, or `fraction` x VDD_IN when
  // fraction >= 0. The first record extends back to -infinity.
  struct Record {
    double t, w, fraction;
  };
  std::vector<Record> records;
  bool frozen = false;
  bool noiseless = false;  // no measurement noise: 0 W reads exactly 0 mW
  int repeat_every = 0;
  int hold = 0;  // publications still to repeat
  long long last_mw = 0;
  size_t writes = 0;
};

struct Ina3221Sim::Device {
  std::string name;  // "0-0041"
  double period_s = 0;
  double origin_s = 0;  // nominal schedule: origin + k x period
  size_t k = 0;
  double next_s = 0;  // k-th publication, jitter included
  double last_pub_s = 0;
  size_t publications = 0;
  std::vector<size_t> rails;
};

std::vector<std::string> Ina3221Sim::rails() const {
  std::vector<std::string> names;
  for (const auto& r : rails_) names.push_back(r->name);
  return names;
}

void Ina3221Sim::write_dt(const std::string& model, const std::vector<std::string>& compatible) {
  std::filesystem::create_directories(root_ + "/proc/device-tree");
  std::string c;
  for (const auto& e : compatible) c += e + std::string(1, '\0');
  write_text(root_ + "/proc/device-tree/model", model + std::string(1, '\0'));
  write_text(root_ + "/proc/device-tree/compatible", c);
}

std::vector<std::string> Ina3221Sim::rail_names() {
  return {"VDD_SYS_GPU", "VDD_SYS_SOC", "VDD_4V0_WIFI", "VDD_IN", "VDD_SYS_CPU", "VDD_SYS_DDR"};
}

Ina3221Sim::Ina3221Sim(Ina3221SimOptions options) : options_(std::move(options)) {
  rng_.seed(options_.seed);
  const char* tmp = std::getenv("TMPDIR");
  std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/edp-ina3221-sim-XXXXXX";
  if (!::mkdtemp(templ.data())) throw std::runtime_error("ina3221 sim: mkdtemp failed");
  root_ = templ;

  // A rail: name ("" = NC, nullptr-like "-" = disconnected), bus voltage,
  // idle power, fraction of VDD_IN (-1 = its own power).
  struct SimRail {
    const char* name;
    double volts, idle_w, fraction;
  };
  struct Layout {
    const char* device;
    const char* subdir;
    SimRail rails[3];
  };
  const double vin = options_.vdd_in_v, sub = options_.sub_rail_v;
  const std::vector<Layout> tx2 = {
      {"0-0040",
       "iio:device0",
       {{"VDD_SYS_GPU", sub, 0, 0.30},
        {"VDD_SYS_SOC", sub, 0, 0.15},
        {"VDD_4V0_WIFI", sub, 0, 0.01}}},
      {"0-0041",
       "iio:device1",
       {{"VDD_IN", vin, options_.idle_w, -1},
        {"VDD_SYS_CPU", sub, 0, 0.25},
        {"VDD_SYS_DDR", sub, 0, 0.12}}},
  };
  // Idle powers as in public tegrastats lines of each board (docs/boards.md).
  const std::vector<Layout> xavier = {
      {"1-0040",
       "iio:device0",
       {{"GPU", 19.072, 0.0, -1}, {"CPU", 19.072, 0.305, -1}, {"SOC", 19.072, 1.239, -1}}},
      {"1-0041",
       "iio:device1",
       {{"CV", 19.072, 0.0, -1}, {"VDDRQ", 19.072, 0.305, -1}, {"SYS5V", 4.976, 1.861, -1}}},
  };
  const std::vector<Layout> orin = {
      {"1-0040",
       "hwmon/hwmon3",
       {{"VDD_GPU_SOC", 19.064, 3.965, -1},
        {"VDD_CPU_CV", 19.064, 1.068, -1},
        {"VIN_SYS_5V0", 4.984, 2.831, -1}}},
      {"1-0041",
       "hwmon/hwmon4",
       {{"NC", 4.984, 0.0, -1}, {"VDDQ_VDD2_1V8AO", 4.984, 0.399, -1}, {"-", 0, 0, -1}}},
  };
  const bool hwmon = options_.layout == "agx-orin-jp5";
  const std::vector<Layout>* layout = &tx2;
  if (options_.layout == "agx-xavier-r32") {
    layout = &xavier;
    write_dt("jetson-xavier", {"nvidia,jetson-xavier", "nvidia,tegra194"});
  } else if (hwmon) {
    layout = &orin;
    write_dt("NVIDIA Jetson AGX Orin Developer Kit",
             {"nvidia,p3737-0000+p3701-0000", "nvidia,p3701-0000", "nvidia,tegra234"});
  } else if (options_.layout != "tx2-jp4") {
    throw std::invalid_argument("ina3221 sim: unknown layout " + options_.layout);
  }
  const double t_start = now_s();
  const std::string drv =
      root_ + (hwmon ? "/sys/bus/i2c/drivers/ina3221" : "/sys/bus/i2c/drivers/ina3221x");
  for (const auto& l : *layout) {
    auto d = std::make_unique<Device>();
    d->name = l.device;
    auto it = options_.device_period_s.find(d->name);
    d->period_s = it != options_.device_period_s.end() ? it->second : options_.update_period_s;
    const std::string dev_dir = drv + "/" + l.device;
    const std::string dir = dev_dir + "/" + l.subdir;
    std::filesystem::create_directories(dir);
    if (hwmon) {
      // drivers/hwmon/ina3221.c: the chip's period in ms, its averaging count.
      write_text(dir + "/name", "ina3221\n");
      write_text(dir + "/update_interval", std::to_string(std::llround(d->period_s * 1000)) + "\n");
      write_text(dir + "/samples", "64\n");
      write_text(dir + "/in7_label", "sum of shunt voltages\n");
      write_text(dir + "/in7_input", "0\n");
    } else {
      write_text(dev_dir + "/name", "ina3221x\n");
      write_text(dir + "/name", "ina3221x\n");
      write_text(dir + "/running_mode", "1\n");
    }
    for (int k = 0; k < 3; ++k) {
      const SimRail& sr = l.rails[k];
      const std::string name = sr.name;
      if (name == "-") {  // disconnected: no label, switched off
        write_text(dir + "/in" + std::to_string(k + 1) + "_enable", "0\n");
        continue;
      }
      if (name == "NC") {  // labelled NC: not a rail, never rewritten
        write_text(dir + "/in" + std::to_string(k + 1) + "_label", "NC\n");
        write_text(dir + "/in" + std::to_string(k + 1) + "_enable", "1\n");
        write_text(dir + "/in" + std::to_string(k + 1) + "_input", "4984\n");
        write_text(dir + "/curr" + std::to_string(k + 1) + "_input", "0\n");
        continue;
      }
      auto r = std::make_unique<Rail>();
      r->name = name;
      r->device = devices_.size();
      r->channel = k;
      r->voltage_v = sr.volts;
      r->records.push_back({t_start, sr.idle_w, sr.fraction});
      if (hwmon) {
        const std::string ks = std::to_string(k + 1);
        write_text(dir + "/in" + ks + "_label", r->name + "\n");
        write_text(dir + "/in" + ks + "_enable", "1\n");
        r->fd_current = open_value_file(dir + "/curr" + ks + "_input");
        r->fd_voltage = open_value_file(dir + "/in" + ks + "_input");
      } else {
        const std::string ks = std::to_string(k);
        write_text(dir + "/rail_name_" + ks, r->name + "\n");
        r->fd_power = open_value_file(dir + "/in_power" + ks + "_input");
        r->fd_current = open_value_file(dir + "/in_current" + ks + "_input");
        r->fd_voltage = open_value_file(dir + "/in_voltage" + ks + "_input");
      }
      d->rails.push_back(rails_.size());
      rails_.push_back(std::move(r));
    }
    devices_.push_back(std::move(d));
  }
  // The first values are the (exact) idle power; the schedule starts now.
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& d : devices_) {
    for (size_t ri : d->rails) {
      Rail& r = *rails_[ri];
      r.last_mw = std::llround(power_locked(r, t_start) * 1000);
      put_value(r.fd_voltage, std::llround(r.voltage_v * 1000));
      put_value(r.fd_current, std::llround(r.last_mw / r.voltage_v));
      put_value(r.fd_power, r.last_mw);
    }
    d->origin_s = t_start;
    d->last_pub_s = t_start;
    d->k = 1;
    d->next_s = t_start + d->period_s;
  }
  thread_ = std::thread([this] { run(); });
}

Ina3221Sim::~Ina3221Sim() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  for (auto& r : rails_)
    for (int fd : {r->fd_power, r->fd_current, r->fd_voltage})
      if (fd >= 0) ::close(fd);
  std::error_code ec;
  std::filesystem::remove_all(root_, ec);
}

Ina3221Sim::Rail& Ina3221Sim::rail(const std::string& name) {
  for (auto& r : rails_)
    if (r->name == name) return *r;
  throw std::invalid_argument("ina3221 sim: no rail " + name);
}

const Ina3221Sim::Rail& Ina3221Sim::rail(const std::string& name) const {
  for (const auto& r : rails_)
    if (r->name == name) return *r;
  throw std::invalid_argument("ina3221 sim: no rail " + name);
}

void Ina3221Sim::set_power_w(const std::string& name, double watts) {
  const double t = now_s();
  std::lock_guard<std::mutex> lock(mutex_);
  rail(name).records.push_back({t, watts, -1});
}

void Ina3221Sim::follow_vdd_in(const std::string& name, double fraction) {
  if (name == "VDD_IN") throw std::invalid_argument("ina3221 sim: VDD_IN cannot follow itself");
  const double t = now_s();
  std::lock_guard<std::mutex> lock(mutex_);
  rail(name).records.push_back({t, 0, fraction});
}

void Ina3221Sim::set_noiseless(const std::string& name, bool noiseless) {
  std::lock_guard<std::mutex> lock(mutex_);
  rail(name).noiseless = noiseless;
}

void Ina3221Sim::freeze(const std::string& name, bool frozen) {
  std::lock_guard<std::mutex> lock(mutex_);
  rail(name).frozen = frozen;
}

void Ina3221Sim::repeat_every(const std::string& name, int k) {
  std::lock_guard<std::mutex> lock(mutex_);
  rail(name).repeat_every = k;
}

void Ina3221Sim::hold(const std::string& name, int n) {
  std::lock_guard<std::mutex> lock(mutex_);
  rail(name).hold = n;
}

double Ina3221Sim::power_locked(const Rail& r, double t) const {
  const Rail::Record* cur = &r.records.front();
  for (const auto& rec : r.records)
    if (rec.t <= t) cur = &rec;
  return cur->fraction >= 0 ? cur->fraction * power_locked(rail("VDD_IN"), t) : cur->w;
}

double Ina3221Sim::energy_locked(const Rail& r, double t0, double t1) const {
  if (!(t1 > t0)) return 0;
  double e = 0;
  const size_t n = r.records.size();
  for (size_t i = 0; i < n; ++i) {
    const double a = i == 0 ? -std::numeric_limits<double>::infinity() : r.records[i].t;
    const double b = i + 1 < n ? r.records[i + 1].t : std::numeric_limits<double>::infinity();
    const double lo = std::max(a, t0), hi = std::min(b, t1);
    if (!(hi > lo)) continue;
    const auto& rec = r.records[i];
    e += rec.fraction >= 0 ? rec.fraction * energy_locked(rail("VDD_IN"), lo, hi)
                           : rec.w * (hi - lo);
  }
  return e;
}

double Ina3221Sim::true_power_w(const std::string& name, double t_s) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return power_locked(rail(name), t_s);
}

double Ina3221Sim::true_energy_j(const std::string& name, double t0_s, double t1_s) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return energy_locked(rail(name), t0_s, t1_s);
}

double Ina3221Sim::update_period_s(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return devices_[rail(name).device]->period_s;
}

double Ina3221Sim::next_update_s(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return devices_[rail(name).device]->next_s;
}

size_t Ina3221Sim::publications(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return devices_[rail(name).device]->publications;
}

void Ina3221Sim::wait_updates(const std::string& name, size_t n) const {
  std::unique_lock<std::mutex> lock(mutex_);
  const Device& d = *devices_[rail(name).device];
  const size_t target = d.publications + n;
  published_cv_.wait(lock, [&] { return d.publications >= target || stop_; });
}

double Ina3221Sim::wait_phase(const std::string& name, double phase) const {
  double t;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const Device& d = *devices_[rail(name).device];
    t = d.next_s + phase * d.period_s;
  }
  std::this_thread::sleep_until(to_time_point(t));
  return t;
}

void Ina3221Sim::publish_locked(Device& d, double t) {
  std::normal_distribution<double> noise(0.0, options_.noise_w > 0 ? options_.noise_w : 1.0);
  const double from = options_.averaging_s > 0 ? t - options_.averaging_s : d.last_pub_s;
  ++d.publications;
  for (size_t ri : d.rails) {
    Rail& r = *rails_[ri];
    double mean = t > from ? energy_locked(r, from, t) / (t - from) : power_locked(r, t);
    if (options_.noise_w > 0 && !r.noiseless) mean += noise(rng_);
    long long mw = std::max(0LL, std::llround(mean * 1000));
    if (r.repeat_every > 0 && d.publications % static_cast<size_t>(r.repeat_every) == 0)
      mw = r.last_mw;  // a hidden update: the same value again
    if (r.hold > 0) {
      --r.hold;
      mw = r.last_mw;
    }
    if (r.frozen) continue;
    put_value(r.fd_voltage, std::llround(r.voltage_v * 1000));
    put_value(r.fd_current, std::llround(static_cast<double>(mw) / r.voltage_v));
    put_value(r.fd_power, mw);
    r.last_mw = mw;
    ++r.writes;
  }
  d.last_pub_s = t;
}

void Ina3221Sim::run() {
  std::uniform_real_distribution<double> jitter(-1.0, 1.0);
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_) {
    Device* due = devices_.front().get();
    for (auto& d : devices_)
      if (d->next_s < due->next_s) due = d.get();
    const double when = due->next_s;
    if (stop_cv_.wait_until(lock, to_time_point(when), [&] { return stop_; })) break;
    if (now_s() < when) continue;  // spurious wake-up
    const double t = now_s();
    publish_locked(*due, t);
    // Woken late (a busy machine held this thread up): the schedule starts
    // again from this publication. Kept, the next ones would come early to
    // catch up, some microseconds apart, which no chip does: gaps near 0
    // made the robust update interval (power/update_interval.h) read 0.063 s
    // for 0.1 s beside two busy loops.
    if (t > when + 0.1 * due->period_s) {
      due->origin_s = t;
      due->k = 0;
    }
    ++due->k;
    due->next_s = due->origin_s + static_cast<double>(due->k) * due->period_s +
                  options_.jitter_s * jitter(rng_);
    published_cv_.notify_all();
  }
}

StepRun step_run(edp::power::EnergyMeter& meter, Ina3221Sim& sim, double seconds, double phase,
                 double idle_w, double run_w, const std::string& rail) {
  StepRun s;
  s.seconds = seconds;
  s.phase = phase;
  sim.wait_phase(rail, phase);
  const std::string name = "step";
  meter.begin_window(name);
  sim.set_power_w(rail, run_w);
  std::this_thread::sleep_until(to_time_point(now_s() + seconds));
  sim.set_power_w(rail, idle_w);
  const size_t published_at_end = sim.publications(rail);
  const edp::power::Measurement m = meter.end_window(name);
  s.t0_s = m.t0_s;
  s.t1_s = m.t1_s;
  s.true_j = sim.true_energy_j(rail, m.t0_s, m.t1_s);
  s.update_interval_s = m.update_interval_s;
  s.uncorrected_j = s.corrected_j = std::numeric_limits<double>::quiet_NaN();
  for (const auto& r : m.rails) {
    if (r.rail != rail) continue;
    s.uncorrected_j = r.energy_uncorrected_j;
    s.corrected_j = r.energy_j;
    s.lag_correction_s = r.lag_correction_s;
  }
  // Settle: two publications after the step down cover only idle time.
  const size_t now = sim.publications(rail);
  if (now < published_at_end + 2) sim.wait_updates(rail, published_at_end + 2 - now);
  return s;
}

}  // namespace edp::testing
