// A monitor's windows in edpbench's own files (DESIGN §5, §11): recorded runs
// become report::ItemRecord/PartRecords, written by the same row functions `run` uses
// (report/results_csv.h), so `recommend`, `report` and `compare` read them.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "common/atomic_file.h"
#include "common/dir_lock.h"
#include "common/run_context.h"
#include "common/safe_file.h"
#include "common/text.h"
#include "edpbench/config.h"
#include "monitor/monitor_impl.h"
#include "report/columns.h"
#include "report/csv.h"
#include "report/json_read.h"
#include "report/results_csv.h"

namespace edpbench {

namespace {

// A label field: non-empty, printable UTF-8, at most 200 characters, no '/' (the
// separator of the configuration's key, monitor/<workload>/<size>/<device>:
// ("a/b", "c") and ("a", "b/c") would share one).
void check_label(const char* what, const std::string& v) {
  if (v.empty()) throw Error(std::string("record: ") + what + " must not be empty");
  if (v.size() > 200)
    throw Error(std::string("record: ") + what + " is longer than 200 characters");
  for (const unsigned char c : v)
    if (c < 0x20 || c == 0x7f)
      throw Error(std::string("record: ") + what + " '" + v +
                  "' contains a control character; use letters, digits, '_' or '-'");
  try {
    (void)nlohmann::json(v).dump();  // context.json lists the keys: JSON is UTF-8
  } catch (const nlohmann::json::exception&) {
    throw Error(std::string("record: ") + what + " (" + std::to_string(v.size()) +
                " bytes) is not valid UTF-8; pass the label as UTF-8 text");
  }
  // C1 controls (CSI), bidirectional controls: the rules every label of
  // edpbench follows (measure --label, a config's names).
  if (const std::string why = edp::label_problem(v, 200); !why.empty())
    throw Error(std::string("record: ") + what + " '" + edp::terminal_text(v) + "' " + why);
  if (v.find('/') != std::string::npos)
    throw Error(std::string("record: ") + what + " '" + v +
                "' contains '/', the separator of the configuration's key "
                "(monitor/<workload>/<size>/<device>); use '_' or '-' instead");
}

edp::report::RunRecord run_record(const WindowResult& w, double final_loss) {
  edp::report::RunRecord r;
  // The window's fields, one table for both (edpbench/window_fields.h).
#define EDP_COPY_FIELD(type, field, initial, kind) r.field = w.field;
  EDPBENCH_WINDOW_FIELDS(EDP_COPY_FIELD)
#undef EDP_COPY_FIELD
  r.final_loss = final_loss;
  for (const auto& rail : w.rails) r.rails.push_back({rail.rail, rail.energy_j, rail.power_w_mean});
  r.note = w.problem.empty() ? w.note : w.problem + (w.note.empty() ? "" : "; " + w.note);
  return r;
}

// The new text of `path`: the rows already there whose key is not in
// `keys`, then `rows`. An existing file with other columns, or a symbolic
// link (planted: the merge would read another file's rows), is refused,
// never mixed. Nothing is written here: write() merges every file first, so
// a refused one leaves the directory as it was.
std::string merged_csv(const std::string& path, const std::vector<std::string>& columns,
                       const std::set<std::string>& keys,
                       const std::vector<std::vector<std::string>>& rows) {
  edp::report::CsvTable t;
  t.header = columns;
  if (std::filesystem::is_symlink(path))
    throw Error(path + " is a symbolic link; remove it, or write into a new directory");
  if (std::filesystem::exists(path)) {
    try {
      t = edp::report::read_csv_file(path);
    } catch (const std::exception& e) {
      throw Error(std::string("cannot merge into ") + path + ": " + e.what() +
                  "; write into a new directory");
    }
    if (t.header != columns) {
      // Name the first column that differs: "58 against 58" said nothing.
      size_t i = 0;
      while (i < t.header.size() && i < columns.size() && t.header[i] == columns[i]) ++i;
      const std::string have =
          i < t.header.size() ? "'" + edp::escaped_excerpt(t.header[i], 40) + "'" : "nothing";
      const std::string want = i < columns.size() ? "'" + columns[i] + "'" : "nothing";
      throw Error(path + " has other columns than this edpbench version writes (column " +
                  std::to_string(i + 1) + " is " + have + ", where it writes " + want +
                  "); write the monitor's results into a new directory");
    }
  }
  const int key = t.column(edp::report::col::key);
  std::string out = edp::report::csv_line(t.header);
  for (const auto& row : t.rows)
    if (key < 0 || !keys.count(row[static_cast<size_t>(key)])) out += edp::report::csv_line(row);
  for (const auto& row : rows) out += edp::report::csv_line(row);
  return out;
}

// Watts and seconds to the microunit: more digits than any sensor resolves
// would only be noise in context.json and the report (1.999998317125005).
double micro(double v) { return std::isfinite(v) ? std::round(v * 1e6) / 1e6 : v; }

std::map<std::string, double> micro(const std::map<std::string, double>& rails_w) {
  std::map<std::string, double> out;
  for (const auto& [rail, w] : rails_w) out[rail] = micro(w);
  return out;
}

// The configurations `dir` already holds that this monitor did not write
// (context.json's monitor.writers names who wrote each), with their runs:
// "monitor/w/s/cpu (5 runs, by host:1234:...)". A key with rows but no
// writer (a file from an older version) is someone else's too.
std::vector<std::string> foreign_rows(const std::string& dir, const std::set<std::string>& keys,
                                      const std::map<std::string, std::string>& writers,
                                      const std::string& me) {
  const std::string path = dir + "/results.csv";
  if (std::filesystem::is_symlink(path) || !std::filesystem::exists(path)) return {};
  edp::report::CsvTable t;
  try {
    t = edp::report::read_csv_file(path);
  } catch (const std::exception&) {
    return {};  // merged_csv says what is wrong with it
  }
  const int key = t.column("key"), runs = t.column("runs");
  std::vector<std::string> out;
  for (const auto& row : t.rows) {
    if (key < 0 || !keys.count(row[static_cast<size_t>(key)])) continue;
    const std::string& k = row[static_cast<size_t>(key)];
    const auto w = writers.find(k);
    const bool known = w != writers.end();
    if (known && w->second == me) continue;
    out.push_back(k + " (" + (runs >= 0 ? row[static_cast<size_t>(runs)] : "?") + " runs, " +
                  (known ? "written by monitor " + w->second : "written by another monitor") + ")");
  }
  return out;
}

// The output directory's lock (common/dir_lock.h), as `run` takes it: a
// write reads the files, merges its rows and rewrites them, so two writers
// at once (two monitors, two processes) would lose each other's rows.
// Another monitor's write holds it for milliseconds: wait for it; a sweep of
// `run` holds it for hours: after 10 s, say who holds it.
std::unique_ptr<edp::DirLock> lock_output_dir(const std::string& dir) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (;;) {
    try {
      return std::make_unique<edp::DirLock>(dir);
    } catch (const edp::DirBusy& e) {
      if (std::chrono::steady_clock::now() >= give_up)
        throw Error(std::string("write: ") + e.what());
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    } catch (const std::exception& e) {
      throw Error(std::string("write: ") + e.what());
    }
  }
}

// I/O errors (std::runtime_error from the writers) as edpbench::Error.
template <class F>
void guarded_io(F&& f) {
  try {
    f();
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(e.what());
  }
}

}  // namespace

void Monitor::record(const RunLabel& label, const WindowResult& result) {
  check_label("workload", label.workload);
  check_label("size", label.size);
  check_label("device", label.device);
  if (label.iterations < 1)
    throw Error("record: iterations must be at least 1, got " + std::to_string(label.iterations));
  if (label.n < 0 || label.d_in < 0 || label.h < 0 || label.d_out < 0 || label.threads < 0)
    throw Error("record: n, d_in, h, d_out and threads must not be negative");
  std::lock_guard<std::mutex> lock(impl_->mutex);
  auto& configs = impl_->configs;
  auto it = std::find_if(configs.begin(), configs.end(), [&](const edp::report::ItemRecord& i) {
    const auto& c = i.parts.front();
    return c.workload == label.workload && c.size == label.size && c.device == label.device;
  });
  if (it == configs.end()) {
    edp::report::ItemRecord item;
    item.study = "monitor";
    item.key = "monitor/" + label.workload + "/" + label.size + "/" + label.device;
    item.label = label.workload + "/" + label.size;
    item.device = label.device;
    if (label.n > 0) {
      item.values["n"] = static_cast<double>(label.n);
      item.values["d_in"] = static_cast<double>(label.d_in);
      item.values["h"] = static_cast<double>(label.h);
      item.values["d_out"] = static_cast<double>(label.d_out);
    }
    edp::report::PartRecord c;
    c.study = item.study;
    c.key = item.key;
    c.workload = label.workload;
    c.size = label.size;
    c.device = label.device;
    // 0: the threads the window counted (WindowResult::threads), if any.
    c.threads = label.threads > 0 ? label.threads : result.threads;
    c.iterations = label.iterations;
    c.power_source = impl_->session.meter().source_name();
    c.energy_rails = edp::join(impl_->session.total_rails(), "+");
    c.stop_reason = "windows recorded by the monitor API";
    item.parts.push_back(c);
    configs.push_back(item);
    it = configs.end() - 1;
  } else if (it->parts.front().iterations != label.iterations) {
    throw Error("record: " + it->key +
                " was recorded with iterations=" + std::to_string(it->parts.front().iterations) +
                ", now " + std::to_string(label.iterations) +
                "; runs of one configuration must have the same number of steps");
  }
  edp::report::PartRecord& part = it->parts.front();
  edp::report::RunRecord r = run_record(result, label.final_loss);
  r.run = static_cast<int>(part.run_records.size()) + 1;
  part.run_records.push_back(r);
  part.runs = static_cast<int>(part.run_records.size());
  part.baseline_w = result.baseline_w;
  if (!result.timeline.empty()) {
    edp::report::WindowSamples w;
    w.study = it->study;
    w.key = it->key;
    w.workload = part.workload;
    w.run = r.run;
    w.rails = result.timeline.rails;
    w.t_s = result.timeline.t_s;
    w.power_w = result.timeline.power_w;
    w.corrected_w = result.timeline.corrected_power_w;
    impl_->timelines.push_back(std::move(w));
  }
  if (!result.problem.empty()) {
    part.status = it->status = "failed";
    if (part.note.empty()) part.note = "run " + std::to_string(r.run) + ": " + result.problem;
  }
}

void Monitor::write(const std::string& dir) const {
  if (dir.empty()) throw Error("write: the output directory must not be empty");
  std::vector<edp::report::ItemRecord> configs;
  std::vector<edp::report::WindowSamples> timelines;
  IdleResult idle;
  bool have_idle;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    configs = impl_->configs;
    timelines = impl_->timelines;
    idle = impl_->idle;
    have_idle = impl_->have_idle;
  }
  if (configs.empty())
    throw Error("write: nothing recorded; call record(label, result) for each window first");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error("cannot create " + dir + ": " + ec.message());
  const auto dir_lock = lock_output_dir(dir);

  std::set<std::string> keys;
  std::vector<std::vector<std::string>> results, runs, rails;
  for (const auto& item : configs) {
    const edp::report::PartRecord& c = item.parts.front();
    keys.insert(c.key);
    results.push_back(edp::report::results_row(item, c));
    for (auto& r : edp::report::runs_rows(c)) runs.push_back(std::move(r));
    for (auto& r : edp::report::rails_rows(c)) rails.push_back(std::move(r));
  }
  // The interval windows were judged by (observed, else stated); null while
  // unknown.
  const double interval = impl_->session.update_interval_s();
  guarded_io([&] {
    if (std::filesystem::is_symlink(dir + "/context.json"))
      throw Error(dir +
                  "/context.json is a symbolic link; remove it, or write into a new directory");
    // Read before anything is rewritten, through the one reader of untrusted
    // files: a FIFO there hung write() with the directory locked.
    const std::string path = dir + "/context.json";
    const auto context_text =
        edp::read_untrusted_file_if_present(path, edp::file_kind::context_json);
    // context.json (common/run_context.h), as `run` writes it: in a new
    // directory the session's part (version, board, build, power); in one
    // with a context.json (`run`'s, an earlier monitor's) everything it says
    // is kept. It is parsed before any file is rewritten, too.
    edp::RunContext ctx;
    if (context_text) {
      // First by the report's reader, whose depth limit (200) keeps
      // nlohmann's recursive parse off a hostile nesting (a 100000-deep
      // context.json crashed write() after the CSVs were rewritten).
      try {
        edp::report::parse_json(*context_text, path);
      } catch (const std::runtime_error& e) {
        throw Error(std::string(e.what()) + "; write the monitor's results into a new directory");
      }
      try {
        ctx = edp::run_context_from_json(*context_text);
      } catch (const std::exception&) {
        throw Error(path +
                    " is not a JSON object; write the monitor's results into a new directory");
      }
    }
    // This monitor's session as context.json's `power` describes one.
    const auto own_power = [&] {
      edp::PowerContext p = impl_->session.context().power;
      p.baseline_s.reset();            // the monitor's idle baselines are measure_idle's
      p.total_rails_why = impl_->why;  // with the settling note, if any
      // The interval windows were judged by (observed, else stated).
      p.update_interval_s = interval > 0 ? micro(interval) : 0;
      // The idle baseline as `run` writes it: per rail and total, so the
      // report shows one, not "no idle baseline" beside its total.
      if (have_idle && !idle.rails_w.empty()) p.baseline_w = micro(idle.rails_w);
      if (have_idle && !std::isnan(idle.power_w)) p.baseline_total_w = micro(idle.power_w);
      return p;
    };
    const bool own_context = !context_text;
    if (own_context) {
      ctx = impl_->session.context();
      ctx.power = own_power();
      ctx.complete = true;
      ctx.start_time = edp::utc_now();
    }
    // Rows of the same configuration that another monitor wrote (another
    // process, an earlier script) are kept, never replaced: refuse, and say
    // how to keep both.
    std::map<std::string, std::string> writers;
    if (ctx.monitor) writers = ctx.monitor->writers;
    const std::vector<std::string> foreign = foreign_rows(dir, keys, writers, impl_->writer);
    if (!foreign.empty())
      throw Error("write: " + dir + "/results.csv already holds " + edp::join(foreign, "; ") +
                  "; a monitor replaces only the rows it wrote itself. Nothing was written: "
                  "write into another directory, or record under another workload, size or "
                  "device label to keep both");
    const std::string runs_text =
        merged_csv(dir + "/runs.csv", edp::report::runs_columns(), keys, runs);
    const std::string rails_text =
        merged_csv(dir + "/rails.csv", edp::report::rails_columns(), keys, rails);
    const std::string results_text =
        merged_csv(dir + "/results.csv", edp::report::results_columns(), keys, results);
    // samples.csv when a window kept its timeline (or the file is there:
    // this monitor's configurations are replaced in it too).
    std::string samples_text;
    const bool write_samples = !timelines.empty() || std::filesystem::exists(dir + "/samples.csv");
    if (write_samples) {
      std::vector<std::vector<std::string>> samples;
      for (const auto& w : timelines)
        for (auto& row : edp::report::samples_rows(w)) samples.push_back(std::move(row));
      samples_text =
          merged_csv(dir + "/samples.csv", edp::report::samples_columns(), keys, samples);
    }
    // results.csv last: like `run`, it is the file that says a row is done.
    edp::write_file_atomic(dir + "/runs.csv", runs_text);
    edp::write_file_atomic(dir + "/rails.csv", rails_text);
    if (write_samples) edp::write_file_atomic(dir + "/samples.csv", samples_text);
    edp::write_file_atomic(dir + "/results.csv", results_text);

    // The monitor's own section lists its configurations, who wrote each,
    // and its idle baseline.
    ctx.end_time = edp::utc_now();
    edp::MonitorContext mon;
    if (ctx.monitor)
      for (const auto& k : ctx.monitor->configurations)
        if (!keys.count(k)) mon.configurations.push_back(k);
    for (const auto& k : keys) mon.configurations.push_back(k);
    for (const auto& k : keys) writers[k] = impl_->writer;
    mon.writers = writers;
    if (have_idle)
      mon.idle_baseline =
          edp::IdleContext{micro(idle.power_w), micro(idle.rails_w), micro(idle.duration_s),
                           micro(idle.settle_s), micro(idle.start_unix_s)};
    else if (ctx.monitor)
      mon.idle_baseline = ctx.monitor->idle_baseline;  // an earlier monitor's, kept
    // In another writer's directory (a `run`'s), `power` is that writer's:
    // this monitor's session goes into its own section, replacing an earlier
    // monitor's (the latest writer's, as `writers` says who wrote which rows).
    if (!own_context) mon.power = own_power();
    ctx.monitor = mon;
    edp::write_file_atomic(path, edp::to_context_json(ctx));
  });
}

}  // namespace edpbench
