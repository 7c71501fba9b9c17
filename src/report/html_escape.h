// Text from a file or a user, as HTML: the one escape of the report's pages
// and charts.
#pragma once

#include <string>

namespace edp::report {

// "&", "<", ">", '"' and "'" as entities; a bidirectional control character
// as the text \uNNNN.
std::string html_escape(const std::string& text);

}  // namespace edp::report
