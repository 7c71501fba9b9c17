// A workload whose step does nothing (0 FLOP, 0 bytes): measured through the
// protocol it gives the protocol's own cost per step (issue 11 item 2), the
// floor under the time per sample of a small batch.
#pragma once

#include <memory>

#include "workloads/workload.h"

namespace edp {

std::unique_ptr<Workload> make_empty_workload(Backend& backend);

}  // namespace edp
