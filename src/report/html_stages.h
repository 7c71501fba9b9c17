// The stages section of the HTML report (DESIGN §9.3): read from stages.csv
// and memory.csv alone, so it works on old or partial directories.
#pragma once

#include <string>

namespace edp::report {

// "" when `dir` has no stages.csv.
std::string render_stages_section(const std::string& dir);

}  // namespace edp::report
