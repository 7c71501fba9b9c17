// CPU cluster names (see cpu_clusters.h).
#include "platform/cpu_clusters.h"

#include <cstdio>

namespace edp::platform {
namespace {

struct ArmCore {
  int implementer, part;
  const char* name;
};

// MIDR_EL1 implementer and part numbers from the Arm TRMs and the Linux
// table in arch/arm64/include/asm/cputype.h (0x4e: NVIDIA's Denver and Carmel).
constexpr ArmCore kArmCores[] = {
    {0x41, 0xd03, "a53"},         {0x41, 0xd04, "a35"},         {0x41, 0xd05, "a55"},
    {0x41, 0xd07, "a57"},         {0x41, 0xd08, "a72"},         {0x41, 0xd09, "a73"},
    {0x41, 0xd0a, "a75"},         {0x41, 0xd0b, "a76"},         {0x41, 0xd0c, "neoverse-n1"},
    {0x41, 0xd0d, "a77"},         {0x41, 0xd41, "a78"},         {0x41, 0xd42, "a78ae"},
    {0x41, 0xd44, "x1"},          {0x41, 0xd46, "a510"},        {0x41, 0xd47, "a710"},
    {0x41, 0xd40, "neoverse-v1"}, {0x41, 0xd49, "neoverse-n2"}, {0x41, 0xd4f, "neoverse-v2"},
    {0x4e, 0x003, "denver"},      {0x4e, 0x004, "carmel"},
};

}  // namespace

const std::vector<std::string>& cpu_cluster_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& c : kArmCores) out.push_back(c.name);
    out.push_back("x86");  // cpu_topology: every core of a non-Arm machine
    return out;
  }();
  return names;
}

std::string arm_core_name(int implementer, int part) {
  for (const auto& c : kArmCores)
    if (c.implementer == implementer && c.part == part) return c.name;
  char buf[40];
  std::snprintf(buf, sizeof buf, "arm-0x%02x-0x%03x", implementer & 0xff, part & 0xfff);
  return buf;
}

}  // namespace edp::platform
