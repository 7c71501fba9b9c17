// `edpbench restore [--state FILE] [--sysfs-root DIR]`: puts back the clocks
// and cores that an interrupted sweep with operating points had changed
// (DESIGN §10), from the state file it saved before its first change. Without
// --state it looks where a sweep saves it outside its output directory:
// $STATE_DIRECTORY (systemd), else $XDG_STATE_HOME/edpbench, else
// ~/.local/state/edpbench. Exit 0 when restored or when there was nothing to
// restore, 1 when a file could not be written, 2 for a bad state file or as
// root on the real board without --allow-root. The file is untrusted data:
// only the board's own clock and core files, with values in their ranges, are
// written (platform::validate_state), and no program it names is run.
#include <iostream>
#include <memory>
#include <string>

#include "bench/engine/signals.h"
#include "cli/command.h"
#include "common/text.h"
#include "platform/operating_point.h"

namespace edp::cli::restore_command {
namespace {

edp::cli::CommandRunner setup(CLI::App& sub) {
  struct Options {
    std::string state;
    std::string sysfs_root;
    bool allow_root = false;
  };
  auto opt = std::make_shared<Options>();
  sub.add_option("--state", opt->state,
                 "State file to restore (default: clock-state.txt in the state directory)")
      ->type_name("FILE");
  sub.add_option("--sysfs-root", opt->sysfs_root,
                 "Write /sys under DIR instead of the root the state file records")
      ->type_name("DIR");
  sub.add_flag("--allow-root", opt->allow_root,
               "Restore the real board as root (the state file is still validated; check it "
               "first: the service user can write it)");
  return [opt]() {
    // A signal does not cut a restore short: it finishes, then exits 128 + signal.
    edp::bench::install_stop_handlers();
    const std::vector<std::string> paths = opt->state.empty()
                                               ? edp::platform::state_file_paths("")
                                               : std::vector<std::string>{opt->state};
    edp::platform::ApplyOptions apply;
    apply.allow_root = opt->allow_root;
    const auto r = edp::platform::restore_leftover(paths, opt->sysfs_root, apply);
    if (!r) {
      std::cerr << "edpbench: nothing to restore (no "
                << (paths.empty() ? std::string("state file") : paths.front()) << ")\n";
      return 0;
    }
    std::cerr << "edpbench: restored " << r->written.size() << " file(s)\n";
    for (const auto& w : r->warnings)
      std::cerr << "edpbench: warning: " << edp::terminal_text(w) << "\n";
    for (const auto& w : r->written)
      std::cout << edp::terminal_text(w.path) << "=" << edp::terminal_text(w.value) << "\n";
    std::cout.flush();
    if (const int sig = edp::bench::stop_signal()) return 128 + sig;
    return std::cout ? 0 : 1;
  };
}

}  // namespace

static edp::cli::CommandRegistration reg(
    55, "restore", "Restore the clocks and cores an interrupted sweep changed", setup);

}  // namespace edp::cli::restore_command
