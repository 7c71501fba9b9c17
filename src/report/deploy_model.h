// The duty-cycle model of the deploy study (DESIGN §9.4, docs/deploy.md): a
// deployment runs a burst of work every so often (a request, a training
// step) and idles in between. From what the study measured on one device
// (idle power per state, the wake cost of the first burst after a gap, the
// energy and latency of a warm burst) it predicts the average power at a
// request rate, the hours on a battery, and which device, operating point,
// batch size and context policy serve that rate for the least energy within
// a latency objective; and the rate at which that choice changes.
//
// Pure functions: measured values in, predictions out. Every equation is in
// docs/deploy.md, and the tests check them against hand-computed answers.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace edp::report {

// A measured mean and the half-width of its 95% CI (0 when unknown).
struct Estimate {
  double value = NAN;
  double ci95 = 0;
};

// The extra cost of the first burst after `idle_s` seconds idle, over a
// warm (back-to-back) burst: what waking the device costs.
struct WakeCost {
  double idle_s = 0;
  Estimate energy_j;
  Estimate time_s;
};

// How a device idles between bursts: at awake_w right after a burst, at
// gated_w once it has been idle for gate_delay_s (the GPU's rail-gating
// delay; infinite where the device has none).
struct IdleProfile {
  Estimate awake_w;
  Estimate gated_w;
  double gate_delay_s = INFINITY;
};

// One way to serve a task: a device at an operating point, a batch size, and
// whether the device's context is kept between bursts ("keep": it idles in
// its own states and pays their wake costs) or released ("release": it idles
// in the host's states and every burst pays a cold start, one that follows
// no gap included).
struct Candidate {
  std::string task;  // what is served: "infer/small", "train:tensors/small"
  std::string device, point;
  std::string policy = "keep";  // keep | release
  int batch = 1;                // requests served by one burst
  IdleProfile idle;
  Estimate burst_j;  // total energy of a warm burst (the total rails)
  Estimate burst_s;  // mean latency of a warm burst
  double burst_p99_s = NAN;
  std::vector<WakeCost> wake;  // any order

  // "cpu, batch 4, keep" (with "@point" when there is one).
  std::string label() const;
};

enum class Arrivals { poisson, periodic };

// Requests per second, arriving as a Poisson process or one every 1/rate_hz.
struct Load {
  double rate_hz = 0;
  Arrivals arrivals = Arrivals::poisson;
};

struct Prediction {
  bool feasible = false;  // stable, known, and within the latency objective
  std::string why;        // why not feasible ("" when it is)
  double power_w = NAN, power_ci95_w = NAN;
  // power_w = idle_w + wake_w + burst_w: the idle states weighted by their
  // share of time, the wake costs at this rate, and warm-burst energy x rate.
  double idle_w = NAN, wake_w = NAN, burst_w = NAN;
  double utilisation = NAN;    // the share of time the device is busy
  double gated_share = NAN;    // of the idle gaps, the share long enough to gate
  double latency_p99_s = NAN;  // a request's, approximated (docs/deploy.md)
};

// Idle energy from `from_s` to `to_s` seconds into a gap (seconds since the
// last work ended): awake_w up to the gating delay, gated_w past it.
double idle_energy_j(const IdleProfile& idle, double from_s, double to_s);

// A window around a first burst, as the deploy study takes one: it opens
// lead_s after the last work ended (the device idle since), idles idle_s
// more, runs the first burst, and idles after_s (awake) before it closes.
struct FirstBurstWindow {
  double energy_j = NAN, lead_s = 0, idle_s = 0, after_s = 0;
};
// The first burst's energy: the window's less the idle the device would
// have had anyway in the states `idle` says it passes through,
//   E_first = E_window - I(lead, lead + idle) - awake_w x after,
// where I is idle_energy_j. With the context kept `idle` is the context
// state's profile; released, the host state's (docs/deploy.md, "Cold
// starts"). Less a warm burst's energy it is the wake (or cold) cost.
double first_burst_j(const IdleProfile& idle, const FirstBurstWindow& w);

// The wake cost as a step function of the gap: `from_s` to `to_s` costs
// energy_j and time_s. Measured points on the same side of the gating
// delay as the gap are used (a gap past the delay finds the device gated);
// within one side, each point holds until the next. A gap shorter than the
// first point of its side costs that point's (conservative); a side without
// points is unknown (NaN) past the delay and warm (0) before it, unless
// every burst wakes (the release policy's cold starts): unknown there too.
struct WakeStep {
  double from_s = 0, to_s = INFINITY;
  Estimate energy_j, time_s;
};
std::vector<WakeStep> wake_steps(const std::vector<WakeCost>& wake, double gate_delay_s,
                                 bool every_burst_wakes = false);

// The idle gaps between bursts: with probability p_zero none (a request was
// already waiting), else an Erlang(k, rate) gap with probability weight.
// Exponential = Erlang(1).
struct GapDistribution {
  double rate_hz = 0;
  double p_zero = 0;
  std::vector<std::pair<int, double>> erlang;  // (k, probability)

  // P(gap > x), for x >= 0 (the atom at 0 not included).
  double survival(double x) const;
  // E[min(gap, x)], over every gap (the atom at 0 included).
  double mean_min(double x) const;
  double mean() const;
};
// The gaps of a batch-b server of Poisson requests at rate_hz whose bursts
// take burst_s: after a burst, q ~ Poisson(rate x burst_s) requests wait;
// q >= b starts the next burst at once, else it waits for b - q more.
GapDistribution batch_gaps(double rate_hz, int batch, double burst_s);

// Erlang(k, rate): P(X > x), and the q-quantile (k = 0: 0).
double erlang_survival(int k, double rate_hz, double x);
double erlang_quantile(int k, double rate_hz, double q);

// The average power of `c` at `load`, and whether it meets `latency_s`
// (none: no objective). Poisson arrivals with batch 1 follow the M/G/1 queue
// with an exceptional first service (exact for its assumptions); batches
// wait for their requests (batch_gaps); periodic arrivals have one gap.
Prediction predict(const Candidate& c, const Load& load,
                   std::optional<double> latency_s = std::nullopt);

// An open-loop run as it happened: the idle gap before each burst, in
// order (0 for a burst that started at once on a request already waiting),
// how long the device had been idle when the span began (lead_s: the first
// gap's part before the span), the idle after the last burst (after_s) and
// the span's length, over which the power is averaged.
struct RealisedRun {
  std::vector<double> gaps_s;
  double lead_s = 0, after_s = 0, span_s = 0;
};

// The model's accounting evaluated at the gaps that occurred rather than
// their expectation: each gap idles at awake_w up to the gating delay and at
// gated_w past it, each gap over 0 pays the wake cost of its step
// (wake_steps; the whole gap, lead included, picks the step), each burst a
// warm burst's energy; the power is their sum over span_s. Only the part of
// the first gap inside the span is booked. A Poisson run's measured power
// scatters around predict()'s expectation by how its gaps fell; this
// prediction does not (docs/deploy.md, "Validation").
struct RealisedPrediction {
  bool known = false;
  std::string why;  // what is missing ("" when known)
  double power_w = NAN, power_ci95_w = NAN;
  double idle_j = NAN, wake_j = NAN, burst_j = NAN;  // their sum over span_s is power_w
  size_t bursts = 0, gated_gaps = 0;                 // gated: gaps past the delay
};
RealisedPrediction predict_realised(const Candidate& c, const RealisedRun& run);

// Battery watt-hours over average watts: hours on a charge.
double hours_on_charge(double battery_wh, double power_w);

// The choice among the candidates of one task at one load: the feasible one
// with the least average power (the most hours), and the runner-up, each
// candidate's prediction in `standings` (in the order given).
struct Standing {
  const Candidate* candidate = nullptr;
  Prediction prediction;
};
struct Choice {
  std::vector<Standing> standings;
  std::optional<size_t> chosen, runner_up;  // indices into standings
  // The chosen and the runner-up's power CIs do not overlap; false with
  // fewer than two feasible candidates.
  bool confident = false;
};
Choice choose(const std::vector<Candidate>& candidates, const Load& load,
              std::optional<double> latency_s = std::nullopt);
// The same among the candidates of one device only (its best standing).
Choice choose_on(const std::vector<Candidate>& candidates, const std::string& device,
                 const Load& load, std::optional<double> latency_s = std::nullopt);

// A rate at which the choice changes, from `from` (below) to `to` (above);
// device_changes when they run on different devices. The rate is found to
// 0.1% between the scanned rates where the choice differs.
struct RateCrossover {
  double rate_hz = 0;
  std::string from, to;  // Candidate::label(); "none" where nothing is feasible
  bool device_changes = false;
};
std::vector<RateCrossover> rate_crossovers(const std::vector<Candidate>& candidates,
                                           Arrivals arrivals, std::optional<double> latency_s,
                                           double lo_hz, double hi_hz);

}  // namespace edp::report
