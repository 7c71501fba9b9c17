// INA226 driver against a simulated chip behind a fake SMBus. The simulation
// follows TI SBOS547: registers are sent MSB first, which SMBus word transfers
// deliver byte-swapped; current = shunt * CAL / 2048 (eq. 3); power =
// current * bus / 20000 (eq. 4); CVRF is set after a conversion and cleared by
// reading mask/enable; OVF is set by a conversion whose current or power does
// not fit its register (the register then holds the truncated value) and
// cleared by the next conversion that fits.
#include <catch2/catch.hpp>

#include <stdlib.h>  // mkdtemp

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "common/errors.h"
#include "power/ina226.h"

using namespace edp::power;

namespace {

class SimulatedIna226 {
 public:
  explicit SimulatedIna226(double shunt_ohm) : shunt_ohm_(shunt_ohm) { reset(); }

  uint16_t manufacturer = 0x5449, die = 0x2260;

  void set_load(double amps, double volts) {
    amps_ = amps;
    volts_ = volts;
  }
  // Lets simulated time pass; each finished conversion updates the results.
  void advance(double seconds) {
    now_s_ += seconds;
    while (now_s_ - last_conversion_s_ >= conversion_period_s()) {
      last_conversion_s_ += conversion_period_s();
      convert();
    }
  }
  uint16_t read(uint8_t reg) {
    ++reads[reg];
    if (reg == ina226::kManufacturerId) return manufacturer;
    if (reg == ina226::kDieId) return die;
    if (reg == ina226::kMaskEnable) {
      const uint16_t v = static_cast<uint16_t>(regs_[reg] | (cvrf_ ? ina226::kCvrf : 0) |
                                               (ovf_ ? ina226::kOvf : 0));
      cvrf_ = false;
      return v;
    }
    return regs_[reg];
  }
  void write(uint8_t reg, uint16_t value) {
    if (reg == ina226::kConfig && (value & 0x8000)) return reset();
    if (reg == ina226::kCalibration) value &= 0x7FFF;
    regs_[reg] = value;
  }
  uint16_t reg(uint8_t r) const { return regs_.count(r) ? regs_.at(r) : 0; }
  std::map<uint8_t, int> reads;

 private:
  void reset() {
    regs_.clear();
    regs_[ina226::kConfig] = 0x4127;
    cvrf_ = false;
    ovf_ = false;
  }
  double conversion_period_s() const {
    static const int avg[] = {1, 4, 16, 64, 128, 256, 512, 1024};
    static const int ct[] = {140, 204, 332, 588, 1100, 2116, 4156, 8244};
    const uint16_t c = regs_.at(ina226::kConfig);
    return avg[(c >> 9) & 7] * (ct[(c >> 6) & 7] + ct[(c >> 3) & 7]) * 1e-6;
  }
  void convert() {
    const long shunt = std::lround(amps_ * shunt_ohm_ / 2.5e-6);
    const long bus = std::lround(volts_ / 1.25e-3);
    regs_[ina226::kShunt] = static_cast<uint16_t>(static_cast<int16_t>(shunt));
    regs_[ina226::kBus] = static_cast<uint16_t>(bus);
    const long cal = regs_[ina226::kCalibration];
    const long current = shunt * cal / 2048;  // C++ truncates toward zero, like the chip
    const long power = std::labs(current) * bus / 20000;
    ovf_ = current > 32767 || current < -32768 || power > 0xFFFF;
    regs_[ina226::kCurrent] = static_cast<uint16_t>(current);
    regs_[ina226::kPower] =
        static_cast<uint16_t>(std::labs(static_cast<int16_t>(current)) * bus / 20000);
    cvrf_ = true;
  }

  double shunt_ohm_;
  double amps_ = 0, volts_ = 0, now_s_ = 0, last_conversion_s_ = 0;
  bool cvrf_ = false, ovf_ = false;
  std::map<uint8_t, uint16_t> regs_;
};

// SMBus word transfers put the first byte on the wire (the chip's MSB) into
// bits 7:0, so the driver sees every register byte-swapped.
class FakeSmbus final : public I2cBus {
 public:
  explicit FakeSmbus(SimulatedIna226* chip) : chip_(chip) {}
  bool fail = false;
  int read_word(uint8_t reg) override {
    if (fail) return -EIO;
    return swap_bytes(chip_->read(reg));
  }
  int write_word(uint8_t reg, uint16_t value) override {
    if (fail) return -EIO;
    chip_->write(reg, swap_bytes(value));
    return 0;
  }

 private:
  SimulatedIna226* chip_;
};

std::unique_ptr<Ina226> make_chip(SimulatedIna226* sim, Ina226Options o = {}) {
  return std::make_unique<Ina226>(std::make_unique<FakeSmbus>(sim), o, "/dev/i2c-1:0x40");
}

}  // namespace

TEST_CASE("ina226 settings follow the datasheet formulas", "[ina226]") {
  Ina226Options o;  // 10 mOhm, 3.2 A, 4 averages, 1.1 ms
  const Ina226Settings s = ina226_settings(o);
  // current_LSB = 3.2 / 2^15 = 97.65625 uA; CAL = floor(0.00512 / (97.65625e-6 * 0.01)) = 5242
  CHECK(s.calibration == 5242);
  // AVG=4 -> 001, VBUSCT=VSHCT=1.1 ms -> 100, MODE=111, bit 14 set: 0x4327
  CHECK(s.config == 0x4327);
  CHECK(s.current_lsb_a == Approx(0.00512 / (5242 * 0.01)));
  CHECK(s.power_lsb_w == Approx(25 * 0.00512 / (5242 * 0.01)));
  CHECK(s.conversion_period_s == Approx(8.8e-3));
}

TEST_CASE("ina226 rejects averaging and conversion times the chip lacks", "[ina226]") {
  Ina226Options o;
  o.averages = 8;
  CHECK_THROWS_WITH(ina226_settings(o),
                    Catch::Contains("averages 8") && Catch::Contains("1, 4, 16"));
  o = {};
  o.conversion_us = 1000;
  CHECK_THROWS_WITH(ina226_settings(o),
                    Catch::Contains("conversion_us 1000") && Catch::Contains("140, 204"));
  o = {};
  o.shunt_ohm = 0;
  CHECK_THROWS_AS(ina226_settings(o), edp::UsageError);
}

TEST_CASE("ina226 writes configuration and calibration in wire byte order", "[ina226]") {
  SimulatedIna226 sim(0.01);
  auto chip = make_chip(&sim);
  CHECK(sim.reg(ina226::kConfig) == 0x4327);
  CHECK(sim.reg(ina226::kCalibration) == 5242);
}

TEST_CASE("ina226 converts registers to exact SI values", "[ina226]") {
  SimulatedIna226 sim(0.01);
  auto chip = make_chip(&sim);
  sim.set_load(1.5, 5.0);
  sim.advance(0.01);
  double v, i, p, vs;
  REQUIRE(chip->bus_voltage_v(&v));
  REQUIRE(chip->current_a(&i));
  REQUIRE(chip->power_w(&p));
  REQUIRE(chip->shunt_voltage_v(&vs));
  // bus 5.0 / 1.25 mV = 4000
  CHECK(v == Approx(5.0).epsilon(1e-12));
  // shunt 1.5 A * 10 mOhm / 2.5 uV = 6000 -> 15 mV
  CHECK(vs == Approx(0.015).epsilon(1e-12));
  // current register 6000 * 5242 / 2048 = 15357 -> 15357 * 0.00512 / 52.42 A
  CHECK(i == Approx(1.4999587943533).epsilon(1e-12));
  // power register 15357 * 4000 / 20000 = 3071 -> 3071 * 25 * 0.00512 / 52.42 W
  CHECK(p == Approx(7.498817245326212).epsilon(1e-12));
}

TEST_CASE("ina226 current is signed", "[ina226]") {
  SimulatedIna226 sim(0.01);
  auto chip = make_chip(&sim);
  sim.set_load(-0.75, 12.0);
  sim.advance(0.01);
  double i;
  REQUIRE(chip->current_a(&i));
  // shunt -3000, current register -3000 * 5242 / 2048 = -7678
  CHECK(i == Approx(-7678 * 0.00512 / 52.42).epsilon(1e-12));
}

TEST_CASE("ina226 refuses a device with the wrong manufacturer id", "[ina226]") {
  SimulatedIna226 sim(0.01);
  sim.manufacturer = 0x0000;
  CHECK_THROWS_WITH(make_chip(&sim),
                    "no INA226 at /dev/i2c-1:0x40 (manufacturer id 0x0000, expected 0x5449); "
                    "check the address with i2cdetect -y 1");
  CHECK(sim.reg(ina226::kCalibration) == 0);  // nothing written to a foreign device
}

TEST_CASE("ina226 refuses a TI device with the wrong die id", "[ina226]") {
  SimulatedIna226 sim(0.01);
  sim.die = 0x3220;  // INA3221-like
  CHECK_THROWS_AS(make_chip(&sim), edp::UsageError);
  CHECK_THROWS_WITH(make_chip(&sim), Catch::Contains("die id 0x3220, expected 0x2260"));
}

TEST_CASE("ina226 reports a bus that does not answer", "[ina226]") {
  SimulatedIna226 sim(0.01);
  auto bus = std::make_unique<FakeSmbus>(&sim);
  bus->fail = true;
  CHECK_THROWS_WITH(Ina226(std::move(bus), Ina226Options{}, "/dev/i2c-1:0x40"),
                    Catch::Contains("reading the manufacturer id failed"));
}

TEST_CASE("ina226 sensor with poll_ready reads power only after CVRF", "[ina226]") {
  SimulatedIna226 sim(0.01);
  Ina226Sensor sensor(make_chip(&sim), "ina226_0x40", /*poll_ready=*/true);
  sim.set_load(1.5, 5.0);
  sim.advance(0.0089);  // one 8.8 ms conversion
  double w = 0;
  std::string error;
  REQUIRE(sensor.read(&w, &error) == 0);  // CVRF set: power read; the status read cleared it
  CHECK(w == Approx(7.498817245326212));
  const int power_reads = sim.reads[ina226::kPower];
  CHECK(power_reads == 1);
  sim.set_load(1.0, 5.0);                 // no conversion yet
  REQUIRE(sensor.read(&w, &error) == 0);  // CVRF clear: cached value, no power read
  CHECK(w == Approx(7.498817245326212));
  CHECK(sim.reads[ina226::kPower] == power_reads);
  sim.advance(0.0088);
  REQUIRE(sensor.read(&w, &error) == 0);
  CHECK(sim.reads[ina226::kPower] == power_reads + 1);
  // 1.0 A: shunt 4000, current 4000*5242/2048 = 10238, power 10238*4000/20000 = 2047
  CHECK(w == Approx(2047 * 25 * 0.00512 / 52.42).epsilon(1e-12));
}

TEST_CASE("ina226 sensor counts a failed read instead of throwing", "[ina226]") {
  SimulatedIna226 sim(0.01);
  auto bus = std::make_unique<FakeSmbus>(&sim);
  FakeSmbus* raw = bus.get();
  Ina226Sensor sensor(std::make_unique<Ina226>(std::move(bus), Ina226Options{}, "x"), "ina226_0x40",
                      false);
  raw->fail = true;
  double w = 0;
  std::string error;
  CHECK(sensor.read(&w, &error) == 1);
  CHECK(std::isnan(w));
  CHECK_THAT(error, Catch::Contains("ina226_0x40"));
}

TEST_CASE("ina226 on a missing bus names the bus", "[ina226]") {
  std::vector<std::string> log;
  Ina226Options o;
  o.bus = "/dev/i2c-7";
  CHECK_THROWS_WITH(open_ina226(EDPBENCH_FIXTURES "/power/tx2-jp4", o, 100, &log),
                    Catch::Contains("I2C bus /dev/i2c-7 not found"));
  o.address = 0x20;
  CHECK_THROWS_WITH(open_ina226(EDPBENCH_FIXTURES "/power/tx2-jp4", o, 100, &log),
                    Catch::Contains("0x20"));
}

TEST_CASE("ina226 on a node that is not an I2C adapter is refused", "[ina226]") {
  char tmpl[] = "/tmp/edp_i2c_test_XXXXXX";
  const std::string root = mkdtemp(tmpl);
  REQUIRE(std::system(("mkdir -p '" + root + "/dev' && : > '" + root + "/dev/i2c-1'").c_str()) ==
          0);
  std::vector<std::string> log;
  CHECK_THROWS_WITH(open_ina226(root, Ina226Options{}, 100, &log),
                    Catch::Contains("cannot select address 0x40 on /dev/i2c-1"));
  std::system(("rm -rf '" + root + "'").c_str());
}

TEST_CASE("ina226 flags a sample whose conversion overflowed (OVF)", "[ina226]") {
  for (const bool poll_ready : {false, true}) {
    SimulatedIna226 sim(0.01);
    Ina226Sensor sensor(make_chip(&sim), "ina226_0x40", poll_ready);
    sim.set_load(1.5, 5.0);
    sim.advance(0.0089);
    double w = 0;
    std::string error;
    REQUIRE(sensor.read(&w, &error) == 0);
    CHECK(sensor.anomalies() == 0);
    // 4 A through 10 mOhm with max_current_a 3.2 A: the current register
    // overflows and the power register is wrong.
    sim.set_load(4.0, 5.0);
    sim.advance(0.0088);
    REQUIRE(sensor.read(&w, &error) == 0);
    CHECK_FALSE(std::isnan(w));  // still returned
    CHECK(w < 4.0 * 5.0 * 0.9);  // and wrong, which is why it is flagged
    CHECK(sensor.anomalies() == 1);
    CHECK_THAT(sensor.last_anomaly(), Catch::Contains("ina226_0x40") && Catch::Contains("OVF") &&
                                          Catch::Contains("max_current_a 3.2 A") &&
                                          Catch::Contains("0.01 ohm shunt"));
    REQUIRE(sensor.read(&w, &error) == 0);  // the same (cached or re-read) result: flagged again
    CHECK(sensor.anomalies() == 2);
    sim.set_load(1.5, 5.0);
    sim.advance(0.0088);
    REQUIRE(sensor.read(&w, &error) == 0);
    CHECK(w == Approx(7.498817245326212));
    CHECK(sensor.anomalies() == 2);
  }
}

TEST_CASE("ina226 reads mask/enable once per sample", "[ina226]") {
  SimulatedIna226 sim(0.01);
  Ina226Sensor sensor(make_chip(&sim), "ina226_0x40", /*poll_ready=*/false);
  sim.set_load(1.5, 5.0);
  sim.advance(0.0089);
  double w = 0;
  std::string error;
  for (int i = 0; i < 3; ++i) REQUIRE(sensor.read(&w, &error) == 0);
  CHECK(sim.reads[ina226::kMaskEnable] == 3);
  CHECK(sim.reads[ina226::kPower] == 3);
}

TEST_CASE("ina226 declares an averaging rail over the conversion period", "[ina226]") {
  SimulatedIna226 sim(0.01);
  Ina226Options o;
  o.averages = 16;
  Ina226Sensor sensor(make_chip(&sim, o), "ina226_0x40", false);
  REQUIRE(sensor.rails().size() == 1);
  CHECK(sensor.rails()[0].timing == Timing::averaging);
  CHECK(sensor.rails()[0].averaging_s == Approx(2 * 1100e-6 * 16));  // 35.2 ms
}

TEST_CASE("ina226 warns when polling skips results (aliasing)", "[ina226]") {
  Ina226Options o;                                       // 4 x (1.1 + 1.1) ms = 8.8 ms
  const std::string w = ina226_polling_warning(o, 100);  // every 10 ms
  CHECK_THAT(w, Catch::Contains("polling every 10 ms (rate_hz 100)") &&
                    Catch::Contains("8.8 ms conversion period") && Catch::Contains("aliased") &&
                    Catch::Contains("averages 16 (35.2 ms)") &&
                    Catch::Contains("conversion_us 2116 (16.93 ms)") &&
                    Catch::Contains("rate_hz to at least 113.6"));
  CHECK(ina226_polling_warning(o, 200).empty());  // every 5 ms: every result is read
  o.averages = 16;
  CHECK(ina226_polling_warning(o, 100).empty());
  o.averages = 1;
  o.conversion_us = 140;
  // No setting makes one result span 1 s: only the rate is suggested.
  CHECK_THAT(ina226_polling_warning(o, 1),
             Catch::Contains("polling every 1000 ms") &&
                 Catch::Contains("aliased; raise rate_hz to at least 3571"));
}
