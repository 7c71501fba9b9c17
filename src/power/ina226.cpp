// INA226 over i2c-dev (see ina226.h). Constants cite TI SBOS547.
#include "power/ina226.h"

#include <fcntl.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "common/errors.h"
#include "edpbench/config.h"
#include "power/sysfs.h"

#if EDPBENCH_HAVE_LIBI2C
extern "C" {
#include <i2c/smbus.h>
}
#endif

namespace edp::power {
namespace {

std::string hex16(int v) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%04X", v & 0xFFFF);
  return buf;
}

std::string bus_number(const std::string& device) {
  const size_t dash = device.find_last_of('-');
  return dash == std::string::npos ? device : device.substr(dash + 1);
}

class LinuxI2cBus final : public I2cBus {
 public:
  explicit LinuxI2cBus(FileHandle fd) : fd_(std::move(fd)) {}

  int read_word(uint8_t reg) override {
#if EDPBENCH_HAVE_LIBI2C
    int rc = i2c_smbus_read_word_data(fd_.get(), reg);
    return rc < 0 ? -errno : rc;
#else
    union i2c_smbus_data data;
    struct i2c_smbus_ioctl_data args;
    args.read_write = I2C_SMBUS_READ;
    args.command = reg;
    args.size = I2C_SMBUS_WORD_DATA;
    args.data = &data;
    if (::ioctl(fd_.get(), I2C_SMBUS, &args) < 0) return -errno;
    return data.word & 0xFFFF;
#endif
  }

  int write_word(uint8_t reg, uint16_t value) override {
#if EDPBENCH_HAVE_LIBI2C
    return i2c_smbus_write_word_data(fd_.get(), reg, value) < 0 ? -errno : 0;
#else
    union i2c_smbus_data data;
    data.word = value;
    struct i2c_smbus_ioctl_data args;
    args.read_write = I2C_SMBUS_WRITE;
    args.command = reg;
    args.size = I2C_SMBUS_WORD_DATA;
    args.data = &data;
    return ::ioctl(fd_.get(), I2C_SMBUS, &args) < 0 ? -errno : 0;
#endif
  }

 private:
  FileHandle fd_;
};

// Conversion-time and averaging codes (SBOS547 §7.6.1, tables 6-8).
constexpr int kAverages[] = {1, 4, 16, 64, 128, 256, 512, 1024};
constexpr int kConversionUs[] = {140, 204, 332, 588, 1100, 2116, 4156, 8244};

template <size_t N>
int code_of(const int (&table)[N], int value) {
  for (size_t i = 0; i < N; ++i)
    if (table[i] == value) return static_cast<int>(i);
  return -1;
}

template <size_t N>
std::string list_of(const int (&table)[N]) {
  std::string s;
  for (size_t i = 0; i < N; ++i) s += (i ? ", " : "") + std::to_string(table[i]);
  return s;
}

}  // namespace

std::string hex_address(int address) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%02x", address);
  return buf;
}

std::unique_ptr<I2cBus> open_i2c_bus(const std::string& sysfs_root, const std::string& device,
                                     int address, bool force) {
  const std::string path = sysfs_root + device;
  int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    if (e == ENOENT)
      throw UsageError("I2C bus " + device + " not found; load i2c-dev (modprobe i2c-dev) and " +
                       "list buses with i2cdetect -l");
    if (e == EACCES || e == EPERM)
      throw UsageError("permission denied opening " + device +
                       "; add the user to the i2c group or run as root");
    throw UsageError("cannot open I2C bus " + device + ": " + std::strerror(e));
  }
  FileHandle handle(fd);
  if (::ioctl(fd, force ? I2C_SLAVE_FORCE : I2C_SLAVE, static_cast<long>(address)) < 0) {
    const int e = errno;
    if (e == EBUSY)
      throw UsageError("address " + hex_address(address) + " on " + device +
                       " is claimed by a kernel driver (probably ina2xx); use --source hwmon, " +
                       "or set power.ina226.force to take it over");
    throw UsageError("cannot select address " + hex_address(address) + " on " + device + ": " +
                     std::strerror(e));
  }
  return std::make_unique<LinuxI2cBus>(std::move(handle));
}

Ina226Settings ina226_settings(const Ina226Options& o) {
  const int avg = code_of(kAverages, o.averages);
  if (avg < 0)
    throw UsageError("ina226 averages " + std::to_string(o.averages) +
                     " is not supported; use one of " + list_of(kAverages));
  const int ct = code_of(kConversionUs, o.conversion_us);
  if (ct < 0)
    throw UsageError("ina226 conversion_us " + std::to_string(o.conversion_us) +
                     " is not supported; use one of " + list_of(kConversionUs));
  if (!(o.shunt_ohm > 0) || !(o.max_current_a > 0))
    throw UsageError("ina226 shunt_ohm and max_current_a must be positive");
  Ina226Settings s;
  // Config register (SBOS547 §7.6.1): bit 14 reads as 1 (reset value 0x4127),
  // AVG[11:9], VBUSCT[8:6], VSHCT[5:3], MODE[2:0] = 111 (shunt and bus, continuous).
  s.config = static_cast<uint16_t>(0x4000 | (avg << 9) | (ct << 6) | (ct << 3) | 0x7);
  // Calibration (SBOS547 §7.5, eq. 1-2): current_LSB = I_max / 2^15.
  const double wanted_lsb = o.max_current_a / 32768.0;
  const double cal = std::floor(ina226::kCalibrationScale / (wanted_lsb * o.shunt_ohm));
  if (cal < 1 || cal > 0x7FFF)
    throw UsageError("ina226 calibration " + std::to_string(static_cast<long long>(cal)) +
                     " for shunt_ohm " + std::to_string(o.shunt_ohm) + " and max_current_a " +
                     std::to_string(o.max_current_a) + " is outside 1..32767 (bit 15 is reserved)");
  s.calibration = static_cast<uint16_t>(cal);
  // CAL is an integer, so the LSB the chip applies differs slightly from the
  // one asked for: use the chip's.
  s.current_lsb_a = ina226::kCalibrationScale / (cal * o.shunt_ohm);
  s.power_lsb_w = ina226::kPowerLsbPerCurrentLsb * s.current_lsb_a;
  s.conversion_period_s = 2.0 * o.conversion_us * 1e-6 * o.averages;
  return s;
}

Ina226::Ina226(std::unique_ptr<I2cBus> bus, const Ina226Options& options, std::string where)
    : bus_(std::move(bus)),
      options_(options),
      settings_(ina226_settings(options)),
      where_(std::move(where)) {
  const std::string hint = "; check the address with i2cdetect -y " + bus_number(options.bus);
  int man = bus_->read_word(ina226::kManufacturerId);
  if (man < 0)
    throw UsageError("no INA226 at " + where_ +
                     " (reading the manufacturer id failed: " + std::strerror(-man) + ")" + hint);
  man = swap_bytes(static_cast<uint16_t>(man));
  if (man != ina226::kManufacturer)
    throw UsageError("no INA226 at " + where_ + " (manufacturer id " + hex16(man) + ", expected " +
                     hex16(ina226::kManufacturer) + ")" + hint);
  int die = bus_->read_word(ina226::kDieId);
  if (die < 0)
    throw UsageError("no INA226 at " + where_ +
                     " (reading the die id failed: " + std::strerror(-die) + ")" + hint);
  die = swap_bytes(static_cast<uint16_t>(die));
  if (die != ina226::kDie)
    throw UsageError("device at " + where_ + " is a TI monitor but not an INA226 (die id " +
                     hex16(die) + ", expected " + hex16(ina226::kDie) + ")" + hint);
  if (int rc = bus_->write_word(ina226::kConfig, swap_bytes(settings_.config)); rc < 0)
    throw std::runtime_error("ina226 " + where_ +
                             ": writing the configuration failed: " + std::strerror(-rc));
  if (int rc = bus_->write_word(ina226::kCalibration, swap_bytes(settings_.calibration)); rc < 0)
    throw std::runtime_error("ina226 " + where_ +
                             ": writing the calibration failed: " + std::strerror(-rc));
}

bool Ina226::read_register(uint8_t reg, uint16_t* value) {
  const int raw = bus_->read_word(reg);
  if (raw < 0) return false;
  *value = swap_bytes(static_cast<uint16_t>(raw));
  return true;
}

bool Ina226::bus_voltage_v(double* out) {
  uint16_t v;
  if (!read_register(ina226::kBus, &v)) return false;
  *out = v * ina226::kBusLsbV;
  return true;
}

bool Ina226::shunt_voltage_v(double* out) {
  uint16_t v;
  if (!read_register(ina226::kShunt, &v)) return false;
  *out = static_cast<int16_t>(v) * ina226::kShuntLsbV;
  return true;
}

bool Ina226::current_a(double* out) {
  uint16_t v;
  if (!read_register(ina226::kCurrent, &v)) return false;
  *out = static_cast<int16_t>(v) * settings_.current_lsb_a;
  return true;
}

bool Ina226::power_w(double* out) {
  uint16_t v;
  if (!read_register(ina226::kPower, &v)) return false;
  *out = v * settings_.power_lsb_w;
  return true;
}

bool Ina226::status(bool* ready, bool* overflow) {
  uint16_t v;
  if (!read_register(ina226::kMaskEnable, &v)) return false;
  *ready = (v & ina226::kCvrf) != 0;
  *overflow = (v & ina226::kOvf) != 0;
  return true;
}

Ina226Sensor::Ina226Sensor(std::unique_ptr<Ina226> chip, std::string rail, bool poll_ready)
    : chip_(std::move(chip)),
      rails_{{std::move(rail), ValueKind::power_w, Timing::averaging}},
      poll_ready_(poll_ready) {
  // Each result is the mean of AVG conversions of VBUSCT + VSHCT each
  // (SBOS547, configuration register), held until the next one.
  rails_[0].averaging_s = chip_->settings().conversion_period_s;
}

void Ina226Sensor::flag_overflow() noexcept {
  ++anomalies_;
  char buf[320];
  std::snprintf(buf, sizeof(buf),
                "ina226: %s: math overflow (OVF, mask/enable bit 2): the current exceeds "
                "max_current_a %g A for the %g ohm shunt, so current and power are invalid; "
                "raise max_current_a",
                rails_[0].rail.c_str(), chip_->options().max_current_a, chip_->options().shunt_ohm);
  last_anomaly_ = buf;
}

size_t Ina226Sensor::read(double* values, std::string* error) noexcept {
  // OVF describes the latest conversion; a conversion that finishes between
  // this read and the power read below is flagged one sample late.
  bool ready = false, overflow = false;
  if (!chip_->status(&ready, &overflow)) {
    values[0] = std::numeric_limits<double>::quiet_NaN();
    if (error) *error = "ina226: " + rails_[0].rail + ": mask/enable register read failed";
    return 1;
  }
  if (poll_ready_ && have_cached_ && !ready) {
    values[0] = cached_w_;
    if (cached_overflow_) flag_overflow();
    return 0;
  }
  double w;
  if (!chip_->power_w(&w)) {
    values[0] = std::numeric_limits<double>::quiet_NaN();
    if (error) *error = "ina226: " + rails_[0].rail + ": power register read failed";
    return 1;
  }
  // The power register is current x bus / 20000 in its own LSBs (SBOS547
  // 7.5): the bus register's full scale (40.96 V) times the current
  // register's (32768 current LSBs) bounds it; above is no conversion.
  const double max_w =
      40.96 * 32768 * chip_->settings().power_lsb_w / ina226::kPowerLsbPerCurrentLsb;
  if (w > max_w) {
    values[0] = std::numeric_limits<double>::quiet_NaN();
    if (error)
      *error = "ina226: " + rails_[0].rail + ": power " + std::to_string(w) + " W is above the " +
               std::to_string(max_w) + " W the INA226 can read (SBOS547)";
    return 1;
  }
  cached_w_ = w;
  cached_overflow_ = overflow;
  have_cached_ = true;
  values[0] = w;
  if (overflow) flag_overflow();
  return 0;
}

size_t Ina226Sensor::read_detail(std::vector<RailReading>* out, std::string* error) noexcept {
  out->assign(1, RailReading{});
  RailReading& r = (*out)[0];
  bool ready = false, overflow = false;
  if (!chip_->status(&ready, &overflow) || !chip_->bus_voltage_v(&r.voltage_v) ||
      !chip_->current_a(&r.current_a) || !chip_->power_w(&r.power_w)) {
    if (error) *error = "ina226: " + rails_[0].rail + ": register read failed";
    return 1;
  }
  if (overflow) flag_overflow();
  return 0;
}

std::string ina226_polling_warning(const Ina226Options& o, double rate_hz) {
  if (!(rate_hz > 0)) return {};
  const double poll_s = 1.0 / rate_hz;
  const double conversion_s = ina226_settings(o).conversion_period_s;
  if (!(poll_s > conversion_s)) return {};
  char buf[512];
  int n = std::snprintf(buf, sizeof(buf),
                        "ina226: warning: polling every %.4g ms (rate_hz %g) is longer than the "
                        "%.4g ms conversion period ((VBUSCT + VSHCT) x AVG = 2 x %d us x %d): "
                        "results are skipped and the power is aliased; ",
                        poll_s * 1e3, rate_hz, conversion_s * 1e3, o.conversion_us, o.averages);
  std::string text(buf, static_cast<size_t>(n));
  // The smallest averages, or conversion_us, that make one result span the
  // polling period with the other setting kept.
  std::string fixes;
  for (int avg : kAverages) {
    if (2.0 * o.conversion_us * 1e-6 * avg >= poll_s) {
      std::snprintf(buf, sizeof(buf), "averages %d (%.4g ms)", avg,
                    2.0 * o.conversion_us * 1e-3 * avg);
      fixes += buf;
      break;
    }
  }
  for (int us : kConversionUs) {
    if (2.0 * us * 1e-6 * o.averages >= poll_s) {
      std::snprintf(buf, sizeof(buf), "%sconversion_us %d (%.4g ms)", fixes.empty() ? "" : " or ",
                    us, 2.0 * us * 1e-3 * o.averages);
      fixes += buf;
      break;
    }
  }
  if (!fixes.empty())
    text += "raise " + fixes + " so that one result spans the polling period, or ";
  std::snprintf(buf, sizeof(buf), "raise rate_hz to at least %.4g", 1.0 / conversion_s);
  return text + buf;
}

std::unique_ptr<Sensor> open_ina226(const std::string& sysfs_root, const Ina226Options& options,
                                    double rate_hz, std::vector<std::string>* log) {
  if (options.address < 0x40 || options.address > 0x4F)
    throw UsageError("ina226 address " + hex_address(options.address) +
                     " is outside the INA226 range 0x40-0x4f");
  const Ina226Settings settings = ina226_settings(options);  // validate before touching the bus
  const std::string where = options.bus + ":" + hex_address(options.address);
  auto chip = std::make_unique<Ina226>(
      open_i2c_bus(sysfs_root, options.bus, options.address, options.force), options, where);
  if (options.max_current_a * options.shunt_ohm > 32768 * ina226::kShuntLsbV)
    log->push_back("ina226: warning: max_current_a x shunt_ohm exceeds the 81.92 mV shunt range");
  char line[160];
  std::snprintf(line, sizeof(line),
                "ina226: found INA226 at %s (CAL=%u, current LSB %.3g A, new result every %.3g s)",
                where.c_str(), settings.calibration, settings.current_lsb_a,
                settings.conversion_period_s);
  log->push_back(line);
  if (std::string warning = ina226_polling_warning(options, rate_hz); !warning.empty())
    log->push_back(warning);
  return std::make_unique<Ina226Sensor>(std::move(chip), "ina226_" + hex_address(options.address),
                                        options.poll_ready);
}

}  // namespace edp::power
