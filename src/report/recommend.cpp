// The recommendation of DESIGN §5. Nothing is invented: a device whose
// objective was not measured (no power sensor) leaves the row undecided rather
// than being compared on a number it does not have.
#include "report/recommend.h"
#include "report/columns.h"

#include "report/results_csv.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <tuple>

#include "common/safe_file.h"
#include "report/html_util.h"
#include "report/stats.h"

namespace edp::report {

const char* const kRecommendationCsvHeader =
    "workload,size,objective,choice,cpu_value,gpu_value,ratio,confident,runs_per_charge";

std::optional<Objective> parse_objective(const std::string& name) {
  if (name == "edp") return Objective::edp;
  if (name == "energy") return Objective::energy;
  if (name == "time") return Objective::time;
  return std::nullopt;
}

std::string objective_name(Objective o) {
  switch (o) {
    case Objective::energy:
      return "energy";
    case Objective::time:
      return "time";
    default:
      return "edp";
  }
}

std::string objective_label(Objective o) { return o == Objective::edp ? "EDP" : objective_name(o); }

std::string objective_column(Objective o) {
  switch (o) {
    case Objective::energy:
      return col::energy_j_mean;
    case Objective::time:
      return col::time_s_mean;
    default:
      return col::edp_js_mean;
  }
}

namespace {

std::string objective_stem(Objective o) {
  switch (o) {
    case Objective::energy:
      return col::energy_j;
    case Objective::time:
      return col::time_s;
    default:
      return col::edp_js;
  }
}

std::string format(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// "12.3x", "1.05x", "81x": three significant digits at most.
std::string format_ratio(double r) {
  if (r >= 100) return format("%.0fx", r);
  if (r >= 10) return format("%.1fx", r);
  return format("%.2fx", r);
}

// Three significant digits, without an exponent below a million: "2140", "9.45".
std::string plain(double v) {
  return std::fabs(v) >= 100 && std::fabs(v) < 1e6 ? format("%.0f", v) : format("%.3g", v);
}

std::string format_value(Objective o, double v) {
  switch (o) {
    case Objective::time:
      return plain(v) + " s";
    case Objective::energy:
      return plain(v) + " J";
    default:
      return plain(v) + " J\xC2\xB7s";
  }
}

std::optional<double> number_at(const CsvTable& t, size_t r, const std::string& column) {
  const auto v = parse_double(t.get(r, column));
  if (v && std::isfinite(*v)) return v;
  return std::nullopt;
}

// The row's identity beyond workload and size (its study's view: the batch
// study's N), as (column, value) pairs.
std::vector<std::pair<std::string, std::string>> extra_identity_of(const CsvTable& t, size_t r,
                                                                   const StudyViews& studies) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& c : studies.extra_identity(t, r)) out.emplace_back(c, t.get(r, c));
  return out;
}

std::string joined_values(const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string out;
  for (const auto& [column, value] : pairs) out += (out.empty() ? "" : ",") + value;
  return out;
}

std::string power_source_of(const CsvTable& t, const std::vector<size_t>& rows) {
  for (size_t r : rows) {
    const std::string s = t.get(r, col::power_source);
    if (!s.empty()) return s;
  }
  return "";
}

}  // namespace

std::string device_kind(const std::string& label) { return label.substr(0, label.find('#')); }

std::optional<double> row_ci95(const CsvTable& results, size_t r, const std::string& stem) {
  const auto runs = parse_count(results.get(r, col::runs));
  if (!runs || *runs < 2 || *runs > 1000000) return std::nullopt;
  // A negative CI or std is damage, not a measurement: no CI (never a
  // confident one, which value + ci < other - ci would give).
  if (auto ci = number_at(results, r, stem + "_ci95")) {
    if (*ci < 0) return std::nullopt;
    return ci;
  }
  const auto sd = number_at(results, r, stem + "_std");
  if (!sd || *sd < 0) return std::nullopt;
  const int n = static_cast<int>(*runs);
  return student_t975(n - 1) * *sd / std::sqrt(static_cast<double>(n));
}

std::vector<Recommendation> recommend(const CsvTable& results, const RecommendOptions& options) {
  // Group the rows by (workload, size) and whatever else their study's view
  // says names a configuration, keeping the order of first appearance.
  using Extra = std::vector<std::pair<std::string, std::string>>;
  using GroupKey = std::tuple<std::string, std::string, Extra>;
  std::vector<GroupKey> order;
  std::map<GroupKey, std::vector<size_t>> groups;
  for (size_t r = 0; r < results.rows.size(); ++r) {
    const auto key = GroupKey(results.get(r, col::workload), results.get(r, col::size),
                              extra_identity_of(results, r, options.studies));
    auto [it, inserted] = groups.try_emplace(key);
    if (inserted) order.push_back(key);
    it->second.push_back(r);
  }

  const std::string column = objective_column(options.objective);
  const std::string stem = objective_stem(options.objective);
  const std::string deadline_text =
      options.deadline_s ? format("%g s", *options.deadline_s) : std::string();

  std::vector<Recommendation> out;
  for (const auto& key : order) {
    const auto& rows = groups[key];
    Recommendation rec;
    rec.workload = std::get<0>(key);
    rec.size = std::get<1>(key);
    rec.extra_identity = std::get<2>(key);
    rec.batch = joined_values(rec.extra_identity);
    rec.objective = options.objective;

    // The standing of each kind: its best row that meets the deadline (the
    // lowest objective), else its best row at all, so the values still show.
    auto stand = [&](const std::string& kind) -> std::optional<DeviceStanding> {
      std::optional<DeviceStanding> best;
      std::vector<DeviceStanding> missed;  // points that miss the deadline
      for (size_t r : rows) {
        if (device_kind(results.get(r, col::device)) != kind) continue;
        const std::string point = results.get(r, col::operating_point);
        const std::string who = results.get(r, col::device) + (point.empty() ? "" : " at " + point);
        if (results.get(r, col::status) != "ok") {
          std::string why = who + " " + results.get(r, col::status);
          const std::string note = results.get(r, col::note);
          if (!note.empty()) why += ": " + note;
          rec.notes.push_back(why);
          continue;
        }
        DeviceStanding s;
        s.label = results.get(r, col::device);
        s.point = point;
        // Time, energy and EDP are positive: zero, a negative value or NaN in
        // the file is not a measurement (a 0 J GPU made "confident" with no
        // ratio; an EDP of -1 won).
        auto measured = [&](const std::string& name) -> std::optional<double> {
          const std::string text = results.get(r, name);
          const auto v = parse_double(text);
          if (v && std::isfinite(*v) && *v > 0) return v;
          if (!text.empty())
            rec.notes.push_back(who + ": " + name + " " + escaped_excerpt(text) +
                                " is not a measurement (must be a positive number); taken as "
                                "not measured");
          return std::nullopt;
        };
        s.value = measured(column);
        s.ci95 = row_ci95(results, r, stem);
        s.time_s = column == col::time_s_mean ? s.value : measured(col::time_s_mean);
        s.energy_j = column == col::energy_j_mean ? s.value : measured(col::energy_j_mean);
        s.meets_deadline = !options.deadline_s || (s.time_s && *s.time_s <= *options.deadline_s);
        auto better = [](const DeviceStanding& a, const DeviceStanding& b) {
          if (a.meets_deadline != b.meets_deadline) return a.meets_deadline;
          if (a.value && b.value) return *a.value < *b.value;
          return a.value.has_value() && !b.value.has_value();
        };
        if (!best || better(s, *best)) best = s;
        if (!point.empty() && !s.meets_deadline) missed.push_back(s);
      }
      // A point that would have been better but is too slow is worth a note.
      for (const auto& m : missed)
        if (best && best->meets_deadline && m.value && best->value && *m.value < *best->value)
          rec.notes.push_back(m.label + " at " + m.point + " has a lower " +
                              objective_label(options.objective) + " but misses the " +
                              deadline_text + " deadline" +
                              (m.time_s ? " (" + plain(*m.time_s) + " s)" : std::string()));
      return best;
    };
    rec.cpu = stand("cpu");
    rec.gpu = stand("gpu");

    std::vector<const DeviceStanding*> qualifying;
    for (const auto* s : {&rec.cpu, &rec.gpu})
      if (*s && (*s)->meets_deadline) qualifying.push_back(&**s);

    if (!rec.cpu && !rec.gpu) {
      rec.notes.insert(rec.notes.begin(), "no successful cpu or gpu run");
    } else if (qualifying.empty()) {
      rec.choice = "none";
      rec.notes.insert(rec.notes.begin(), "no device meets the " + deadline_text + " deadline");
    } else {
      std::vector<std::string> unmeasured;
      for (const auto* q : qualifying)
        if (!q->value) unmeasured.push_back(q->label);
      if (!unmeasured.empty()) {
        const std::string source = power_source_of(results, rows);
        std::string note = objective_label(options.objective) + " not measured on " +
                           unmeasured.front() +
                           (unmeasured.size() > 1 ? " and " + unmeasured.back() : "");
        if (!source.empty()) note += " (power source: " + source + ")";
        if (options.objective != Objective::time) note += "; --objective time still decides";
        rec.notes.insert(rec.notes.begin(), note);
      }
      if (unmeasured.empty()) {
        const DeviceStanding* chosen = qualifying.front();
        const DeviceStanding* other = nullptr;
        if (qualifying.size() == 2) {
          // On a tie the CPU wins: it needs no accelerator to be powered.
          if (*qualifying[1]->value < *qualifying[0]->value) {
            chosen = qualifying[1];
            other = qualifying[0];
          } else {
            other = qualifying[1];
          }
        }
        rec.choice = device_kind(chosen->label);
        rec.operating_point = chosen->point;
        if (chosen->label != rec.choice)
          rec.notes.push_back(chosen->label + " is the best " + rec.choice + " configuration");
        if (other) {
          const double ratio = *other->value / *chosen->value;
          if (*chosen->value > 0 && std::isfinite(ratio)) rec.ratio = ratio;
          if (!std::isfinite(ratio)) {
            rec.confident = false;
            rec.notes.push_back("the values differ by more than a double holds: not measurements");
          } else if (chosen->ci95 && other->ci95) {
            rec.confident = *chosen->value + *chosen->ci95 < *other->value - *other->ci95;
          } else {
            rec.confident = false;
            rec.notes.push_back("no 95% CI (fewer than 2 runs)");
          }
        } else {
          const bool cpu_chosen = rec.cpu && chosen == &*rec.cpu;
          const auto& missing = cpu_chosen ? rec.gpu : rec.cpu;
          if (missing && !missing->meets_deadline)
            rec.notes.push_back(
                missing->label + (missing->point.empty() ? "" : " at " + missing->point) +
                " misses the " + deadline_text + " deadline" +
                (missing->time_s ? " (" + plain(*missing->time_s) + " s" + ")" : std::string()));
        }
        if (options.battery_wh) {
          const double runs = chosen->energy_j && *chosen->energy_j > 0
                                  ? std::floor(*options.battery_wh * 3600.0 / *chosen->energy_j)
                                  : NAN;
          if (runs < 9e18) {  // a count a long long holds (NaN is not)
            rec.runs_per_charge = static_cast<long long>(runs);
          } else if (!std::isnan(runs)) {
            rec.notes.push_back("runs per charge unknown: " + plain(*chosen->energy_j) +
                                " J a run is not a measurement");
          } else {
            rec.notes.push_back("runs per charge unknown: energy not measured");
          }
        }
      }
    }
    out.push_back(std::move(rec));
  }
  return out;
}

std::string recommendations_csv(const std::vector<Recommendation>& recs) {
  bool with_batch = false, with_points = false;
  for (const auto& rec : recs) {
    with_batch = with_batch || !rec.batch.empty();
    with_points = with_points || rec.has_points();
  }
  std::string out = std::string(kRecommendationCsvHeader) +
                    (with_points ? ",operating_point" : "") + (with_batch ? ",batch" : "") +
                    (with_points ? ",cpu_point,gpu_point" : "") + "\r\n";
  for (const auto& rec : recs) {
    auto num = [](const std::optional<double>& v) { return v ? fmt_double(*v) : std::string(); };
    std::vector<std::string> fields{
        rec.workload,
        rec.size,
        objective_name(rec.objective),
        rec.choice,
        num(rec.cpu_value()),
        num(rec.gpu_value()),
        num(rec.ratio),
        rec.confident ? (*rec.confident ? "true" : "false") : "",
        rec.runs_per_charge ? std::to_string(*rec.runs_per_charge) : ""};
    if (with_points) fields.push_back(rec.operating_point);
    if (with_batch) fields.push_back(rec.batch);
    if (with_points) {
      fields.push_back(rec.cpu_point());
      fields.push_back(rec.gpu_point());
    }
    out += csv_line(fields);
  }
  return out;
}

std::string recommendation_sentence(const Recommendation& rec, const RecommendOptions& options) {
  std::string s = rec.workload + "/" + rec.size;
  for (const auto& [column, value] : rec.extra_identity) s += "/" + column + "=" + value;
  s += ": ";
  const std::string label = objective_label(rec.objective);
  auto describe = [&](const std::optional<DeviceStanding>& d) {
    std::string t = html::upper(d->label);
    if (!d->point.empty()) t += " at " + d->point;
    if (d->time_s) t += " " + plain(*d->time_s) + " s";
    return t;
  };
  size_t first_note = 0;
  if (!rec.decided()) {
    s += "undecided";
    if (!rec.notes.empty()) s += " \xE2\x80\x94 " + rec.notes[first_note++];
  } else if (rec.choice == "none") {
    first_note = 1;             // "no device meets the deadline" is this sentence
    s += "none \xE2\x80\x94 ";  // em dash
    std::string who;
    for (const auto* d : {&rec.cpu, &rec.gpu})
      if (*d) who += (who.empty() ? "" : ", ") + describe(*d);
    s += "no device meets the " + format("%g s", options.deadline_s.value_or(0)) + " deadline (" +
         who + ")";
  } else {
    const bool cpu_chosen = rec.choice == "cpu";
    std::string other = cpu_chosen ? "GPU" : "CPU";
    const std::string other_point = cpu_chosen ? rec.gpu_point() : rec.cpu_point();
    if (!other_point.empty()) other += " at " + other_point;
    s += html::upper(rec.choice) +
         (rec.operating_point.empty() ? "" : " at " + rec.operating_point) + " \xE2\x80\x94 ";
    if (rec.ratio) {
      std::string comparison;
      switch (rec.objective) {
        case Objective::time:
          comparison = format_ratio(*rec.ratio) + " faster than " + other;
          break;
        case Objective::energy:
          comparison = format_ratio(*rec.ratio) + " less energy than " + other;
          break;
        default:
          comparison = format_ratio(*rec.ratio) + " lower EDP than " + other;
      }
      s += comparison;
      if (rec.confident)
        s += *rec.confident ? " (confident)" : " (not confident: the 95% CIs overlap)";
    } else {
      const auto& chosen = cpu_chosen ? rec.cpu : rec.gpu;
      const auto& missing = cpu_chosen ? rec.gpu : rec.cpu;
      if (missing && !missing->meets_deadline)
        s += "the only device that meets the deadline";
      else
        s += "the only device with a successful run";
      if (chosen && chosen->value)
        s += " (" + label + " " + format_value(rec.objective, *chosen->value) + ")";
    }
    if (rec.runs_per_charge && options.battery_wh)
      s += "; " + std::to_string(*rec.runs_per_charge) + " runs per " +
           format("%g", *options.battery_wh) + " Wh charge";
  }
  for (size_t i = first_note; i < rec.notes.size(); ++i) s += "\n    " + rec.notes[i];
  return s;
}

std::string recommendations_text(const std::vector<Recommendation>& recs,
                                 const RecommendOptions& options) {
  std::string out = "Recommendation (objective: " + objective_label(options.objective);
  if (options.deadline_s) out += ", deadline " + format("%g s", *options.deadline_s);
  if (options.battery_wh) out += ", battery " + format("%g Wh", *options.battery_wh);
  out += ")\n";
  for (const auto& rec : recs) out += recommendation_sentence(rec, options) + "\n";
  return out;
}

bool any_decided(const std::vector<Recommendation>& recs) {
  for (const auto& r : recs)
    if (r.decided()) return true;
  return false;
}

std::vector<BatchCrossover> batch_crossovers(const CsvTable& results,
                                             const RecommendOptions& options) {
  // (workload, size) -> n -> best qualifying per-sample value per kind.
  struct Best {
    std::optional<double> cpu_time, gpu_time, cpu_energy, gpu_energy;
  };
  std::vector<std::pair<std::string, std::string>> order;
  std::map<std::pair<std::string, std::string>, std::map<int64_t, Best>> groups;
  bool energy_measured = false;
  auto keep_min = [](std::optional<double>& slot, const std::optional<double>& v) {
    if (v && (!slot || *v < *slot)) slot = v;
  };
  for (size_t r = 0; r < results.rows.size(); ++r) {
    const auto key = std::make_pair(results.get(r, col::workload), results.get(r, col::size));
    auto [git, fresh] = groups.try_emplace(key);
    if (fresh) order.push_back(key);
    const auto n = parse_count(results.get(r, col::n));
    if (!n || *n <= 0) continue;
    Best& best = git->second[*n];
    const std::string kind = device_kind(results.get(r, col::device));
    if (results.get(r, col::status) != "ok" || (kind != "cpu" && kind != "gpu")) continue;
    const auto time_s = number_at(results, r, col::time_s_mean);
    if (options.deadline_s && !(time_s && *time_s <= *options.deadline_s)) continue;
    const auto iterations = number_at(results, r, col::iterations);
    // A time or an energy of zero or less is not a measurement (a damaged or
    // hand-edited file): it would be the best of its N and move the crossover.
    auto per_sample = [&](const std::string& column, const std::string& total) {
      std::optional<double> v = number_at(results, r, column);
      if (!v) {
        const auto t = number_at(results, r, total);
        if (t && iterations && *iterations > 0) v = *t / (*n * *iterations);
      }
      if (v && *v > 0) return v;
      return std::optional<double>();
    };
    const auto time = per_sample(col::time_per_sample_s_mean, col::time_s_mean);
    const auto energy = per_sample(col::energy_per_sample_j_mean, col::energy_j_mean);
    if (energy) energy_measured = true;
    keep_min(kind == "cpu" ? best.cpu_time : best.gpu_time, time);
    keep_min(kind == "cpu" ? best.cpu_energy : best.gpu_energy, energy);
  }
  std::vector<BatchCrossover> out;
  for (const auto& key : order) {
    std::vector<CrossoverPoint> by_time, by_energy;
    for (const auto& [n, best] : groups[key]) {
      by_time.push_back({n, best.cpu_time, best.gpu_time});
      by_energy.push_back({n, best.cpu_energy, best.gpu_energy});
    }
    BatchCrossover c;
    c.workload = key.first;
    c.size = key.second;
    c.by_time = find_crossover(by_time);
    if (energy_measured) c.by_energy = find_crossover(by_energy);
    out.push_back(std::move(c));
  }
  return out;
}

std::string crossovers_text(const std::vector<BatchCrossover>& crossovers) {
  if (crossovers.empty()) return "";
  std::string out = "Crossover (batch study, per sample)\n";
  for (const auto& c : crossovers) {
    out += c.workload + "/" + c.size + ": by time, " + crossover_text(c.by_time) + "; by energy, " +
           (c.by_energy ? crossover_text(*c.by_energy) : std::string("not measured")) + "\n";
  }
  return out;
}

}  // namespace edp::report
