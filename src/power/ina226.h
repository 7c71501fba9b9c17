// TI INA226 current/power monitor read directly over I2C (i2c-dev), for
// boards where no kernel driver owns it. Register map and constants: TI
// datasheet SBOS547 ("INA226 High-Side or Low-Side Measurement, Bi-Directional
// Current and Power Monitor with I2C Compatible Interface").
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "power/options.h"
#include "power/sensor.h"

namespace edp::power {

// The bus as SMBus sees it. read_word returns the 16-bit "word data" with the
// first byte on the wire in bits 7:0 (0..0xFFFF), or -errno. write_word sends
// bits 7:0 first. Implemented over /dev/i2c-N below, and by a simulated chip in
// the tests.
class I2cBus {
 public:
  virtual ~I2cBus() = default;
  virtual int read_word(uint8_t reg) = 0;
  virtual int write_word(uint8_t reg, uint16_t value) = 0;
};

// Opens sysfs_root + device and selects `address` with I2C_SLAVE
// (I2C_SLAVE_FORCE only when force). Throws edp::UsageError with what to do
// when the bus is missing, not accessible, or the address is claimed by a
// kernel driver.
std::unique_ptr<I2cBus> open_i2c_bus(const std::string& sysfs_root, const std::string& device,
                                     int address, bool force);

namespace ina226 {
// Registers (SBOS547 §7.6, table 2).
constexpr uint8_t kConfig = 0x00, kShunt = 0x01, kBus = 0x02, kPower = 0x03, kCurrent = 0x04,
                  kCalibration = 0x05, kMaskEnable = 0x06, kManufacturerId = 0xFE, kDieId = 0xFF;
constexpr uint16_t kManufacturer = 0x5449;  // "TI"
constexpr uint16_t kDie = 0x2260;
constexpr uint16_t kCvrf = 1u << 3;            // mask/enable: conversion ready flag
constexpr uint16_t kOvf = 1u << 2;             // mask/enable: math overflow flag
constexpr double kBusLsbV = 1.25e-3;           // bus voltage register LSB
constexpr double kShuntLsbV = 2.5e-6;          // shunt voltage register LSB
constexpr double kCalibrationScale = 0.00512;  // CAL = 0.00512 / (current_LSB * R_shunt), eq. 1
constexpr double kPowerLsbPerCurrentLsb = 25;  // power LSB = 25 * current_LSB
}  // namespace ina226

// The chip transmits MSB first while SMBus words are LSB first.
inline uint16_t swap_bytes(uint16_t v) { return static_cast<uint16_t>((v >> 8) | (v << 8)); }

struct Ina226Settings {
  uint16_t config = 0;       // register 00 value
  uint16_t calibration = 0;  // register 05 value
  double current_lsb_a = 0;  // as the chip applies it after CAL was truncated
  double power_lsb_w = 0;
  double conversion_period_s = 0;  // (VBUSCT + VSHCT) * AVG: one new result
};

// Register values for the options; throws edp::UsageError for averages or
// conversion times the chip does not have, or a shunt/current that give no
// valid calibration.
Ina226Settings ina226_settings(const Ina226Options& options);

// Configured INA226. Read functions return false on a bus error (never throw).
class Ina226 {
 public:
  // `where` names the device in messages, e.g. "/dev/i2c-1:0x40". Checks the
  // IDs and writes configuration and calibration; throws edp::UsageError when
  // the device is not an INA226, std::runtime_error on a write failure.
  Ina226(std::unique_ptr<I2cBus> bus, const Ina226Options& options, std::string where);

  const Ina226Settings& settings() const { return settings_; }
  const Ina226Options& options() const { return options_; }
  bool bus_voltage_v(double* out);
  bool shunt_voltage_v(double* out);
  bool current_a(double* out);
  bool power_w(double* out);
  // One read of mask/enable (06h): CVRF (bit 3, a conversion finished since
  // the register was last read) and OVF (bit 2, the current or power
  // calculation of the latest conversion overflowed, so both are invalid;
  // SBOS547 §7.6.7). Reading the register clears CVRF.
  bool status(bool* ready, bool* overflow);

 private:
  bool read_register(uint8_t reg, uint16_t* value);
  std::unique_ptr<I2cBus> bus_;
  Ina226Options options_;
  Ina226Settings settings_;
  std::string where_;
};

// One-rail sensor ("ina226_0x40") on a configured chip, Timing::averaging
// over the conversion period (VBUSCT + VSHCT) x AVG. Every read first reads
// mask/enable once, which gives both CVRF and OVF. With poll_ready the power
// register is read only when CVRF reports a new conversion, else the previous
// value is returned (one bus transaction instead of two); without it, the
// power register is read every time (CVRF, cleared by the status read, is
// then simply ignored). A value whose conversion had OVF set is still
// returned, and counted as an anomaly: the current exceeded max_current_a.
class Ina226Sensor final : public Sensor {
 public:
  Ina226Sensor(std::unique_ptr<Ina226> chip, std::string rail, bool poll_ready);
  std::string name() const override { return "ina226"; }
  const std::vector<RailInfo>& rails() const override { return rails_; }
  size_t read(double* values, std::string* error) noexcept override;
  size_t read_detail(std::vector<RailReading>* out, std::string* error) noexcept override;
  double reported_update_interval_s() const override {
    return chip_->settings().conversion_period_s;
  }
  size_t anomalies() const noexcept override { return anomalies_; }
  std::string last_anomaly() const override { return last_anomaly_; }

 private:
  void flag_overflow() noexcept;
  std::unique_ptr<Ina226> chip_;
  std::vector<RailInfo> rails_;
  bool poll_ready_;
  bool have_cached_ = false;
  double cached_w_ = 0;
  bool cached_overflow_ = false;
  size_t anomalies_ = 0;
  std::string last_anomaly_;
};

// The discovery-log warning for polling at rate_hz a chip that publishes a
// new result every conversion period: empty when every result is read at
// least once, else the two periods and what to change (results are skipped,
// so the power is aliased).
std::string ina226_polling_warning(const Ina226Options& options, double rate_hz);

// Opens the configured device (sysfs_root prefixes the /dev path); rate_hz is
// the sampler's polling rate, for the aliasing warning.
std::unique_ptr<Sensor> open_ina226(const std::string& sysfs_root, const Ina226Options& options,
                                    double rate_hz, std::vector<std::string>* log);

// "0x40" for messages and rail names.
std::string hex_address(int address);

}  // namespace edp::power
