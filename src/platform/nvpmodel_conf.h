// The whole of an nvpmodel configuration file (/etc/nvpmodel.conf, a link to
// /etc/nvpmodel/nvpmodel_t186.conf on a TX2), as L4T's nvpmodel tool reads
// it. The format, as the header comment of NVIDIA's own file describes it:
//
//   < PARAM TYPE=FILE NAME=CPU_ONLINE >       a parameter: names for files
//   CORE_1 /sys/devices/system/cpu/cpu1/online
//   < PARAM TYPE=CLOCK NAME=GPU >             a clock: FREQ_TABLE, MAX_FREQ,
//   MAX_FREQ /sys/devices/.../max_freq          MIN_FREQ name its files
//   < POWER_MODEL ID=1 NAME=MAXQ >            a mode: "PARAM ARG VALUE" lines;
//   CPU_ONLINE CORE_1 0                         for a CLOCK, -1 means INT_MAX
//   GPU MAX_FREQ 854250000                      (no cap) and 0 as MIN_FREQ the
//   < PM_CONFIG DEFAULT=3 >                     lowest rate
//
// Early L4T releases (R27) wrote modes as "/sys/path value" lines instead;
// those are accepted too. Sources: the header of nvpmodel_t186.conf (L4T
// R28-R32) and NVIDIA's "Power Management for Jetson TX2" (L4T Development
// Guide, "Supported Modes and Power Efficiency"), which lists the five TX2
// modes: 0 MAXN, 1 MAXQ, 2 MAXP_CORE_ALL, 3 MAXP_CORE_ARM, 4 MAXP_CORE_DENVER.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace edp::platform {

struct NvpParam {
  std::string type;                          // "FILE" or "CLOCK"
  std::map<std::string, std::string> files;  // argument name -> absolute path
};

// One line of a mode: PARAM ARG VALUE, or (old format) param "" and arg = path.
struct NvpSetting {
  std::string param;
  std::string arg;
  std::string value;
  int line = 0;
};

struct NvpMode {
  int id = -1;
  std::string name;
  std::vector<NvpSetting> settings;
};

struct NvpmodelConf {
  std::map<std::string, NvpParam> params;
  std::vector<NvpMode> modes;  // in file order
  int default_mode = -1;

  const NvpMode* find(int id) const;
  // "0 MAXN, 1 MAXQ, ..." for error messages.
  std::string mode_list() const;
};

// Parses the text of an nvpmodel.conf. Comments (#) and blank lines are
// skipped; lines that fit no section are ignored, as nvpmodel does.
NvpmodelConf parse_nvpmodel_config(const std::string& text);

}  // namespace edp::platform
