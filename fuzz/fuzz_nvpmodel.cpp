// /etc/nvpmodel.conf: parse_nvpmodel_conf keeps the `< POWER_MODEL ID=n
// NAME=name >` headers and must survive anything else in the file.
#include "fuzz_common.h"
#include "platform/board.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)edp::platform::parse_nvpmodel_conf(edp::fuzz::text(data, size));
  return 0;
}
