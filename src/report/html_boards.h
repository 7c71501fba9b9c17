// `edpbench report DIR1 DIR2 ...`: the cross-board report. Several sweeps
// (other boards, operating points or releases) on one page: each board's
// context, what differs between them, time, energy and EDP per configuration
// on one log scale per figure, a table of every configuration, and the
// recommendation across boards. One directory gives the one-sweep report.
#pragma once

#include <string>
#include <vector>

#include "report/compare.h"
#include "report/recommend.h"

namespace edp::report {

std::string render_boards_report(const std::vector<LoadedSweep>& sweeps,
                                 const RecommendOptions& options);

}  // namespace edp::report
