// Battery-life recommendations from deploy.csv (see deploy_recommend.h).
#include "report/deploy_recommend.h"

#include <algorithm>
#include <cmath>

#include "common/text.h"
#include "report/deploy_csv.h"

namespace edp::report {
namespace {

std::vector<Candidate> of_task(const std::vector<Candidate>& all, const std::string& task) {
  std::vector<Candidate> out;
  for (const auto& c : all)
    if (c.task == task) out.push_back(c);
  return out;
}

// The devices a task's rows name, in order, with why a device without a
// candidate has none (its rows' status and note).
std::vector<std::pair<std::string, std::string>> devices_of(const CsvTable& t,
                                                            const std::string& task) {
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (deploy_task(t, r) != task) continue;
    const std::string device = t.get(r, "device");
    auto it =
        std::find_if(out.begin(), out.end(), [&](const auto& d) { return d.first == device; });
    if (it == out.end()) {
      out.push_back({device, ""});
      it = out.end() - 1;
    }
    // An open-loop check's status (overloaded at its own rate) says nothing
    // of the device at another rate.
    const std::string status = t.get(r, "status");
    if (t.get(r, "measure") != "check" && status != "ok" && status != "absent" &&
        it->second.empty())
      it->second = status + (t.get(r, "note").empty() ? "" : ": " + t.get(r, "note"));
  }
  return out;
}

std::string rate_text(const Load& load) {
  if (load.arrivals == Arrivals::periodic)
    return "a request every " + fmt("%.4g", 1 / load.rate_hz) + " s";
  return fmt("%.4g", load.rate_hz) + " requests/s (Poisson)";
}

std::string hours_text(double h, double ci) {
  if (std::isnan(ci)) return fmt("%.3g", h) + " h (CI unknown)";
  return fmt("%.3g", h) + " h" + (ci > 0 ? " ± " + fmt("%.2g", ci) : "");
}

std::vector<ModelCheck> checks_of(const CsvTable& t, const std::string& task) {
  std::vector<ModelCheck> out;
  const auto value = [&](size_t r, const char* column) {
    return parse_double(t.get(r, column)).value_or(NAN);
  };
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (t.get(r, "measure") != "check" || t.get(r, "status") != "ok" || deploy_task(t, r) != task)
      continue;
    ModelCheck c;
    const std::string batch = t.get(r, "batch"), point = t.get(r, "operating_point");
    // A check of the release policy (a cold start per burst) idles in the host state.
    c.item = t.get(r, "device") + (point.empty() ? "" : "@" + point) +
             (batch.empty() ? "" : ", batch " + batch) +
             (t.get(r, "state") == "host" ? ", release" : "");
    c.rate_hz = value(r, "rate_hz");
    c.measured_w = value(r, "power_w");
    c.realised_w = value(r, "predicted_realised_w");
    c.realised_error = value(r, "error_realised");
    c.expected_w = value(r, "predicted_w");
    c.expected_error = value(r, "error");
    c.arrivals = value(r, "arrivals");
    c.arrivals_expected = value(r, "arrivals_expected");
    out.push_back(c);
  }
  return out;
}

std::string watts_and_error(double w, double error) {
  if (!std::isfinite(w)) return "not written";
  return fmt("%.4g", w) + " W" +
         (std::isfinite(error) ? " (" + fmt("%+.1f", error * 100) + "%)" : "");
}

std::string check_text(const ModelCheck& c) {
  std::string out = "  model check, " + c.item + ", at " + fmt("%g", c.rate_hz) +
                    " requests/s: measured " + fmt("%.4g", c.measured_w) +
                    " W; predicted from the realised gaps " +
                    watts_and_error(c.realised_w, c.realised_error) + ", expected " +
                    watts_and_error(c.expected_w, c.expected_error);
  if (std::isfinite(c.arrivals) && std::isfinite(c.arrivals_expected))
    out += "; " + fmt("%g", c.arrivals) + " arrivals against " + fmt("%.4g", c.arrivals_expected) +
           " expected";
  return out + "\n";
}

}  // namespace

std::vector<DeployRecommendation> deploy_recommend(const CsvTable& table, const DeployOptions& o) {
  const std::vector<Candidate> all = deploy_candidates(table, "deploy.csv");
  std::vector<std::string> tasks = deploy_tasks(all);
  // Tasks whose every item was skipped still get a line.
  for (size_t r = 0; r < table.rows.size(); ++r) {
    const std::string task = deploy_task(table, r);
    if (std::find(tasks.begin(), tasks.end(), task) == tasks.end()) tasks.push_back(task);
  }
  const auto pick = [&](const Standing& s) {
    Pick p;
    p.label = s.candidate->label();
    p.prediction = s.prediction;
    p.hours = hours_on_charge(o.battery_wh, s.prediction.power_w);
    p.hours_ci95 =
        o.battery_wh * s.prediction.power_ci95_w / (s.prediction.power_w * s.prediction.power_w);
    return p;
  };
  std::vector<DeployRecommendation> out;
  for (const auto& task : tasks) {
    DeployRecommendation rec;
    rec.task = task;
    rec.checks = checks_of(table, task);
    const std::vector<Candidate> mine = of_task(all, task);
    for (const auto& [device, why] : devices_of(table, task)) {
      DeviceHours d;
      d.device = device;
      const Choice c = choose_on(mine, device, o.load, o.latency_s);
      if (c.chosen) {
        d.best = pick(c.standings[*c.chosen]);
      } else if (!why.empty()) {
        d.why_none = why;
      } else {
        for (const auto& s : c.standings)
          if (!s.prediction.why.empty()) {
            d.why_none = s.candidate->label() + ": " + s.prediction.why;
            break;
          }
        if (d.why_none.empty()) d.why_none = "not measured";
      }
      rec.devices.push_back(d);
    }
    const Choice c = choose(mine, o.load, o.latency_s);
    if (c.chosen) rec.choice = pick(c.standings[*c.chosen]);
    if (c.runner_up) rec.runner_up = pick(c.standings[*c.runner_up]);
    rec.confident = c.confident;
    rec.crossovers =
        rate_crossovers(mine, o.load.arrivals, o.latency_s, o.scan_lo_hz, o.scan_hi_hz);
    out.push_back(std::move(rec));
  }
  return out;
}

bool any_deploy_choice(const std::vector<DeployRecommendation>& recs) {
  return std::any_of(recs.begin(), recs.end(), [](const auto& r) { return r.choice.has_value(); });
}

std::string deploy_recommendations_text(const std::vector<DeployRecommendation>& recs,
                                        const DeployOptions& o) {
  std::string out;
  for (const auto& rec : recs) {
    out += rec.task + " at " + rate_text(o.load) + ", " + fmt("%g", o.battery_wh) + " Wh" +
           (o.latency_s ? ", p99 latency <= " + fmt("%g", *o.latency_s * 1e3) + " ms" : "") + ":\n";
    for (const auto& d : rec.devices) {
      out += "  " + d.device + ": ";
      if (!d.best) {
        out += "no choice (" + d.why_none + ")\n";
        continue;
      }
      const Prediction& p = d.best->prediction;
      out += hours_text(d.best->hours, d.best->hours_ci95) + " on a charge; " +
             fmt("%.4g", p.power_w) + " W = idle " + fmt("%.3g", p.idle_w) + " + wake " +
             fmt("%.3g", p.wake_w) + " + bursts " + fmt("%.3g", p.burst_w) + "; p99 latency " +
             fmt("%.3g", p.latency_p99_s * 1e3) + " ms; " + d.best->label + "\n";
    }
    if (!rec.choice) {
      out += "  choice: none meets the objective at this rate\n";
    } else {
      const Pick& a = *rec.choice;
      out += "  choice: " + a.label + ": " + hours_text(a.hours, a.hours_ci95);
      if (rec.runner_up) {
        const Pick& b = *rec.runner_up;
        out += std::string(rec.confident ? " (confident" : " (not confident") +
               ": the runner-up, " + b.label + ", gives " + hours_text(b.hours, b.hours_ci95) +
               (rec.confident ? "; the 95% CIs of their power do not overlap)"
                : std::isnan(a.hours_ci95) || std::isnan(b.hours_ci95)
                    ? "; a CI is unknown: an input was measured once, or its CI cell is empty)"
                    : "; the 95% CIs of their power overlap)");
      } else {
        out += " (the only candidate that meets the objective)";
      }
      out += "\n";
    }
    for (const auto& x : rec.crossovers)
      out += "  crossover at " + fmt("%.3g", x.rate_hz) + " requests/s: " + x.from + " below, " +
             x.to + " above" + (x.device_changes ? " (the device changes)" : "") + "\n";
    for (const auto& c : rec.checks) out += check_text(c);
  }
  return out;
}

std::vector<HoursCurve> hours_curves(const std::vector<Candidate>& candidates,
                                     const std::string& task, const std::vector<double>& rates_hz,
                                     Arrivals arrivals, double battery_wh,
                                     std::optional<double> latency_s) {
  const std::vector<Candidate> mine = of_task(candidates, task);
  std::vector<HoursCurve> out;
  for (const auto& c : mine) {
    if (std::any_of(out.begin(), out.end(), [&](const auto& h) { return h.device == c.device; }))
      continue;
    HoursCurve curve;
    curve.device = c.device;
    for (const double rate : rates_hz) {
      const Choice best = choose_on(mine, c.device, Load{rate, arrivals}, latency_s);
      curve.rates_hz.push_back(rate);
      curve.hours.push_back(
          best.chosen ? hours_on_charge(battery_wh, best.standings[*best.chosen].prediction.power_w)
                      : NAN);
    }
    out.push_back(std::move(curve));
  }
  return out;
}

}  // namespace edp::report
