// The one way to read a file that a user or the service user can write
// (DESIGN §5: reading is as untrusted as writing): results and their
// context, configs, traces, state files. Such a file is read only when it is
// a regular file reached without following a link at its last component, and
// no larger than its kind's cap; anything else (a symbolic link, a FIFO, a
// device, a socket, a directory) is refused with a UsageError (exit 2) that
// names the file and says why, before a byte of it is read. Nothing here
// echoes a file's content.
//
// The file is opened with O_NOFOLLOW | O_NONBLOCK and then fstat'd, so a
// planted FIFO cannot block the open (a FIFO opened for reading blocks until
// a writer comes, and a sweep holding its directory lock would wait forever)
// and the type checked is the type of what was opened, not of what a path
// named a moment before. Reads go by chunks, and the check installed with
// set_read_interrupt_check runs between them, so a stop signal ends a long
// read (a slow disk, a pipe that never ends).
//
// Directory components are resolved as usual: `/var/lib/edpbench/latest` may
// be a link to the sweep it names; a link *inside* it is refused.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace edp {

// What a file is (for messages) and the most it may hold.
struct FileKind {
  const char* what;         // "results CSV", "context.json"
  std::uint64_t max_bytes;  // larger is refused before it is read
  // A pipe handed to us as /dev/fd/N (`--config <(...)`): read, interruptibly.
  // A named FIFO is refused whatever this says.
  bool pipe_allowed = false;
};

// The caps, with the size of the largest honest file of each kind.
namespace file_kind {
// A config is a page of settings (configs/default.yaml: 2 KB).
inline constexpr FileKind config{"config", 4ull << 20, true};
// The resolved config a sweep keeps in its --out directory, compared on resume.
inline constexpr FileKind sweep_config{"sweep's config.yaml", 4ull << 20};
// results.csv, runs.csv, rails.csv, ops.csv, stages.csv, memory.csv: at most
// ~600 bytes a row, so 64 MiB is more than 100 000 runs (the paper's sweep:
// 270). A larger file is not one of ours, or needs splitting.
inline constexpr FileKind results_csv{"results CSV", 64ull << 20};
// context.json: a few KB (a baseline per device state and point).
inline constexpr FileKind context_json{"context.json", 16ull << 20};
// The clock state file a sweep with operating points saves (clock-state.txt):
// a few hundred bytes, one line per clock or core file.
inline constexpr FileKind clock_state{"clock state file", 1ull << 20};
// A power trace (t_s,<rail>_w,...): an hour at 1 kHz with 8 rails is ~50 MB.
inline constexpr FileKind trace_csv{"power trace", 64ull << 20};
// samples.csv, read back on --resume and by the report:
// power.timeline_max_rows (at most 1e7 rows of about 100 bytes) is the real
// bound; more than 4 GiB is not one of ours.
inline constexpr FileKind samples_csv{"samples.csv", 4ull << 30};
}  // namespace file_kind

// The whole file. UsageError naming `path` when it is missing, is not a
// regular file, is larger than kind.max_bytes or cannot be read.
std::string read_untrusted_file(const std::string& path, const FileKind& kind);

// The same, but nullopt when nothing is at `path` (ENOENT): the caller says
// what a missing file means. A dangling symbolic link is not "nothing": it is
// refused as a link.
std::optional<std::string> read_untrusted_file_if_present(const std::string& path,
                                                          const FileKind& kind);

// Whether anything is at `path` (lstat: a link, dangling or not, counts).
bool path_present(const std::string& path);
// Whether `path` is a directory (stat: a link to one counts).
bool is_directory(const std::string& path);
// The last component of `path`, trailing slashes ignored ("a/b/" -> "b").
std::string path_base_name(std::string path);

// Runs between chunks of a read and while a pipe is waited on; it may throw
// to end the read (bench installs one that throws when a stop signal came).
// nullptr: none.
void set_read_interrupt_check(void (*check)());

// A short piece of a file's text for a message: at most `max` bytes, each
// byte outside printable ASCII written as \xNN, "..." when cut.
std::string escaped_excerpt(const std::string& text, std::size_t max = 32);

}  // namespace edp
