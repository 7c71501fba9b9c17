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
    if (t.header != columns)
      throw Error(path + " has other columns than this edpbench version writes (" +
                  std::to_string(t.header.size()) + " against " + std::to_string(columns.size()) +
                  "); write the monitor's results into a new directory");
  }
  const int key = t.column(edp::report::col::key);
  std::string out = edp::report::csv_line(t.header);
  for (const auto& row : t.rows)
    if (key < 0 || !keys.count(row[static_cast<size_t>(key)])) out += edp::report::csv_line(row);
  for (const auto& row : rows) out += edp::report::csv_line(row);
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
  if (!result.problem.empty()) {
    part.status = it->status = "failed";
    if (part.note.empty()) part.note = "run " + std::to_string(r.run) + ": " + result.problem;
  }
}

void Monitor::write(const std::string& dir) const {
  if (dir.empty()) throw Error("write: the output directory must not be empty");
  std::vector<edp::report::ItemRecord> configs;
  IdleResult idle;
  bool have_idle;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    configs = impl_->configs;
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
  guarded_io([&] {
    if (std::filesystem::is_symlink(dir + "/context.json"))
      throw Error(dir +
                  "/context.json is a symbolic link; remove it, or write into a new directory");
    // results.csv last: like `run`, it is the file that says a row is done.
    const std::string runs_text =
        merged_csv(dir + "/runs.csv", edp::report::runs_columns(), keys, runs);
    const std::string rails_text =
        merged_csv(dir + "/rails.csv", edp::report::rails_columns(), keys, rails);
    const std::string results_text =
        merged_csv(dir + "/results.csv", edp::report::results_columns(), keys, results);
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
      try {
        ctx = edp::run_context_from_json(*context_text);
      } catch (const std::exception&) {
        throw Error(path +
                    " is not a JSON object; write the monitor's results into a new directory");
      }
    } else {
      ctx = impl_->session.context();
      ctx.power.baseline_s.reset();            // the monitor's idle baselines are measure_idle's
      ctx.power.total_rails_why = impl_->why;  // with the settling note, if any
      ctx.complete = true;
      ctx.start_time = edp::utc_now();
    }
    edp::write_file_atomic(dir + "/runs.csv", runs_text);
    edp::write_file_atomic(dir + "/rails.csv", rails_text);
    edp::write_file_atomic(dir + "/results.csv", results_text);

    // The monitor's own section lists its configurations and idle baseline.
    ctx.end_time = edp::utc_now();
    edp::MonitorContext mon;
    if (ctx.monitor)
      for (const auto& k : ctx.monitor->configurations)
        if (!keys.count(k)) mon.configurations.push_back(k);
    for (const auto& k : keys) mon.configurations.push_back(k);
    if (have_idle)
      mon.idle_baseline = edp::IdleContext{idle.power_w, idle.rails_w, idle.duration_s,
                                           idle.settle_s, idle.start_unix_s};
    ctx.monitor = mon;
    edp::write_file_atomic(path, edp::to_context_json(ctx));
  });
}

}  // namespace edpbench
