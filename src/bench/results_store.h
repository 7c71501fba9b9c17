// The output directory of a sweep (DESIGN §5): results.csv, runs.csv,
// rails.csv, context.json and the resolved config.yaml. Every file is
// rewritten atomically after each configuration; results.csv is written last
// and is the record of what is complete, so rows of runs/rails that belong to
// no results.csv row (a crash between two renames) are dropped on resume.
#pragma once

#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "report/csv.h"
#include "report/records.h"

namespace edp::bench {

class ResultsStore {
 public:
  // Creates `dir` if needed. With resume=false an existing sweep in `dir` is
  // an error (UsageError); with resume=true its rows are loaded, and
  // `config_yaml` must equal the config.yaml stored there (UsageError naming
  // the first lines that differ).
  ResultsStore(std::string dir, const std::string& config_yaml, bool resume);

  bool done(const std::string& workload, const std::string& size, const std::string& device) const;
  size_t completed() const { return results_.rows.size(); }
  void append(const report::ConfigRecord& c);
  // Writes runs.csv, rails.csv, context.json and then results.csv.
  void flush(const std::string& context_json) const;
  const std::string& dir() const { return dir_; }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }

 private:
  std::string dir_;
  report::CsvTable results_, runs_, rails_;
  std::set<std::tuple<std::string, std::string, std::string>> done_;
};

}  // namespace edp::bench
