// The deploy study (DESIGN §9.4, docs/deploy.md): battery life at a duty
// cycle. Per (mode, size, device[, point]) one item: a training step of each
// program, or the forward pass alone at each batch size. Its one part (the
// burst, measured back to back with the full protocol) gives the energy of a
// warm burst; a pass after it, on the session, measures the device's idle
// power per state, the latency of single bursts, and the wake cost of the
// first burst after each idle gap; a pass before the item's backend exists
// measures cold starts (the context released between bursts); optional
// open-loop runs check the duty-cycle model (report/deploy_model.h) against
// the sensor. Rows go to deploy.csv (the commit file), runs.csv, rails.csv.
#pragma once

#include <memory>

#include "bench/studies/study.h"

namespace edp::bench {

std::unique_ptr<Study> make_deploy_study();

}  // namespace edp::bench
