// The sweep runner (DESIGN §3, §9): plans the selected studies, drops the
// items a resumed sweep has done, keeps the baselines, signals and progress,
// measures each item with the one protocol, and hands its record to its
// study's rows and to the store, which flushes atomically after each item.
// It knows nothing study-specific.
#include "bench/sweep/runner.h"

#include <sys/stat.h>

#include "bench/protocol/backend_setup.h"
#include "bench/studies/config_schema.h"
#include "bench/studies/registry.h"
#include "bench/sweep/context_json.h"

#include <chrono>
#include <cmath>
#include <map>
#include <memory>

#include "bench/engine/run_evidence.h"
#include "bench/engine/signals.h"
#include "bench/exporter/sweep_progress.h"
#include "bench/protocol/progress.h"
#include "bench/protocol/protocol.h"
#include "bench/studies/study.h"
#include "bench/sweep/results_store.h"
#include "bench/sweep/sweep.h"
#include "bench/sweep/sweep_preview.h"
#include "common/atomic_file.h"
#include "common/dir_lock.h"
#include "common/errors.h"
#include "edpbench/exporter_config.h"
#include "platform/machine_load.h"
#include "platform/operating_point.h"
#include "workloads/cuda_factory.h"
#if EDPBENCH_HAVE_PROMETHEUS
#include "bench/exporter/exporter_metrics.h"
#endif

namespace edp::bench {
namespace {

struct PlannedItem {
  PlanItem item;
  const Study* study;
};

// The sweep's items (plan_studies: the same list `plan` shows), each with
// the study that writes its rows; every problem at once is a usage error.
std::vector<PlannedItem> plan_run(const Config& cfg,
                                  std::map<std::string, std::unique_ptr<Study>>& studies) {
  SweepPlan plan = plan_studies(cfg);
  if (!plan.problems.empty()) {
    std::string all;
    for (const auto& p : plan.problems) all += (all.empty() ? "" : "\n") + p;
    throw UsageError(all);
  }
  std::vector<PlannedItem> planned;
  for (auto& item : plan.items) {
    auto& study = studies[item.study];
    if (!study) study = make_study(item.study);
    planned.push_back({std::move(item), study.get()});
  }
  return planned;
}

void log_start(const Sweep& s, const ResultsStore& store, size_t left) {
  if (!s.progress) return;
  // The discovery log and the total rails are in the plan summary below.
  if (!s.session.measures_energy())
    s.progress->line("edpbench: warning: no power source; energy columns stay empty");
  for (const auto& l : s.point_log) s.progress->line("edpbench: " + l);
  if (store.completed())
    s.progress->line("edpbench: resuming: " + std::to_string(store.completed()) +
                     " item(s) already done, " + std::to_string(left) + " left");
}

// One item, whatever happens inside it short of a stop request: a failure
// (CUDA out of memory, a bad CPU set) becomes a `failed` record and the
// sweep goes on.
report::ItemRecord measure_or_fail(Sweep& s, const PlanItem& item, const Study& study) {
  report::ItemRecord rec;
  try {
    rec = run_protocol(s.session, s.hooks(study, item), item);
  } catch (const Interrupted&) {
    throw;
  } catch (const std::exception& e) {
    rec = blank_record(s.session, item);
    rec.status = "failed";
    rec.note = e.what();
    for (auto& p : rec.parts) {
      p.status = "failed";
      p.note = e.what();
    }
  }
  // The backend is gone: its CUDA context must not live on through the CPU
  // items and baselines that follow.
  if (item.device->kind == "gpu") cuda_release_device(item.device->index);
  return rec;
}

// Operating points (DESIGN §10): root is refused on the real board first,
// then a state file left by a crash is validated and restored (under this
// run's own sysfs root, whatever root the file records); the points are
// checked against the board and this process's write access before the
// output directory is touched.
void check_points(const Config& cfg, Sweep& s, const RunOptions& opt) {
  if (cfg.operating_points.empty()) return;
  const platform::PrivilegeReport root_check = platform::check_privileges(s.session.platform(), {});
  if (!root_check.ok()) throw UsageError(root_check.message());
  const auto leftover = platform::restore_leftover(platform::state_file_paths(opt.out_dir),
                                                   opt.sysfs_root.empty() ? "/" : opt.sysfs_root);
  if (leftover)
    s.point_log.push_back("restored the clocks a crashed sweep left: " + leftover->summary());
  const auto resolved = platform::validate_points(s.session.platform(), cfg.operating_points);
  const platform::PrivilegeReport access =
      platform::check_privileges(s.session.platform(), resolved);
  if (!access.ok()) throw UsageError(access.message());
}

// Applies the point of `item` when it differs from the one applied; false
// when it cannot be (then every item of that point is failed with why).
bool enter_point(Sweep& s, platform::OperatingPointSession* points, const PlanItem& item,
                 int* current, std::string* failure) {
  if (!points || item.point == *current) return failure->empty();
  *current = item.point;
  failure->clear();
  try {
    const platform::ApplyResult r = points->apply(static_cast<size_t>(item.point));
    s.point_log.push_back(r.summary());
    if (s.progress) s.progress->line("edpbench: operating point " + r.summary());
  } catch (const std::exception& e) {
    *failure = "operating point " + item.point_name + " could not be applied: " + e.what();
    s.point_log.push_back(*failure);
    if (s.progress) s.progress->line("edpbench: " + *failure);
  }
  return failure->empty();
}

void leave_points(Sweep& s, platform::OperatingPointSession* points) {
  if (!points) return;
  try {
    const platform::ApplyResult r = points->restore();
    s.point_log.push_back("restored: " + r.summary());
    if (s.progress) s.progress->line("edpbench: restored the board's clocks: " + r.summary());
  } catch (const std::exception& e) {
    s.point_log.push_back(std::string("restore failed: ") + e.what());
    if (s.progress)
      s.progress->line(std::string("edpbench: error: restoring the clocks failed: ") + e.what() +
                       " (run `edpbench restore` to retry)");
  }
}

// `run --prometheus-textfile DIR`: DIR/edpbench.prom for node_exporter's
// textfile collector, written atomically (a temp file that does not end in
// .prom, then a rename) so the collector never reads half of it. A failed
// write is a warning: the sweep goes on.
class SweepTextfile {
 public:
  SweepTextfile(std::string dir, std::string out_dir) : dir_(std::move(dir)) {
    progress_.out_dir = std::move(out_dir);
  }
  bool enabled() const { return !dir_.empty(); }
  // Refuses what cannot work before the sweep starts (exit 2).
  void check() const {
    if (!enabled()) return;
#if !EDPBENCH_HAVE_PROMETHEUS
    throw UsageError(
        "--prometheus-textfile needs an edpbench built with prometheus-cpp; install "
        "prometheus-cpp-dev and libcpp-httplib-dev and configure again");
#endif
    struct stat st {};
    if (::stat(dir_.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      throw UsageError("--prometheus-textfile " + dir_ +
                       ": not a directory; give node_exporter's "
                       "--collector.textfile.directory (create it first)");
  }
  SweepProgress& progress() { return progress_; }
  void write(Progress* log) {
    if (!enabled()) return;
    progress_.updated_unix_s = unix_now();
#if EDPBENCH_HAVE_PROMETHEUS
    try {
      write_file_atomic(dir_ + "/edpbench.prom", exposition_text(sweep_families(progress_)));
    } catch (const std::exception& e) {
      if (!warned_ && log) log->line(std::string("edpbench: warning: ") + e.what());
      warned_ = true;
    }
#else
    (void)log;
#endif
  }
  static double unix_now() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }

 private:
  std::string dir_;
  SweepProgress progress_;
  bool warned_ = false;
};

// The item's result for the textfile: the means over its first part's runs.
void note_item(SweepProgress* p, const report::ItemRecord& rec) {
  ++p->items_done;
  if (rec.status != "ok") ++p->items_failed;
  p->last_key = rec.key;
  p->last_status = rec.status;
  double t = 0, e = 0, edp = 0;
  size_t n = 0;
  if (!rec.parts.empty())
    for (const auto& r : rec.parts.front().run_records) {
      t += r.time_s;
      e += r.energy_j;
      edp += r.edp_js;
      ++n;
    }
  p->last_time_s = n ? t / static_cast<double>(n) : NAN;
  p->last_energy_j = n ? e / static_cast<double>(n) : NAN;
  p->last_edp_js = n ? edp / static_cast<double>(n) : NAN;
}

}  // namespace

int run_sweep(const Config& cfg, const RunOptions& opt) {
  // Everything that can be wrong with the config or this machine is checked
  // before the output directory is touched, so a fixed config can start
  // afresh in the same --out (and a usage error exits 2, not as a failed row).
  // Every problem is collected and reported at once, as `plan` does.
  Session session(session_options(cfg, opt.sysfs_root));
  session.stop_on(stop_signal);
  Sweep s{cfg, session};
  s.start_time = utc_now();
  std::vector<std::string> problems = cfg.problems;  // the config's own, if kept going
  for (auto& p : machine_problems(cfg, session)) problems.push_back(std::move(p));
  std::map<std::string, std::unique_ptr<Study>> studies;
  std::vector<PlannedItem> planned;
  try {
    planned = plan_run(cfg, studies);
  } catch (const UsageError& e) {
    problems.push_back(e.what());
  }
  SweepTextfile textfile(opt.prometheus_textfile_dir, opt.out_dir);
  try {
    textfile.check();
  } catch (const UsageError& e) {
    problems.push_back(e.what());
  }
  if (!problems.empty()) {
    std::string all;
    for (const auto& p : problems) all += (all.empty() ? "" : "\n") + p;
    throw UsageError(all);
  }
  // One process per output directory, before a state file in it is restored.
  const DirLock lock(opt.out_dir);
  check_points(cfg, s, opt);
  // The sampler thread starts now, before any backend pins this thread: it
  // inherits this thread's CPU mask (unless power.sampler_cpu pins it).
  session.start();

  ResultsStore store(opt.out_dir, to_yaml(cfg), opt.resume);
  // Before anything is rewritten: the earlier sessions' context must agree.
  const EarlierContext earlier = opt.resume ? earlier_context(s, opt.out_dir) : EarlierContext{};
  // samples.csv (power.timeline): appended item by item; a resumed sweep
  // keeps the rows of the items that are done.
  std::unique_ptr<TimelineSink> timeline;
  if (cfg.power.timeline) {
    timeline = std::make_unique<TimelineSink>(
        store.path("samples.csv"), cfg.power.timeline_hz, cfg.power.timeline_max_rows, opt.resume,
        [&store](const std::string& key) { return store.done(key); });
    s.timeline = timeline.get();
  }
  std::unique_ptr<platform::OperatingPointSession> points;
  if (!cfg.operating_points.empty())
    points = std::make_unique<platform::OperatingPointSession>(
        session.platform(), cfg.operating_points, platform::state_file_paths(opt.out_dir));
  install_stop_handlers();
  std::vector<const PlannedItem*> todo;
  double total_flop = 0;
  for (const auto& p : planned) {
    if (store.done(p.item.key)) continue;
    todo.push_back(&p);
    total_flop += p.item.flop_estimate;
  }
  s.progress = std::make_unique<Progress>(total_flop, Progress::stderr_is_tty());
  session.log_to([&s](const std::string& line) { s.progress->line(line); });
  if (timeline) timeline->log_to([&s](const std::string& line) { s.progress->line(line); });
  log_start(s, store, todo.size());
  textfile.progress().items_total = planned.size();
  textfile.progress().items_done = planned.size() - todo.size();
  textfile.progress().started_unix_s = SweepTextfile::unix_now();
  textfile.write(s.progress.get());
  // A neighbour already busy now would be in every number (DESIGN §3).
  if (const std::string busy = platform::busy_warning(
          platform::sample_machine_load(platform::SysfsRoot(opt.sysfs_root), kLoadSampleS));
      !busy.empty())
    s.progress->line("edpbench: warning: " + busy);
  // The same summary `edpbench plan` prints (DESIGN §6), from what is known
  // without measuring: no calibration, the stated update interval only.
  PreviewOptions summary_options;
  summary_options.calibrate = false;
  summary_options.interval_probe_s = 0;
  summary_options.done = [&store](const std::string& key) { return store.done(key); };
  std::string summary = format_preview(preview_sweep(cfg, session, summary_options), opt.verbose);
  while (!summary.empty() && summary.back() == '\n') summary.pop_back();
  s.progress->line(summary);

  int interrupted = 0;
  int failed_now = 0;  // items of this run that failed (not skipped)
  try {
    if (!todo.empty() && takes_sweep_baseline(cfg)) session.baseline_for("host", "the sweep");
    // Without a baseline (baseline_s: 0) nothing has waited for the sensor's
    // period yet: the first windows would go uncorrected.
    if (!todo.empty() && !session.settle())
      s.progress->line("edpbench: warning: the sensor's update interval is still unknown after " +
                       fmt("%g", cfg.power.settle_s) +
                       " s; runs are not lag-corrected and are marked low confidence");
    throw_if_stop_requested();
    int current_point = -1;
    std::string point_failure;
    double through_flop = 0;  // the estimate of the items done, skipped or failed so far
    for (const PlannedItem* p : todo) {
      throw_if_stop_requested();
      report::ItemRecord rec;
      if (enter_point(s, points.get(), p->item, &current_point, &point_failure)) {
        rec = measure_or_fail(s, p->item, *p->study);
      } else {
        rec = blank_record(s.session, p->item);
        rec.status = "failed";
        rec.note = point_failure;
        for (auto& part : rec.parts) {
          part.status = "failed";
          part.note = point_failure;
        }
      }
      if (rec.status == "ok") ++s.measured_ok;
      if (rec.status == "failed") ++failed_now;
      through_flop += p->item.flop_estimate;
      s.progress->reach(through_flop);
      if (s.progress && rec.status != "ok")
        s.progress->status("edpbench: " + p->item.label + ": " + rec.status + ": " + rec.note);
      // Its samples first: a crash before the commit files are written
      // leaves rows of an item that is not done, which resume drops.
      if (timeline && rec.status == "ok") timeline->commit();
      if (timeline && rec.status != "ok") timeline->drop();
      // The engine's rows (runs.csv, rails.csv), then the study's own.
      FileRows rows = engine_rows(rec);
      for (auto& [file, more] : p->study->rows(rec, store.table(p->study->commit_file())))
        for (auto& row : more) rows[file].push_back(std::move(row));
      store.append(rec.key, rows, rec.status == "ok");
      store.flush(context_json(s, false, earlier));
      note_item(&textfile.progress(), rec);
      textfile.write(s.progress.get());
    }
  } catch (const Interrupted& i) {
    interrupted = i.signal;
    if (timeline) timeline->drop();
  }
  leave_points(s, points.get());
  if (s.progress) s.progress->finish();
  store.flush(context_json(s, interrupted == 0, earlier));
  // A failure when nothing could be measured: no item of the sweep at all,
  // or, resumed, none of the items left while one of them failed. A resumed
  // sweep whose items left are skipped ones (a GPU this machine lacks) is
  // finished, as its first run was when it exited 0.
  const bool none_measured =
      !todo.empty() && s.measured_ok == 0 && (store.completed() == 0 || failed_now > 0);
  textfile.progress().status = interrupted ? "interrupted" : none_measured ? "failed" : "finished";
  textfile.write(s.progress.get());
  if (interrupted) {
    if (s.progress)
      s.progress->line("edpbench: interrupted by signal " + std::to_string(interrupted) +
                       "; completed items are saved in " + opt.out_dir +
                       " (continue with --resume)");
    return 128 + interrupted;
  }
  if (none_measured) {
    if (s.progress) s.progress->line("edpbench: error: no item could be measured");
    return 1;
  }
  return 0;
}

}  // namespace edp::bench
