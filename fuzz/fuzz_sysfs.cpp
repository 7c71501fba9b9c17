// The text edpbench reads from sysfs, procfs and /etc on a board: integers
// (sensor and clock files, read through pread), CPU lists, /proc/cpuinfo,
// nv_tegra_release, the nvpmodel status and the device-tree compatible list.
// Every parser gets every input; none may crash, whatever the kernel wrote.
#include <sys/mman.h>
#include <unistd.h>

#include <stdexcept>

#include "fuzz_common.h"
#include "platform/board.h"
#include "platform/cpu_list.h"
#include "platform/cpu_topology.h"
#include "platform/sysfs.h"
#include "power/sysfs.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace edp::platform;
  const std::string s = edp::fuzz::text(data, size);
  (void)trim(s);
  (void)parse_long(s);
  try {
    (void)parse_cpu_list(s);
  } catch (const std::invalid_argument&) {  // its contract; callers catch it
  }
  (void)parse_cpuinfo(s);
  (void)parse_l4t_release(s);
  (void)parse_nvpmodel_status(s);
  (void)parse_tegra_soc(s);
  (void)edp::power::trailing_number(s);
  // The sampler's path: one pread of a small file, parsed as an integer (the
  // platform's Fd::read_long preads the same way into parse_long, above).
  static const int fd = memfd_create("fuzz-sysfs", MFD_CLOEXEC);
  if (fd >= 0 && ftruncate(fd, 0) == 0 && pwrite(fd, data, size, 0) == ssize_t(size)) {
    long long v = 0;
    std::string error;
    (void)edp::power::pread_integer(fd, &v, &error);
  }
  return 0;
}
