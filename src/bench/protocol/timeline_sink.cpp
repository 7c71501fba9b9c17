// samples.csv, appended item by item (see timeline_sink.h).
#include "bench/protocol/timeline_sink.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "common/atomic_file.h"
#include "common/errors.h"
#include "common/safe_file.h"
#include "power/sampler.h"
#include "report/csv.h"

namespace edp::bench {
namespace {

std::string io_error(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

// One CSV record from `text` at `pos` (a quoted field may hold a newline);
// false at the end or for a torn last record (no line end).
bool next_record(const std::string& text, size_t* pos, std::string* record) {
  bool quoted = false;
  for (size_t i = *pos; i < text.size(); ++i) {
    if (text[i] == '"') quoted = !quoted;
    if (text[i] == '\n' && !quoted) {
      *record = text.substr(*pos, i + 1 - *pos);
      *pos = i + 1;
      return true;
    }
  }
  return false;
}

}  // namespace

report::WindowSamples window_samples(const std::string& study, const std::string& key,
                                     const std::string& workload, int run,
                                     const power::Measurement& m) {
  report::WindowSamples w;
  w.study = study;
  w.key = key;
  w.workload = workload;
  w.run = run;
  for (const auto& r : m.rails) w.rails.push_back(r.rail);
  w.t_s = m.timeline.t_s;
  w.power_w = m.timeline.power_w;
  w.corrected_w = m.timeline.corrected_w;
  return w;
}

TimelineSink::TimelineSink(std::string path, double hz, int64_t max_rows, bool resume,
                           const std::function<bool(const std::string& key)>& keep) {
  facts_.file = std::move(path);
  facts_.hz = hz;
  facts_.window_points = power::Sampler::kTimelinePoints;
  facts_.max_rows = max_rows;
  const std::string header = report::csv_line(report::samples_columns());
  std::string kept = header;
  if (resume) {
    const std::string old =
        read_untrusted_file_if_present(facts_.file, file_kind::samples_csv).value_or("");
    size_t pos = 0;
    std::string record;
    if (!old.empty()) {
      if (!next_record(old, &pos, &record) || record != header)
        throw UsageError(facts_.file +
                         ":1: not the header of samples.csv; move the file away to resume");
    }
    while (next_record(old, &pos, &record)) {
      std::vector<std::string> row;
      try {
        row = report::parse_csv_record(record, facts_.file);
      } catch (const std::exception& e) {
        throw UsageError(std::string(e.what()) + "; move the file away to resume");
      }
      if (row.size() != report::samples_columns().size() || !keep(row[1])) continue;
      kept += record;
      ++facts_.rows;
    }
  }
  write_file_atomic(facts_.file, kept);
}

void TimelineSink::add(const std::string& study, const std::string& key,
                       const std::string& workload, int run, const power::Measurement& m) {
  if (m.timeline.empty() || !facts_.full_at.empty()) return;
  const report::WindowSamples w = window_samples(study, key, workload, run, m);
  const auto rows = static_cast<int64_t>(report::samples_row_count(w));
  if (facts_.rows + pending_rows_ + rows > facts_.max_rows) {
    facts_.full_at = key + "/" + workload + "#" + std::to_string(run);
    if (log_)
      log_("edpbench: warning: " + facts_.file + " is full: its cap of " +
           std::to_string(facts_.max_rows) + " rows (power.timeline_max_rows) leaves out " +
           facts_.full_at + " and every later run; raise the cap or lower power.timeline_hz");
    return;
  }
  pending_ += report::samples_csv_text(w);
  pending_rows_ += rows;
}

void TimelineSink::commit() {
  if (pending_.empty()) return;
  // O_NONBLOCK: a FIFO put in the file's place fails here (ENXIO without
  // a reader) rather than hang the sweep; then only the regular file this
  // sweep wrote, with no other name (a hard link), is appended to.
  const int fd =
      ::open(facts_.file.c_str(), O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw std::runtime_error(io_error("cannot append to", facts_.file));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
    ::close(fd);
    throw std::runtime_error(facts_.file +
                             " is no longer the regular file this sweep writes (something "
                             "replaced or linked it): move it away and run with --resume");
  }
  size_t done = 0;
  while (done < pending_.size()) {
    const ssize_t n = ::write(fd, pending_.data() + done, pending_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string err = io_error("cannot write", facts_.file);
      ::close(fd);
      throw std::runtime_error(err);
    }
    done += static_cast<size_t>(n);
  }
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!synced) throw std::runtime_error(io_error("cannot sync", facts_.file));
  facts_.rows += pending_rows_;
  drop();
}

void TimelineSink::drop() {
  pending_.clear();
  pending_rows_ = 0;
}

}  // namespace edp::bench
