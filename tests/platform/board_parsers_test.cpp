// The parsers behind probe(), fed the text real boards produce.
#include <catch2/catch.hpp>

#include "platform/board.h"
#include "platform/cpu_topology.h"
#include "platform/gpu_devfreq.h"
#include "platform/thermal.h"

using namespace edp::platform;

TEST_CASE("nv_tegra_release: the release line becomes R<major>.<revision>") {
  CHECK(parse_l4t_release("# R32 (release), REVISION: 7.1, GCID: 29818004, BOARD: t186ref, "
                          "EABI: aarch64, DATE: Sat Feb 19 17:07:00 UTC 2022\n") == "R32.7.1");
  CHECK(parse_l4t_release("# R28 (release), REVISION: 2.1, GCID: 11272647, BOARD: t186ref, "
                          "EABI: aarch64, DATE: Thu May 17 07:29:06 UTC 2018") == "R28.2.1");
  CHECK(parse_l4t_release("# R35 (release), REVISION: 4.1, GCID: 33958178, BOARD: t186ref, "
                          "EABI: aarch64, DATE: Tue Aug  1 19:57:35 UTC 2023") == "R35.4.1");
  CHECK(parse_l4t_release("Ubuntu 18.04").empty());
}

TEST_CASE("nvpmodel: status gives the mode id and the conf's POWER_MODEL lines its name") {
  CHECK(parse_nvpmodel_status("pmode:0000\n") == 0);
  CHECK(parse_nvpmodel_status("pmode:0003") == 3);
  CHECK(parse_nvpmodel_status("garbage") == -1);
  const auto modes = parse_nvpmodel_conf(
      "< PARAM TYPE=FILE NAME=CPU_ONLINE >\nCORE_0 /sys/devices/system/cpu/cpu0/online\n"
      "< POWER_MODEL ID=0 NAME=MAXN >\nCPU_ONLINE CORE_0 1\n"
      "< POWER_MODEL ID=1 NAME=MAXQ >\n<POWER_MODEL ID=4 NAME=MAXP_CORE_DENVER>\n"
      "< PM_CONFIG DEFAULT=3 >\n");
  CHECK(modes == std::map<int, std::string>{{0, "MAXN"}, {1, "MAXQ"}, {4, "MAXP_CORE_DENVER"}});
}

TEST_CASE("device tree: the Tegra SoC is read from the NUL-separated compatible list") {
  CHECK(parse_tegra_soc(std::string("nvidia,quill\0nvidia,tegra186\0", 30)) == "tegra186");
  CHECK(parse_tegra_soc(std::string("nvidia,p3509-0000+p3668-0000\0nvidia,tegra194\0", 46)) ==
        "tegra194");
  CHECK(parse_tegra_soc(std::string("raspberrypi,4-model-b\0brcm,bcm2711\0", 35)).empty());
}

TEST_CASE("cpuinfo: ARM cores are named from implementer and part, x86 from model name") {
  const auto arm = parse_cpuinfo(
      "processor\t: 0\nmodel name\t: ARMv8 Processor rev 3 (v8l)\nCPU implementer\t: 0x41\n"
      "CPU architecture: 8\nCPU variant\t: 0x1\nCPU part\t: 0xd07\nCPU revision\t: 3\n\n"
      "processor\t: 1\nCPU implementer\t: 0x4e\nCPU part\t: 0x003\n");
  REQUIRE(arm.size() == 2);
  CHECK(arm[0].id == 0);
  CHECK(arm[0].implementer == 0x41);
  CHECK(arm[0].part == 0xd07);
  CHECK(arm[1].implementer == 0x4e);
  CHECK(arm_core_name(0x41, 0xd07) == "a57");
  CHECK(arm_core_name(0x4e, 0x003) == "denver");
  CHECK(arm_core_name(0x4e, 0x004) == "carmel");
  CHECK(arm_core_name(0x41, 0xd42) == "a78ae");
  CHECK(arm_core_name(0x51, 0x801) == "arm-0x51-0x801");
  const auto x86 = parse_cpuinfo(
      "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
      "model name\t: AMD Ryzen 7 5800X 8-Core Processor\n");
  REQUIRE(x86.size() == 1);
  CHECK(x86[0].implementer == -1);
  CHECK(x86[0].model_name == "AMD Ryzen 7 5800X 8-Core Processor");
}

TEST_CASE("devfreq: Tegra GPU names are recognised, other devfreq devices are not") {
  CHECK(is_gpu_devfreq_name("17000000.gp10b"));
  CHECK(is_gpu_devfreq_name("17000000.gv11b"));
  CHECK(is_gpu_devfreq_name("17000000.ga10b"));
  CHECK(is_gpu_devfreq_name("57000000.gpu"));
  CHECK_FALSE(is_gpu_devfreq_name("ff9a0000.dmc"));
  CHECK_FALSE(is_gpu_devfreq_name("15340000.vic"));
}

TEST_CASE("thermal: millidegrees become degrees and the Tegra 'off' value is unknown") {
  CHECK(millideg_to_c(41500L) == Approx(41.5));
  CHECK(millideg_to_c(-5000L) == Approx(-5.0));
  CHECK(std::isnan(millideg_to_c(-256000L)));
  CHECK(std::isnan(millideg_to_c(std::nullopt)));
  CHECK_FALSE(counts_for_max_temp("PMIC-Die"));
  CHECK(counts_for_max_temp("GPU-therm"));
}
