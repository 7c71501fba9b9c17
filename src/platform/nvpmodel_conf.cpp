// nvpmodel.conf parser: see nvpmodel_conf.h for the format and its sources.
#include "platform/nvpmodel_conf.h"

#include <regex>
#include <sstream>

#include "platform/sysfs.h"

namespace edp::platform {

const NvpMode* NvpmodelConf::find(int id) const {
  for (const auto& m : modes) {
    if (m.id == id) return &m;
  }
  return nullptr;
}

std::string NvpmodelConf::mode_list() const {
  std::string s;
  for (const auto& m : modes) s += (s.empty() ? "" : ", ") + std::to_string(m.id) + " " + m.name;
  return s.empty() ? "none" : s;
}

NvpmodelConf parse_nvpmodel_config(const std::string& text) {
  static const std::regex header(R"(^<\s*(\w+)((?:\s+\w+\s*=\s*[^\s>]+)*)\s*>$)");
  static const std::regex attr(R"((\w+)\s*=\s*([^\s>]+))");
  NvpmodelConf conf;
  enum class Section { none, param, mode } section = Section::none;
  std::string param_name;
  std::istringstream in(text);
  std::string raw;
  int line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    const auto hash = raw.find('#');
    const std::string line = trim(hash == std::string::npos ? raw : raw.substr(0, hash));
    if (line.empty()) continue;
    std::smatch m;
    if (line.front() == '<') {
      section = Section::none;
      if (!std::regex_match(line, m, header)) continue;
      std::map<std::string, std::string> attrs;
      const std::string rest = m[2].str();
      for (std::sregex_iterator it(rest.begin(), rest.end(), attr), end; it != end; ++it) {
        attrs[(*it)[1].str()] = (*it)[2].str();
      }
      const std::string kind = m[1].str();
      if (kind == "PARAM" && attrs.count("NAME")) {
        section = Section::param;
        param_name = attrs["NAME"];
        conf.params[param_name].type = attrs.count("TYPE") ? attrs["TYPE"] : "";
      } else if (kind == "POWER_MODEL" && attrs.count("ID")) {
        const auto id = parse_long(attrs["ID"]);
        if (!id || *id < 0 || *id > 999999) continue;
        section = Section::mode;
        conf.modes.push_back({static_cast<int>(*id), attrs["NAME"], {}});
      } else if (kind == "PM_CONFIG" && attrs.count("DEFAULT")) {
        if (const auto d = parse_long(attrs["DEFAULT"])) conf.default_mode = static_cast<int>(*d);
      }
      continue;
    }
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string s; words >> s;) w.push_back(s);
    if (section == Section::param && w.size() == 2) {
      conf.params[param_name].files[w[0]] = w[1];
    } else if (section == Section::mode && w.size() == 3) {
      conf.modes.back().settings.push_back({w[0], w[1], w[2], line_no});
    } else if (section == Section::mode && w.size() == 2 && w[0].front() == '/') {
      conf.modes.back().settings.push_back({"", w[0], w[1], line_no});
    }
  }
  return conf;
}

}  // namespace edp::platform
