// `edpbench probe [--json] [--sysfs-root DIR]`: prints what the platform
// layer found (src/platform). Data goes to stdout.
#include <iostream>
#include <memory>
#include <string>

#include "cli/command.h"
#include "platform/platform.h"

namespace edp::cli::probe_command {
namespace {

edp::cli::CommandRunner setup(CLI::App& sub) {
  struct Options {
    bool json = false;
    std::string sysfs_root;
  };
  auto opt = std::make_shared<Options>();
  sub.add_flag("--json", opt->json, "Print one JSON object instead of text");
  sub.add_option("--sysfs-root", opt->sysfs_root,
                 "Read /sys, /proc and /etc under DIR (fake trees, containers)")
      ->type_name("DIR");
  return [opt]() {
    const edp::platform::Platform p = edp::platform::probe(opt->sysfs_root);
    if (opt->json) {
      std::cout << edp::platform::to_json(p) << "\n";
    } else {
      std::cout << edp::platform::to_text(p);
    }
    std::cout.flush();
    return std::cout ? 0 : 1;
  };
}

}  // namespace

static edp::cli::CommandRegistration reg(50, "probe", "Print what the platform layer found", setup);

}  // namespace edp::cli::probe_command
