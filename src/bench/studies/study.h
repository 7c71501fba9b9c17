// A study (DESIGN §9): turns the config into plan items and turns measured
// item records into rows of its files. It never measures: the protocol does
// (src/bench/protocol/protocol.h), the same way for every study.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/config/config.h"
#include "bench/engine/session.h"
#include "bench/protocol/plan_item.h"
#include "platform/platform.h"
#include "report/csv.h"
#include "report/records.h"
#include "report/section_views.h"
#include "report/study_view.h"

namespace edp::bench {

// Rows per output file ("results.csv" -> rows), in the file's columns.
using FileRows = std::map<std::string, std::vector<std::vector<std::string>>>;

// What an extra pass may read about the machine it runs on, and the session
// it may measure on (its own windows, idle states and pauses: the deploy
// study) with the sweep's config (for another backend of the item's device).
struct PassContext {
  const platform::Platform& platform;
  const std::vector<int>& cpus;  // the item's CPU set (cpu) or launching thread's CPUs (gpu)
  Session& session;
  const Config& cfg;
};

// A file a sweep writes, with its columns (report/*_csv.h), whether its rows
// commit items (its key,status rows say which items are done), and the
// columns its readers require (DESIGN §5): a resume refuses a file without
// them rather than rewrite it with those cells empty.
struct OutputFile {
  std::string name;
  const std::vector<std::string>& columns;
  bool commit;
  const std::vector<std::string>& required;
};

// What one of a study's items would hold, as its study says (Study::memory_needs),
// for the check before anything runs (memory_problems, memory_check.h).
struct MemoryNeed {
  std::string key;   // the config key whose place the problem names: "sizes.wide"
  std::string item;  // "mlp tensors size wide (N=8)", "ops gemm n=4096"
  int64_t bytes = 0;
  std::string fix;            // "make the size smaller": the problem adds "or free memory"
  int64_t largest_bytes = 0;  // its largest tensor (0: unknown), for run_allowance_bytes
};

class Study {
 public:
  virtual ~Study() = default;
  virtual std::string name() const = 0;
  // Items from the config alone (pure: `plan` and the tests call it).
  virtual std::vector<PlanItem> plan(const Config& cfg) const = 0;
  // The file whose `key,status` rows say which items are done (resume).
  virtual std::string commit_file() const = 0;
  // The files only this study writes (name, columns, commit), beside the
  // ones every study writes; its rows() fill them.
  virtual std::vector<OutputFile> own_files() const { return {}; }
  // The rows of one measured item in the study's own files (results.csv for
  // mlp and batch, ops.csv, stages.csv and memory.csv; runs.csv and rails.csv
  // are the engine's: engine_rows), a pure function of its record and of the
  // rows the study's commit file already holds (`committed`: the done items
  // of this sweep and, after --resume, of the earlier one), so a study keeps
  // no state across items and a resumed sweep writes the same rows.
  virtual FileRows rows(const report::ItemRecord& rec, const report::CsvTable& committed) const = 0;
  // How the readers (report, recommend, compare) treat its rows: its
  // section of the page and its identity columns (report/study_view.h).
  // Plain results.csv rows by default.
  virtual report::StudyView view() const { return report::results_view(name()); }
  // Usage errors only this machine can reveal (a working set larger than
  // the memory available), every one found; empty when the plan can run.
  virtual std::vector<std::string> check(const std::vector<PlanItem>&) const { return {}; }
  // What its items would hold in memory, from the config alone, for the
  // check before anything runs (memory_problems, memory_check.h).
  virtual std::vector<MemoryNeed> memory_needs(const Config&) const { return {}; }
  // An optional pass before the item's backend is made, when no context of
  // its device is alive (the runner releases it after every item): the
  // deploy study's cold starts. Its PassContext has no CPUs.
  virtual void before_backend(const PlanItem&, const PassContext&, report::ItemRecord&) const {}
  // An optional extra pass on the item's backend after its parts have been
  // measured, never inside their energy windows (google/benchmark's memory
  // and profiler passes): the stages profile and memory; the deploy study's
  // idle states, wake costs and open-loop runs, in windows of its own. What
  // it finds goes into rec.values. Not called for a skipped item.
  virtual void after_parts(Backend&, const PlanItem&, const PassContext&,
                           report::ItemRecord&) const {}
};

}  // namespace edp::bench
