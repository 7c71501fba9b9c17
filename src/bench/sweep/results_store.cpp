#include "bench/sweep/results_store.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>

#include "bench/studies/registry.h"
#include "common/atomic_file.h"
#include "common/errors.h"
#include "common/safe_file.h"
#include "common/text.h"
#include "report/columns.h"
#include "report/report_data.h"
#include "report/results_csv.h"

namespace edp::bench {

namespace {

// lstat: a planted link (dangling or not), FIFO or device counts as there,
// and the reader then refuses it rather than following or skipping it.
bool exists(const std::string& p) { return path_present(p); }

void make_dirs(const std::string& dir) {
  std::string partial;
  std::stringstream ss(dir);
  std::string part;
  if (!dir.empty() && dir[0] == '/') partial = "/";
  while (std::getline(ss, part, '/')) {
    if (part.empty()) continue;
    partial += part + "/";
    if (::mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST)
      throw std::runtime_error("cannot create directory " + partial + ": " + std::strerror(errno));
  }
}

// Loads a CSV written by an earlier run into this version's columns, by
// name: a column this version added (stages.csv's time_s_mean) stays empty
// in the old rows, and the order of the old file's columns does not matter.
// A column this version does not write would be lost, so it is an error, as
// is a file without the `key` column resume needs or without a column its
// readers require (it would be rewritten with those cells empty).
report::CsvTable load_table(const std::string& path, const OutputFile& file) {
  const std::vector<std::string>& columns = file.columns;
  report::CsvTable t;
  t.header = columns;
  if (!exists(path)) return t;
  report::CsvTable old;
  try {
    old = report::read_csv_file(path);
  } catch (const UsageError&) {
    throw;                                 // a link, FIFO or device: refused with its own words
  } catch (const std::runtime_error& e) {  // cut short or edited
    throw UsageError(std::string(e.what()) +
                     ": the sweep's file cannot be read (cut short or "
                     "edited); restore it, or resume into a new --out directory");
  }
  if (old.header.empty() || (old.header.size() == 1 && old.header[0].empty()))
    throw UsageError(path +
                     " is empty (not even its header): delete it to resume the other files, "
                     "or resume into a new --out directory");
  if (old.header == columns) return old;
  std::vector<int> from;  // new column -> old column, or -1
  for (const auto& c : columns) from.push_back(old.column(c));
  for (const auto& c : old.header)
    if (std::find(columns.begin(), columns.end(), c) == columns.end())
      throw UsageError(path + " has a column '" + escaped_excerpt(c) +
                       "' this edpbench version does not write (it was written by a different "
                       "version); resume into a new --out directory instead");
  if (old.column(report::col::key) < 0)
    throw UsageError(path +
                     " has no 'key' column (it was written by an older edpbench); resume "
                     "into a new --out directory instead");
  // A file that commits items needs its status too, required by its readers
  // or not (stages.csv's is an extra): without it every committed row was
  // dropped and measured again (review).
  std::vector<std::string> required = file.required;
  if (file.commit &&
      std::find(required.begin(), required.end(), report::col::status) == required.end())
    required.push_back(report::col::status);
  const std::vector<std::string> missing = report::missing_columns(old, required);
  if (!missing.empty())
    throw UsageError(path + " is not an edpbench " + file.name + ": missing required column" +
                     (missing.size() > 1 ? "s " : " ") + join(missing, ", ") +
                     " (edited, or written by another program); restore it, or resume into a "
                     "new --out directory");
  for (const auto& r : old.rows) {
    std::vector<std::string> row;
    for (int i : from) row.push_back(i < 0 ? std::string() : r[static_cast<size_t>(i)]);
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::string first_difference(const std::string& a, const std::string& b) {
  std::stringstream sa(a), sb(b);
  std::string la, lb;
  int line = 0;
  while (true) {
    ++line;
    const bool ga = static_cast<bool>(std::getline(sa, la));
    const bool gb = static_cast<bool>(std::getline(sb, lb));
    if (!ga && !gb) return "";
    if (!ga) la = "<end>";
    if (!gb) lb = "<end>";
    if (la != lb) {
      // From a little before the first differing character: two long
      // lines that differ past the excerpt's length read the same.
      size_t at = 0;
      while (at < la.size() && at < lb.size() && la[at] == lb[at]) ++at;
      const size_t from = at > 20 ? at - 20 : 0;
      const std::string dots = from > 0 ? "..." : "";
      return "line " + std::to_string(line) + ", column " + std::to_string(at + 1) +
             ": sweep has '" + dots + escaped_excerpt(la.substr(std::min(from, la.size())), 60) +
             "', now '" + dots + escaped_excerpt(lb.substr(std::min(from, lb.size())), 60) + "'";
    }
  }
}

std::string serialise(const report::CsvTable& t) {
  std::string out = report::csv_line(t.header);
  for (const auto& r : t.rows) out += report::csv_line(r);
  return out;
}

// The columns that name one row of a sweep's file: two rows of a committed
// item alike in all of them are one row written twice (the audit's
// duplicated results.csv row was kept and counted twice).
std::vector<int> identity_columns(const report::CsvTable& t) {
  std::vector<int> cols;
  for (const char* c : {"study", "key", "workload", "stage", "tensor", "run", "rail"})
    if (t.column(c) >= 0) cols.push_back(t.column(c));
  return cols;
}

std::string identity(const std::vector<std::string>& row, const std::vector<int>& cols) {
  std::string id;
  for (int c : cols) id += row[static_cast<size_t>(c)] + '\x1f';
  return id;
}

// Resume trusts a directory only when its files agree (issue 33): no
// committed row twice, every configuration results.csv commits with its
// runs in runs.csv (as many as its `runs` says), the other studies' items
// with at least one, rails.csv rows only for runs that exist, and a
// context.json. Otherwise it says which file is short.
void check_integrity(const std::string& dir, const std::map<std::string, report::CsvTable>& tables,
                     const std::set<std::string>& done) {
  const std::string fix =
      ": the sweep's files do not agree (a file deleted, cut short or edited). Restore the "
      "file, or resume into a new --out directory";
  for (const auto& [name, t] : tables) {
    const int key = t.column(report::col::key);
    const auto cols = identity_columns(t);
    std::map<std::string, size_t> seen;
    for (size_t r = 0; r < t.rows.size(); ++r) {
      if (!done.count(t.rows[r][static_cast<size_t>(key)])) continue;
      const auto [it, fresh] = seen.emplace(identity(t.rows[r], cols), r);
      if (!fresh)
        throw UsageError(dir + "/" + name + " row " + std::to_string(r + 1) + " repeats row " +
                         std::to_string(it->second + 1) + " (" +
                         escaped_excerpt(t.rows[r][static_cast<size_t>(key)], 80) + ")" + fix);
    }
  }
  if (done.empty()) return;
  // A committed row is kept as measured: its values must be ones edpbench
  // writes, or report and compare would refuse the sweep resume finished.
  report::check_result_values(tables.at("results.csv"), dir + "/results.csv");
  if (!path_present(dir + "/context.json"))
    throw UsageError(dir + "/context.json is missing but " + std::to_string(done.size()) +
                     " configuration(s) are committed" + fix);
  const report::CsvTable& runs = tables.at("runs.csv");
  std::map<std::string, size_t> runs_of;  // key + workload, and key alone
  std::set<std::string> run_ids;
  const int rk = runs.column(report::col::key), rw = runs.column(report::col::workload),
            rr = runs.column(report::col::run);
  for (const auto& row : runs.rows) {
    const std::string& k = row[static_cast<size_t>(rk)];
    ++runs_of[k + '\x1f' + row[static_cast<size_t>(rw)]];
    ++runs_of[k];
    run_ids.insert(k + '\x1f' + row[static_cast<size_t>(rw)] + '\x1f' +
                   row[static_cast<size_t>(rr)]);
  }
  for (const auto& [name, t] : tables) {
    const int key = t.column(report::col::key), status = t.column(report::col::status);
    if (status < 0 || name == "runs.csv") continue;
    const int runs_col = name == "results.csv" ? t.column(report::col::runs) : -1;
    for (size_t r = 0; r < t.rows.size(); ++r) {
      const auto& row = t.rows[r];
      const std::string& k = row[static_cast<size_t>(key)];
      if (row[static_cast<size_t>(status)] != "ok") continue;
      const std::string label = escaped_excerpt(k, 80);
      if (runs_col >= 0) {
        const auto want = report::parse_count(row[static_cast<size_t>(runs_col)]);
        const auto it = runs_of.find(k + '\x1f' + t.get(r, report::col::workload));
        const size_t have = it == runs_of.end() ? 0 : it->second;
        if (!want || static_cast<size_t>(*want) != have)
          throw UsageError(dir + "/runs.csv has " + std::to_string(have) + " of the " +
                           escaped_excerpt(row[static_cast<size_t>(runs_col)]) +
                           " runs that results.csv row " + std::to_string(r + 1) + " commits for " +
                           label + fix);
      } else if (!runs_of.count(k)) {
        throw UsageError(dir + "/runs.csv has no run of " + label + ", which " + name + " commits" +
                         fix);
      }
    }
  }
  const report::CsvTable& rails = tables.at("rails.csv");
  const int ak = rails.column(report::col::key), aw = rails.column(report::col::workload),
            ar = rails.column(report::col::run);
  for (size_t r = 0; r < rails.rows.size(); ++r) {
    const auto& row = rails.rows[r];
    const std::string& k = row[static_cast<size_t>(ak)];
    if (!done.count(k)) continue;
    if (!run_ids.count(k + '\x1f' + row[static_cast<size_t>(aw)] + '\x1f' +
                       row[static_cast<size_t>(ar)]))
      throw UsageError(dir + "/rails.csv row " + std::to_string(r + 1) + " is a rail of run " +
                       escaped_excerpt(row[static_cast<size_t>(ar)]) + " of " +
                       escaped_excerpt(k, 80) + ", which runs.csv does not have" + fix);
  }
}

}  // namespace

const std::vector<OutputFile>& output_files() {
  // Commit files after the files whose rows they commit: a study's own
  // files come last, and none of them holds another's rows.
  static const std::vector<OutputFile> files = [] {
    std::vector<OutputFile> f{
        {"runs.csv", report::runs_columns(), false, report::required_runs_columns()},
        {"rails.csv", report::rails_columns(), false, report::required_rails_columns()},
        {"results.csv", report::results_columns(), true, report::required_result_columns()},
    };
    for (const auto& study : all_studies())
      for (const OutputFile& own : study->own_files()) f.push_back(own);
    return f;
  }();
  return files;
}

ResultsStore::ResultsStore(std::string dir, const std::string& config_yaml, bool resume)
    : dir_(std::move(dir)) {
  make_dirs(dir_);
  const std::string cfg_path = path("config.yaml");
  const bool have_sweep = exists(path("results.csv")) || exists(cfg_path);
  if (have_sweep && !resume)
    throw UsageError(dir_ +
                     " already holds a sweep; use --resume to continue it, or choose "
                     "another --out directory");
  if (resume && !exists(cfg_path)) {
    // Without it the config check was skipped: a resume could finish a sweep
    // of another config into these files.
    std::vector<std::string> files{"context.json"};
    for (const OutputFile& f : output_files()) files.push_back(f.name);
    for (const std::string& f : files)
      if (exists(path(f)))
        throw UsageError("--resume: " + path("config.yaml") + " is missing but " + path(f) +
                         " is there, so the sweep's config cannot be checked; restore "
                         "config.yaml, or resume into a new --out directory");
  }
  if (resume && exists(cfg_path)) {
    const std::string old = read_untrusted_file(cfg_path, file_kind::sweep_config);
    if (old != config_yaml)
      throw UsageError("--resume: the configuration differs from the one the sweep in " + dir_ +
                       " used (" + first_difference(old, config_yaml) +
                       "); run with the same config and filters, or use a new --out directory");
  }
  for (const OutputFile& f : output_files()) tables_[f.name] = load_table(path(f.name), f);
  // Only items that succeeded are finished: a failed or skipped one (out of
  // memory, a sensor glitch, a GPU that was busy) is measured again, and its
  // old rows are dropped so that it never appears twice.
  for (const OutputFile& f : output_files()) {
    if (!f.commit) continue;
    const report::CsvTable& t = tables_[f.name];
    const int status = t.column(report::col::status), key = t.column(report::col::key);
    for (const auto& r : t.rows)
      if (r[static_cast<size_t>(status)] == "ok") done_.insert(r[static_cast<size_t>(key)]);
  }
  if (resume) check_integrity(dir_, tables_, done_);
  for (auto& [name, t] : tables_) {
    const size_t key = static_cast<size_t>(t.column(report::col::key));
    std::vector<std::vector<std::string>> kept;
    for (auto& r : t.rows)
      if (done(r[key])) kept.push_back(std::move(r));
    t.rows = std::move(kept);
  }
  write_file_atomic(cfg_path, config_yaml);
}

void ResultsStore::append(const std::string& key,
                          const std::map<std::string, std::vector<std::vector<std::string>>>& rows,
                          bool committed) {
  for (const auto& [file, file_rows] : rows) {
    auto it = tables_.find(file);
    if (it == tables_.end()) throw std::logic_error("ResultsStore: no output file named " + file);
    for (const auto& r : file_rows) it->second.rows.push_back(r);
  }
  if (committed) done_.insert(key);
}

void ResultsStore::flush(const std::string& context_json) const {
  auto write = [&](bool commit) {
    for (const OutputFile& f : output_files()) {
      if (f.commit != commit) continue;
      const report::CsvTable& t = tables_.at(f.name);
      const bool always = f.name == "results.csv" || f.name == "runs.csv" || f.name == "rails.csv";
      if (always || !t.rows.empty() || exists(path(f.name)))
        write_file_atomic(path(f.name), serialise(t));
    }
  };
  write(false);
  write_file_atomic(path("context.json"), context_json);
  write(true);
}

}  // namespace edp::bench
