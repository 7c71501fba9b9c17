// The duty-cycle model (see deploy_model.h; the equations, with their
// assumptions, are in docs/deploy.md).
#include "report/deploy_model.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "common/text.h"

namespace edp::report {
namespace {

// Poisson(lambda) probability of i, in logs so that a large lambda neither
// overflows nor underflows before the terms that matter.
double poisson_pmf(int i, double lambda) {
  if (lambda <= 0) return i == 0 ? 1.0 : 0.0;
  return std::exp(-lambda + i * std::log(lambda) - std::lgamma(i + 1.0));
}

// P(Poisson(lambda) <= j) for j = 0 .. n - 1, in one pass.
std::vector<double> poisson_cdfs(int n, double lambda) {
  std::vector<double> out(static_cast<size_t>(std::max(0, n)));
  double sum = 0;
  for (int j = 0; j < n; ++j) {
    sum += poisson_pmf(j, lambda);
    out[j] = std::min(1.0, sum);
  }
  return out;
}

// P(Poisson(lambda) <= j)
double poisson_cdf(int j, double lambda) {
  return j < 0 ? 0.0 : poisson_cdfs(j + 1, lambda).back();
}

bool known(const Estimate& e) { return std::isfinite(e.value); }

// Every measured input of a candidate, for the CI by perturbation.
std::vector<Estimate*> inputs(Candidate& c) {
  std::vector<Estimate*> out{&c.idle.awake_w, &c.burst_j, &c.burst_s};
  if (std::isfinite(c.idle.gate_delay_s)) out.push_back(&c.idle.gated_w);
  for (auto& w : c.wake) {
    out.push_back(&w.energy_j);
    out.push_back(&w.time_s);
  }
  return out;
}

// The CI of a predicted power: each measured input moved by its own CI
// half-width, the changes in power added in quadrature (the inputs are
// measured independently). An input with an unknown CI (NaN: one
// measurement, or a damaged deploy.csv cell) that the power depends on makes
// the power's CI unknown (NaN), so that no choice resting on it is called
// confident; one the power does not reach (moving it changes nothing) does
// not. An input whose CI reaches infeasibility makes it unknown too.
// `power_of` is the prediction of a moved candidate, or nullopt where it has
// none.
template <class PowerOf>
double power_ci95(const Candidate& c, double power_w, const PowerOf& power_of) {
  double var = 0;
  Candidate moved = c;
  for (Estimate* input : inputs(moved)) {
    if (!std::isfinite(input->value) || input->ci95 == 0) continue;
    const bool unknown = !(input->ci95 > 0) || !std::isfinite(input->ci95);
    const double keep = input->value;
    // An unknown CI is probed with a small step: does the power move at all?
    input->value = keep + (unknown ? std::max(std::fabs(keep) * 1e-3, 1e-12) : input->ci95);
    const std::optional<double> q = power_of(moved);
    input->value = keep;
    // Moved within its CI (or by a small step, when that is unknown), the
    // input makes the candidate infeasible (overloaded, a wake cost not
    // measured): the power within the CI is unbounded, so its CI is unknown.
    if (!q) return NAN;
    if (unknown && *q != power_w) return NAN;
    if (!unknown) var += std::pow(*q - power_w, 2);
  }
  return std::sqrt(var);
}

// What the gaps of a distribution cost: idle energy in the awake and gated
// states, wake energy and time over the steps, and the share of gaps that
// gate. `unknown` names a missing input the gaps reach.
struct GapCosts {
  double idle_j = 0, wake_j = 0, wake_s = 0, gated_share = 0;
  // Per step: the probability of a gap in it (of all gaps, the atom included).
  std::vector<double> step_p;
  std::string unknown;
};

GapCosts gap_costs(const Candidate& c, const std::vector<WakeStep>& steps,
                   const GapDistribution& g) {
  GapCosts out;
  const double d = c.idle.gate_delay_s;
  const double awake_s = g.mean_min(d);
  out.idle_j = c.idle.awake_w.value * awake_s;
  const double tail = g.survival(d);
  if (std::isfinite(d) && tail > 1e-12) {
    if (!known(c.idle.gated_w))
      out.unknown = "the gated idle power was not measured";
    else
      out.idle_j += c.idle.gated_w.value * (g.mean() - awake_s);
  }
  const double first = g.survival(0);
  out.gated_share = first > 0 && std::isfinite(d) ? tail / first : 0;
  for (const WakeStep& s : steps) {
    double p = g.survival(s.from_s) - (std::isinf(s.to_s) ? 0.0 : g.survival(s.to_s));
    // Released, a burst that starts at once on a waiting batch is still a
    // cold start: the atom at 0 pays the first step.
    if (c.policy == "release" && s.from_s <= 0) p += g.p_zero;
    out.step_p.push_back(p);
    if (p <= 1e-12) continue;
    if (!known(s.energy_j) || !known(s.time_s)) {
      if (out.unknown.empty())
        out.unknown = "no wake cost was measured after a gap of " + fmt("%.3g", s.from_s) +
                      " s or more (the gating delay); add a wake_after_s above it";
      continue;
    }
    out.wake_j += p * s.energy_j.value;
    out.wake_s += p * s.time_s.value;
  }
  return out;
}

// The latency of the slowest class of requests with at least a 1% share:
// warm bursts at their p99, first bursts after a gap in step j at the warm
// p99 plus that step's extra time.
double service_p99(double warm_share, double warm_p99_s, const std::vector<WakeStep>& steps,
                   const std::vector<double>& step_share) {
  double worst = warm_share >= 0.01 ? warm_p99_s : 0;
  for (size_t j = 0; j < steps.size(); ++j)
    if (step_share[j] >= 0.01 && known(steps[j].time_s))
      worst = std::max(worst, warm_p99_s + steps[j].time_s.value);
  return worst;
}

Prediction unknown_prediction(const std::string& why) {
  Prediction p;
  p.why = why;
  return p;
}

Prediction poisson_single(const Candidate& c, const Load& load,
                          const std::vector<WakeStep>& steps) {
  const double r = load.rate_hz, tw = c.burst_s.value;
  Prediction p;
  // Released, every burst of a busy period is a cold start, the later ones
  // after no gap at all (the first step's cost); kept, they are warm.
  double after_none_s = 0, after_none_j = 0;
  if (c.policy == "release") {
    const WakeStep& s0 = steps.front();
    if (!known(s0.energy_j) || !known(s0.time_s))
      return unknown_prediction("no cold start was measured before the gating delay");
    after_none_s = s0.time_s.value;
    after_none_j = s0.energy_j.value;
  }
  const double ts = tw + after_none_s;  // the service of a burst after no gap
  if (r * ts >= 1)
    return unknown_prediction("overloaded: a burst takes " + fmt("%.3g", ts) +
                              " s, requests come every " + fmt("%.3g", 1 / r) + " s");
  GapDistribution g;
  g.rate_hz = r;
  g.erlang = {{1, 1.0}};  // M/G/1: every idle period is Exp(rate)
  const GapCosts costs = gap_costs(c, steps, g);
  if (!costs.unknown.empty()) return unknown_prediction(costs.unknown);
  // A busy period starts with a first burst (t_w + wake time), then serves
  // every request that arrived meanwhile in bursts of t_s (t_w kept):
  // E[busy] = E[S1] / (1 - R t_s), E[N] = 1 + R E[busy] requests, R / E[N]
  // busy periods per second.
  const double first_s = tw + costs.wake_s;
  const double busy_s = first_s / (1 - r * ts);
  const double per_busy = 1 + r * busy_s;
  const double periods_hz = r / per_busy;
  p.idle_w = periods_hz * costs.idle_j;
  p.wake_w = periods_hz * (costs.wake_j + (per_busy - 1) * after_none_j);
  p.burst_w = r * c.burst_j.value;
  p.power_w = p.idle_w + p.wake_w + p.burst_w;
  p.utilisation = periods_hz * busy_s;
  p.gated_share = costs.gated_share;
  // Latency: the slowest class with a 1% share, plus the mean wait in the
  // queue (Pollaczek-Khinchine, with the first bursts' longer service).
  std::vector<double> share;
  double s2 = (per_busy - 1) * ts * ts;
  for (size_t j = 0; j < steps.size(); ++j) {
    share.push_back(costs.step_p[j] / per_busy);
    if (known(steps[j].time_s)) s2 += costs.step_p[j] * std::pow(tw + steps[j].time_s.value, 2);
  }
  s2 /= per_busy;
  const double rho = p.utilisation;
  const double wait_s = rho < 1 ? r * s2 / (2 * (1 - rho)) : INFINITY;
  const double warm_p99 = std::isfinite(c.burst_p99_s) ? c.burst_p99_s : tw;
  const double later_share = (per_busy - 1) / per_busy;  // bursts after no gap
  const double later_p99 = later_share >= 0.01 ? warm_p99 + after_none_s : 0;
  p.latency_p99_s = std::max(later_p99, service_p99(0, warm_p99, steps, share)) + wait_s;
  p.feasible = true;
  return p;
}

Prediction poisson_batch(const Candidate& c, const Load& load, const std::vector<WakeStep>& steps) {
  const double r = load.rate_hz, tw = c.burst_s.value;
  const int b = c.batch;
  // Requests wait through a burst's whole service; released, that is a
  // cold start (the first step's extra time, nearly every gap's: the batch
  // server's gaps are short).
  double service_s = tw;
  if (c.policy == "release" && known(steps.front().time_s)) service_s += steps.front().time_s.value;
  const GapDistribution g = batch_gaps(r, b, service_s);
  const GapCosts costs = gap_costs(c, steps, g);
  if (!costs.unknown.empty()) return unknown_prediction(costs.unknown);
  Prediction p;
  const double bursts_hz = r / b;
  p.utilisation = bursts_hz * (tw + costs.wake_s);
  if (p.utilisation >= 1)
    return unknown_prediction("overloaded: bursts of " + std::to_string(b) + " take " +
                              fmt("%.3g", tw) + " s, and come every " + fmt("%.3g", 1 / bursts_hz) +
                              " s");
  p.idle_w = bursts_hz * costs.idle_j;
  p.wake_w = bursts_hz * costs.wake_j;
  p.burst_w = bursts_hz * c.burst_j.value;
  p.power_w = p.idle_w + p.wake_w + p.burst_w;
  p.gated_share = costs.gated_share;
  const double warm_p99 = std::isfinite(c.burst_p99_s) ? c.burst_p99_s : tw;
  // The first request of a batch waits for b - 1 more.
  const double warm_share = c.policy == "release" ? 0.0 : g.p_zero;  // released: all cold
  p.latency_p99_s =
      erlang_quantile(b - 1, r, 0.99) + service_p99(warm_share, warm_p99, steps, costs.step_p);
  p.feasible = true;
  return p;
}

Prediction periodic(const Candidate& c, const Load& load, const std::vector<WakeStep>& steps) {
  const double tw = c.burst_s.value;
  const double cycle_s = c.batch / load.rate_hz;
  if (cycle_s <= tw)
    return unknown_prediction("overloaded: a warm burst takes " + fmt("%.3g", tw) +
                              " s, one starts every " + fmt("%.3g", cycle_s) + " s");
  // The gap is what the cycle leaves after the first burst, whose wake time
  // depends on the gap: the step whose range holds its own gap.
  const WakeStep* step = nullptr;
  double gap = cycle_s - tw;
  for (const WakeStep& s : steps) {
    const double g = cycle_s - tw - (known(s.time_s) ? s.time_s.value : 0);
    if (g >= s.from_s && g < s.to_s) {
      step = &s;
      gap = g;
      break;
    }
  }
  if (!step)  // the wake time moves the gap across a step: the step of t_w alone
    for (const WakeStep& s : steps)
      if (gap >= s.from_s && gap < s.to_s) step = &s;
  if (!step || !known(step->energy_j) || !known(step->time_s))
    return unknown_prediction("no wake cost was measured for a gap of " + fmt("%.3g", gap) + " s");
  // The burst with its wake (a cold start when released) must end before the
  // next one starts, as the Poisson paths require utilisation < 1.
  if (tw + step->time_s.value >= cycle_s)
    return unknown_prediction("overloaded: a burst and its wake take " +
                              fmt("%.3g", tw + step->time_s.value) + " s, one starts every " +
                              fmt("%.3g", cycle_s) + " s");
  gap = std::max(0.0, gap);
  const double d = c.idle.gate_delay_s;
  double idle_j = c.idle.awake_w.value * std::min(gap, d);
  if (gap > d) {
    if (!known(c.idle.gated_w)) return unknown_prediction("the gated idle power was not measured");
    idle_j += c.idle.gated_w.value * (gap - d);
  }
  Prediction p;
  p.idle_w = idle_j / cycle_s;
  p.wake_w = step->energy_j.value / cycle_s;
  p.burst_w = c.burst_j.value / cycle_s;
  p.power_w = p.idle_w + p.wake_w + p.burst_w;
  p.utilisation = (tw + step->time_s.value) / cycle_s;
  p.gated_share = gap >= d ? 1 : 0;
  const double warm_p99 = std::isfinite(c.burst_p99_s) ? c.burst_p99_s : tw;
  p.latency_p99_s = (c.batch - 1) / load.rate_hz + warm_p99 + step->time_s.value;
  p.feasible = true;
  return p;
}

// The prediction without its CI or the latency objective.
Prediction core(const Candidate& c, const Load& load) {
  if (!(load.rate_hz > 0)) return unknown_prediction("the request rate must be positive");
  if (c.batch < 1) return unknown_prediction("the batch size must be at least 1");
  if (!known(c.burst_s) || !(c.burst_s.value > 0) || !known(c.burst_j))
    return unknown_prediction("the warm burst was not measured");
  if (!known(c.idle.awake_w)) return unknown_prediction("the idle power was not measured");
  // Read from a file: a power or a burst's energy below zero is damage, not
  // a measurement (a wake's extra energy may be, within its noise).
  if (c.idle.awake_w.value < 0 || (known(c.idle.gated_w) && c.idle.gated_w.value < 0) ||
      c.burst_j.value < 0)
    return unknown_prediction("a negative idle power or burst energy (" +
                              fmt("%.3g", c.idle.awake_w.value) + " W, " +
                              fmt("%.3g", c.burst_j.value) + " J): not a measurement");
  // A wake's extra energy below zero by more than its 95% CI is not noise
  // (review: -0.42 +- 0.004 J predicted 19.6 h where the file gave 13.9 h,
  // "confident"). An unknown CI covers nothing; one part in a million of the
  // burst's energy is rounding (deploy.csv's own consistency rule).
  for (const WakeCost& w : c.wake) {
    if (!known(w.energy_j)) continue;
    const bool ci_known = std::isfinite(w.energy_j.ci95);
    const double noise = ci_known ? w.energy_j.ci95 : 0;
    if (w.energy_j.value + noise < -1e-6 * std::fabs(c.burst_j.value))
      return unknown_prediction(
          "the wake energy after " + fmt("%g", w.idle_s) + " s idle is " +
          fmt("%.3g", w.energy_j.value) + " J (CI " +
          (ci_known ? "+- " + fmt("%.2g", w.energy_j.ci95) + " J" : std::string("unknown")) +
          "), below zero beyond its noise: not a measurement (a sensor offset, or an edited "
          "deploy.csv); run the deploy study again");
  }
  const std::vector<WakeStep> steps =
      wake_steps(c.wake, c.idle.gate_delay_s, c.policy == "release");
  Prediction p = load.arrivals == Arrivals::periodic ? periodic(c, load, steps)
                 : c.batch == 1                      ? poisson_single(c, load, steps)
                                                     : poisson_batch(c, load, steps);
  if (p.feasible && !(p.power_w > 0))
    return unknown_prediction("the measured costs add up to " + fmt("%.3g", p.power_w) +
                              " W on average: not a power (negative wake costs?)");
  return p;
}

RealisedPrediction realised_core(const Candidate& c, const RealisedRun& run) {
  RealisedPrediction p;
  const auto unknown = [&](const std::string& why) {
    RealisedPrediction q;
    q.why = why;
    return q;
  };
  if (!(run.span_s > 0)) return unknown("the run's span must be positive");
  if (!known(c.burst_j)) return unknown("the warm burst was not measured");
  if (!known(c.idle.awake_w)) return unknown("the idle power was not measured");
  const std::vector<WakeStep> steps =
      wake_steps(c.wake, c.idle.gate_delay_s, c.policy == "release");
  const double d = c.idle.gate_delay_s;
  p.idle_j = p.wake_j = 0;
  // One idle stretch: `whole_s` long, of which the part after `skip_s` lies
  // in the span; a burst follows it when `wakes`.
  const auto gap = [&](double skip_s, double whole_s, bool wakes) -> std::string {
    if (!(whole_s >= 0) || !std::isfinite(whole_s)) return "a gap of " + fmt("%g", whole_s) + " s";
    if (whole_s > d) {
      if (!known(c.idle.gated_w)) return "the gated idle power was not measured";
      ++p.gated_gaps;
    }
    p.idle_j += idle_energy_j(c.idle, skip_s, whole_s);
    // Kept, a burst on a waiting request (no gap) is warm; released, it
    // is a cold start all the same.
    if (!wakes || (whole_s <= 0 && c.policy != "release")) return "";
    for (const WakeStep& s : steps)
      if (whole_s >= s.from_s && whole_s < s.to_s) {
        if (!known(s.energy_j))
          return "no wake cost was measured after a gap of " + fmt("%.3g", s.from_s) +
                 " s or more; add a wake_after_s above it";
        p.wake_j += s.energy_j.value;
      }
    return "";
  };
  std::string why;
  for (size_t i = 0; i < run.gaps_s.size() && why.empty(); ++i) {
    const double lead_s = i == 0 ? run.lead_s : 0;
    why = gap(lead_s, lead_s + run.gaps_s[i], true);
  }
  if (why.empty()) {
    const double lead_s = run.gaps_s.empty() ? run.lead_s : 0;
    why = gap(lead_s, lead_s + run.after_s, false);
  }
  if (!why.empty()) return unknown(why);
  p.bursts = run.gaps_s.size();
  p.burst_j = static_cast<double>(p.bursts) * c.burst_j.value;
  p.power_w = (p.idle_j + p.wake_j + p.burst_j) / run.span_s;
  p.known = true;
  return p;
}

}  // namespace

double idle_energy_j(const IdleProfile& idle, double from_s, double to_s) {
  const double d = idle.gate_delay_s;
  double e = idle.awake_w.value * (std::min(to_s, d) - std::min(from_s, d));
  if (to_s > d) e += idle.gated_w.value * (std::max(to_s - d, 0.0) - std::max(from_s - d, 0.0));
  return e;
}

double first_burst_j(const IdleProfile& idle, const FirstBurstWindow& w) {
  return w.energy_j - idle_energy_j(idle, w.lead_s, w.lead_s + w.idle_s) -
         idle.awake_w.value * w.after_s;
}

std::string Candidate::label() const {
  return device + (point.empty() ? "" : "@" + point) + ", batch " + std::to_string(batch) + ", " +
         policy;
}

std::vector<WakeStep> wake_steps(const std::vector<WakeCost>& wake, double gate_delay_s,
                                 bool every_burst_wakes) {
  std::vector<WakeCost> sorted = wake;
  std::sort(sorted.begin(), sorted.end(),
            [](const WakeCost& a, const WakeCost& b) { return a.idle_s < b.idle_s; });
  std::vector<WakeCost> before, after;
  for (const auto& w : sorted) (w.idle_s < gate_delay_s ? before : after).push_back(w);
  std::vector<WakeStep> steps;
  // One side of the delay, [from, to): each point holds until the next, the
  // first from the side's start.
  const auto side = [&](const std::vector<WakeCost>& points, double from, double to,
                        const Estimate& missing) {
    if (points.empty()) {
      steps.push_back({from, to, missing, missing});
      return;
    }
    for (size_t i = 0; i < points.size(); ++i) {
      const double start = i == 0 ? from : points[i].idle_s;
      const double end = i + 1 < points.size() ? points[i + 1].idle_s : to;
      steps.push_back({start, end, points[i].energy_j, points[i].time_s});
    }
  };
  side(before, 0, gate_delay_s, every_burst_wakes ? Estimate{} : Estimate{0, 0});
  if (std::isfinite(gate_delay_s)) side(after, gate_delay_s, INFINITY, Estimate{});
  return steps;
}

double erlang_survival(int k, double rate_hz, double x) {
  if (k <= 0) return 0;
  if (x <= 0) return 1;
  if (std::isinf(x)) return 0;
  return poisson_cdf(k - 1, rate_hz * x);  // fewer than k arrivals by x
}

double erlang_quantile(int k, double rate_hz, double q) {
  if (k <= 0) return 0;
  double hi = k / rate_hz;
  while (1 - erlang_survival(k, rate_hz, hi) < q) hi *= 2;
  double lo = 0;
  for (int i = 0; i < 100; ++i) {
    const double mid = (lo + hi) / 2;
    (1 - erlang_survival(k, rate_hz, mid) < q ? lo : hi) = mid;
  }
  return hi;
}

// Both sum over the batch's Erlang terms with the Poisson CDF computed once
// for all of them (a batch of b has b terms of up to b arrivals: once a
// term, the model's time grew as b cubed, 5 s for `recommend` at b = 64).
namespace {
int most_arrivals(const std::vector<std::pair<int, double>>& erlang) {
  int k = 0;
  for (const auto& term : erlang) k = std::max(k, term.first);
  return k;
}
}  // namespace

double GapDistribution::survival(double x) const {
  const bool finite = x > 0 && !std::isinf(x);
  const std::vector<double> cdf =
      finite ? poisson_cdfs(most_arrivals(erlang), rate_hz * x) : std::vector<double>{};
  double s = 0;
  for (const auto& [k, w] : erlang) {
    if (k <= 0) continue;  // erlang_survival's cases, in its order
    s += w * (x <= 0 ? 1.0 : std::isinf(x) ? 0.0 : cdf[k - 1]);
  }
  return s;
}

double GapDistribution::mean_min(double x) const {
  // E[min(Erlang(k), x)] = sum over j < k of P(Poisson(rate x) > j) / rate.
  std::vector<double> partial{0};  // partial[k]: that sum for k
  if (!std::isinf(x)) {
    const std::vector<double> cdf = poisson_cdfs(most_arrivals(erlang), rate_hz * x);
    for (const double c : cdf) partial.push_back(partial.back() + (1.0 - c));
  }
  double m = 0;
  for (const auto& [k, w] : erlang)
    m += w * (std::isinf(x) ? k / rate_hz : partial[std::max(0, k)] / rate_hz);
  return m;
}

double GapDistribution::mean() const { return mean_min(INFINITY); }

GapDistribution batch_gaps(double rate_hz, int batch, double burst_s) {
  GapDistribution g;
  g.rate_hz = rate_hz;
  const double lambda = rate_hz * burst_s;
  double waiting = 0;
  for (int q = 0; q < batch; ++q) {
    const double p = poisson_pmf(q, lambda);
    g.erlang.push_back({batch - q, p});
    waiting += p;
  }
  g.p_zero = std::max(0.0, 1.0 - waiting);
  return g;
}

Prediction predict(const Candidate& c, const Load& load, std::optional<double> latency_s) {
  Prediction p = core(c, load);
  if (!p.feasible) return p;
  p.power_ci95_w = power_ci95(c, p.power_w, [&](const Candidate& moved) -> std::optional<double> {
    const Prediction q = core(moved, load);
    if (!q.feasible) return std::nullopt;
    return q.power_w;
  });
  if (latency_s && p.latency_p99_s > *latency_s) {
    p.feasible = false;
    p.why = "p99 latency " + fmt("%.3g", p.latency_p99_s * 1e3) + " ms exceeds the objective " +
            fmt("%.3g", *latency_s * 1e3) + " ms";
  }
  return p;
}

RealisedPrediction predict_realised(const Candidate& c, const RealisedRun& run) {
  RealisedPrediction p = realised_core(c, run);
  if (!p.known) return p;
  p.power_ci95_w = power_ci95(c, p.power_w, [&](const Candidate& moved) -> std::optional<double> {
    const RealisedPrediction q = realised_core(moved, run);
    if (!q.known) return std::nullopt;
    return q.power_w;
  });
  return p;
}

double hours_on_charge(double battery_wh, double power_w) {
  return power_w > 0 ? battery_wh / power_w : NAN;
}

Choice choose(const std::vector<Candidate>& candidates, const Load& load,
              std::optional<double> latency_s) {
  Choice out;
  for (const auto& c : candidates) out.standings.push_back({&c, predict(c, load, latency_s)});
  for (size_t i = 0; i < out.standings.size(); ++i) {
    const Prediction& p = out.standings[i].prediction;
    if (!p.feasible) continue;
    if (!out.chosen || p.power_w < out.standings[*out.chosen].prediction.power_w) {
      out.runner_up = out.chosen;
      out.chosen = i;
    } else if (!out.runner_up || p.power_w < out.standings[*out.runner_up].prediction.power_w) {
      out.runner_up = i;
    }
  }
  if (out.chosen && out.runner_up) {
    const Prediction& a = out.standings[*out.chosen].prediction;
    const Prediction& b = out.standings[*out.runner_up].prediction;
    out.confident = a.power_w + a.power_ci95_w < b.power_w - b.power_ci95_w;
  }
  return out;
}

Choice choose_on(const std::vector<Candidate>& candidates, const std::string& device,
                 const Load& load, std::optional<double> latency_s) {
  std::vector<Candidate> mine;
  for (const auto& c : candidates)
    if (c.device == device) mine.push_back(c);
  Choice out = choose(mine, load, latency_s);
  // Point the standings back at the caller's candidates.
  for (auto& s : out.standings)
    for (const auto& c : candidates)
      if (c.device == device && c.label() == s.candidate->label()) s.candidate = &c;
  return out;
}

std::vector<RateCrossover> rate_crossovers(const std::vector<Candidate>& candidates,
                                           Arrivals arrivals, std::optional<double> latency_s,
                                           double lo_hz, double hi_hz) {
  std::vector<RateCrossover> out;
  if (!(lo_hz > 0) || !(hi_hz > lo_hz)) return out;
  const auto best = [&](double rate) -> const Candidate* {
    const Choice c = choose(candidates, Load{rate, arrivals}, latency_s);
    return c.chosen ? c.standings[*c.chosen].candidate : nullptr;
  };
  const auto name = [](const Candidate* c) { return c ? c->label() : std::string("none"); };
  const int n = 160;
  const double step = std::log(hi_hz / lo_hz) / n;
  double r0 = lo_hz;
  const Candidate* b0 = best(r0);
  for (int i = 1; i <= n; ++i) {
    const double r1 = lo_hz * std::exp(step * i);
    const Candidate* b1 = best(r1);
    if (name(b0) != name(b1)) {
      double lo = r0, hi = r1;  // the choice below is b0's at lo, another at hi
      while (hi / lo > 1.001) {
        const double mid = std::sqrt(lo * hi);
        (name(best(mid)) == name(b0) ? lo : hi) = mid;
      }
      RateCrossover x;
      x.rate_hz = std::sqrt(lo * hi);
      x.from = name(b0);
      x.to = name(b1);
      x.device_changes = b0 && b1 && b0->device != b1->device;
      out.push_back(x);
    }
    r0 = r1;
    b0 = b1;
  }
  return out;
}

}  // namespace edp::report
