// The stages study's section (DESIGN §9.3). Placeholder until the stages
// study lands: a directory without stages.csv has no such section.
#include "report/html_sections.h"

namespace edp::report {

std::string render_stages_section(const std::string& dir) {
  (void)dir;
  return "";
}

}  // namespace edp::report
