// The output directory of a sweep (DESIGN §5, §9): results.csv, runs.csv,
// rails.csv, the studies' own files (ops.csv, stages.csv, memory.csv),
// context.json and the resolved config.yaml. Every file is rewritten
// atomically after each plan item. Each row carries its item's `key`; the
// commit files (results.csv, ops.csv, stages.csv) are written last and say
// which items are done (status ok), so rows of other files that belong to no
// done item (a crash between two renames, a failed item to measure again)
// are dropped on resume.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "bench/studies/study.h"
#include "report/csv.h"

namespace edp::bench {

class ResultsStore {
 public:
  // Creates `dir` if needed. With resume=false an existing sweep in `dir` is
  // an error (UsageError); with resume=true its rows are loaded, and
  // `config_yaml` must equal the config.yaml stored there (UsageError naming
  // the first lines that differ).
  ResultsStore(std::string dir, const std::string& config_yaml, bool resume);

  bool done(const std::string& key) const { return done_.count(key) > 0; }
  size_t completed() const { return done_.size(); }
  // Rows of one item, per file; `committed` says whether the item is done.
  void append(const std::string& key,
              const std::map<std::string, std::vector<std::vector<std::string>>>& rows,
              bool committed);
  // Writes every file that has rows (results.csv, runs.csv and rails.csv
  // always), the commit files last, then context.json.
  void flush(const std::string& context_json) const;
  const std::string& dir() const { return dir_; }
  // The rows of output file `name` so far (header only when it has none).
  const report::CsvTable& table(const std::string& name) const { return tables_.at(name); }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }

 private:
  std::string dir_;
  std::map<std::string, report::CsvTable> tables_;
  std::set<std::string> done_;
};

// The files a sweep may write, with their columns: the files every study
// writes (runs.csv, rails.csv, results.csv), then each study's own
// (Study::own_files: ops.csv; memory.csv and stages.csv).
const std::vector<OutputFile>& output_files();

}  // namespace edp::bench
