#include "bench/results_store.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>

#include "common/atomic_file.h"
#include "common/errors.h"
#include "common/safe_file.h"
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
// is a file without the `key` column resume needs.
report::CsvTable load_table(const std::string& path, const std::vector<std::string>& columns) {
  report::CsvTable t;
  t.header = columns;
  if (!exists(path)) return t;
  const report::CsvTable old = report::read_csv_file(path);
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
  if (old.column("key") < 0)
    throw UsageError(path +
                     " has no 'key' column (it was written by an older edpbench); resume "
                     "into a new --out directory instead");
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
    if (la != lb)
      return "line " + std::to_string(line) + ": sweep has '" + escaped_excerpt(la, 60) +
             "', now '" + escaped_excerpt(lb, 60) + "'";
  }
}

std::string serialise(const report::CsvTable& t) {
  std::string out = report::csv_line(t.header);
  for (const auto& r : t.rows) out += report::csv_line(r);
  return out;
}

}  // namespace

const std::vector<OutputFile>& output_files() {
  // Commit files after the files whose rows they commit: a study's own
  // files come last, and none of them holds another's rows.
  static const std::vector<OutputFile> files = [] {
    std::vector<OutputFile> f{
        {"runs.csv", report::runs_columns(), false},
        {"rails.csv", report::rails_columns(), false},
        {"results.csv", report::results_columns(), true},
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
  if (resume && exists(cfg_path)) {
    const std::string old = read_untrusted_file(cfg_path, file_kind::sweep_config);
    if (old != config_yaml)
      throw UsageError("--resume: the configuration differs from the one the sweep in " + dir_ +
                       " used (" + first_difference(old, config_yaml) +
                       "); run with the same config and filters, or use a new --out directory");
  }
  for (const OutputFile& f : output_files()) tables_[f.name] = load_table(path(f.name), f.columns);
  // Only items that succeeded are finished: a failed or skipped one (out of
  // memory, a sensor glitch, a GPU that was busy) is measured again, and its
  // old rows are dropped so that it never appears twice.
  for (const OutputFile& f : output_files()) {
    if (!f.commit) continue;
    const report::CsvTable& t = tables_[f.name];
    const int status = t.column("status"), key = t.column("key");
    for (const auto& r : t.rows)
      if (r[static_cast<size_t>(status)] == "ok") done_.insert(r[static_cast<size_t>(key)]);
  }
  for (auto& [name, t] : tables_) {
    const size_t key = static_cast<size_t>(t.column("key"));
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
