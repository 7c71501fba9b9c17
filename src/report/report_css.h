// The stylesheet of the report's pages (inline CSS, no network), shared by
// the one-sweep report (html_report.cpp) and the cross-board report
// (html_boards.cpp).
#pragma once

#include <string>

namespace edp::report {

std::string report_css();

}  // namespace edp::report
