// TEMPORARY: replaced by the total-rails work (DESIGN §4.1).
#pragma once
#include <string>
#include <vector>

#include "power/energy_meter.h"

namespace edp::power {
struct TotalRails {
  std::vector<std::string> rails;
  std::string why;
};
TotalRails choose_total_rails(const std::vector<EnergyMeter::Rail>& rails,
                              const std::string& board_model,
                              const std::vector<std::string>& requested);
}  // namespace edp::power
