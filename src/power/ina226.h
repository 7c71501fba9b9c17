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
  bool bus_voltage_v(double* out);
  bool shunt_voltage_v(double* out);
  bool current_a(double* out);
  bool power_w(double* out);
  // Reads mask/enable, which also clears CVRF (SBOS547 §7.6.7).
  bool conversion_ready(bool* ready);

 private:
  bool read_register(uint8_t reg, uint16_t* value);
  std::unique_ptr<I2cBus> bus_;
  Ina226Settings settings_;
  std::string where_;
};

// One-rail sensor ("ina226_0x40") on a configured chip. With poll_ready the
// power register is read only when CVRF reports a new conversion; otherwise
// the previous value is returned, which costs one bus transaction instead of
// two.
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

 private:
  std::unique_ptr<Ina226> chip_;
  std::vector<RailInfo> rails_;
  bool poll_ready_;
  bool have_cached_ = false;
  double cached_w_ = 0;
};

// Opens the configured device (sysfs_root prefixes the /dev path).
std::unique_ptr<Sensor> open_ina226(const std::string& sysfs_root, const Ina226Options& options,
                                    std::vector<std::string>* log);

// "0x40" for messages and rail names.
std::string hex_address(int address);

}  // namespace edp::power
