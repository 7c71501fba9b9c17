#include "tools/unity_names.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "tools/strings.h"

namespace edp::tools {
namespace {

bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The identifier (with any `::` qualification) that ends just before `end`,
// past blanks, `*` and `&`.
std::string ident_before(const std::string& s, std::size_t end) {
  std::size_t i = end;
  while (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '*' || s[i - 1] == '&')) --i;
  const std::size_t stop = i;
  while (i > 0 && (is_ident_char(s[i - 1]) || s[i - 1] == ':')) --i;
  return s.substr(i, stop - i);
}

// The name a column-0 line of a namespace defines, or "" when it defines
// none a unity batch could see twice (a using-declaration, a forward
// declaration, a template header whose next line is the definition).
std::string defined_name(std::string line) {
  while (starts_with(line, "[[")) {  // [[noreturn]], [[maybe_unused]]
    const std::size_t e = line.find("]]");
    if (e == std::string::npos) return "";
    line.erase(0, line.find_first_not_of(' ', e + 2));
  }
  for (const char* word : {"static ", "inline ", "constexpr ", "extern "})
    while (starts_with(line, word)) line.erase(0, std::string(word).size());
  if (starts_with(line, "template") || starts_with(line, "namespace") ||
      starts_with(line, "using namespace") || starts_with(line, "friend "))
    return "";
  if (starts_with(line, "using ")) {
    const std::size_t eq = line.find('=');
    return eq == std::string::npos ? "" : ident_before(line, eq);
  }
  for (const char* kind : {"enum class ", "enum struct ", "struct ", "class ", "union ", "enum "}) {
    if (!starts_with(line, kind)) continue;
    const bool declaration_only = ends_with(line, ";") && line.find('{') == std::string::npos;
    if (declaration_only) return "";
    std::size_t b = std::string(kind).size(), e = b;
    while (e < line.size() && is_ident_char(line[e])) ++e;
    return line.substr(b, e - b);
  }
  const std::size_t paren = line.find('(');
  const std::size_t init = line.find_first_of("={;[");
  std::string name;
  if (init != std::string::npos && (paren == std::string::npos || init < paren))
    name = ident_before(line, init);  // a variable
  else if (paren != std::string::npos)
    name = ident_before(line, paren);  // a function (or a variable built with parentheses)
  if (name.empty() || name.find("::") != std::string::npos) return "";  // a member's definition
  if (starts_with(name, "operator")) return "";
  const bool macro = std::all_of(name.begin(), name.end(), [](char c) {
    return std::isupper(static_cast<unsigned char>(c)) ||
           std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
  return macro ? "" : name;
}

// What ends a raw string literal that `line` opens and does not close
// (`)delim"`), or "" when it leaves none open. An `R"` counts where a
// literal can start (not inside an identifier like `VDD_SYS_DDR"`), with a
// delimiter of at most 16 characters; ordinary strings are skipped.
std::string open_raw_string(const std::string& line) {
  std::string end;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (!end.empty()) {
      if (line.compare(i, end.size(), end) == 0) {
        i += end.size() - 1;
        end.clear();
      }
      continue;
    }
    if (line[i] == '"') {  // an ordinary string: to its closing quote
      for (++i; i < line.size() && line[i] != '"'; ++i)
        if (line[i] == '\\') ++i;
      continue;
    }
    if (line[i] == '/' && i + 1 < line.size() && line[i + 1] == '/') break;
    const bool starts = line[i] == 'R' && i + 1 < line.size() && line[i + 1] == '"' &&
                        (i == 0 || !is_ident_char(line[i - 1]) || line[i - 1] == 'u' ||
                         line[i - 1] == 'U' || line[i - 1] == 'L' || line[i - 1] == '8');
    if (!starts) continue;
    const std::size_t open = line.find('(', i + 2);
    if (open == std::string::npos || open - i - 2 > 16) continue;
    end = ")" + line.substr(i + 2, open - i - 2) + "\"";
    i = open;
  }
  return end;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("unity names: cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool is_dir(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = ::opendir(dir.c_str());
  if (!d) throw std::runtime_error("unity names: cannot read the folder " + dir);
  while (const dirent* e = ::readdir(d)) {
    const std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

// The .cpp files under root/rel (recursively when `deep`), relative to root.
void cpp_files(const std::string& root, const std::string& rel, bool deep,
               std::vector<std::string>& out) {
  for (const auto& n : entries(root + "/" + rel)) {
    const std::string path = rel + "/" + n;
    if (is_dir(root + "/" + path)) {
      if (deep) cpp_files(root, path, deep, out);
    } else if (ends_with(n, ".cpp")) {
      out.push_back(path);
    }
  }
}

}  // namespace

std::vector<LocalName> local_names(const std::string& text, const std::string& file) {
  std::vector<LocalName> out;
  std::vector<std::string> scopes;  // the column-0 namespaces around a line; "" is anonymous
  std::istringstream in(text);
  std::string line;
  int number = 0;
  std::string raw_end;  // while inside a raw string literal: what ends it, `)delim"`
  while (std::getline(in, line)) {
    ++number;
    if (!raw_end.empty()) {
      const std::size_t e = line.find(raw_end);
      if (e == std::string::npos) continue;
      raw_end = open_raw_string(line.substr(e + raw_end.size()));
      continue;  // a definition never follows a raw string on its line (clang-format)
    }
    const bool col0 = !line.empty() && !std::isspace(static_cast<unsigned char>(line[0]));
    raw_end = open_raw_string(line);
    if (!col0) continue;
    if (line.empty() || std::isspace(static_cast<unsigned char>(line[0])) || line[0] == '#' ||
        line[0] == '/')
      continue;
    if (starts_with(line, "namespace ") && ends_with(line, "{") &&
        line.find(';') == std::string::npos) {
      std::string name = line.substr(10, line.size() - 11);
      while (!name.empty() && name.back() == ' ') name.pop_back();
      scopes.push_back(name);
      continue;
    }
    if (starts_with(line, "}  // namespace")) {
      if (!scopes.empty()) scopes.pop_back();
      continue;
    }
    if (line[0] == '}') continue;
    const bool anonymous = std::find(scopes.begin(), scopes.end(), "") != scopes.end();
    if (!anonymous && !starts_with(line, "static ")) continue;
    const std::string name = defined_name(line);
    if (name.empty()) continue;
    std::string key;
    for (const auto& s : scopes) key += (s.empty() ? "{anonymous}" : s) + "::";
    out.push_back({key + name, file, number});
  }
  return out;
}

std::vector<std::vector<LocalName>> clashing_names(const std::string& root,
                                                   const std::vector<std::string>& files) {
  std::map<std::string, std::vector<LocalName>> by_name;
  for (const auto& f : files) {
    std::set<std::string> seen;  // overloads within one file are one file's business
    for (auto& n : local_names(read_file(root + "/" + f), f))
      if (seen.insert(n.name).second) by_name[n.name].push_back(n);
  }
  std::vector<std::vector<LocalName>> out;
  for (auto& [name, places] : by_name)
    if (places.size() > 1) out.push_back(places);
  return out;
}

std::vector<std::vector<std::string>> unity_groups(const std::string& root) {
  // The INA3221 simulator is compiled into several targets besides its area's
  // (tests/CMakeLists.txt, tests/monitor/ and src/power/CMakeLists.txt).
  const std::string sim = "tests/power/ina3221_sim.cpp";
  std::vector<std::vector<std::string>> groups;
  for (const auto& n : entries(root + "/src")) {
    if (!is_dir(root + "/src/" + n)) continue;
    groups.emplace_back();
    cpp_files(root, "src/" + n, true, groups.back());
    // src/<module>/bench/: each source is a program of its own.
    auto& g = groups.back();
    const std::string programs = "src/" + n + "/bench/";
    g.erase(std::remove_if(g.begin(), g.end(),
                           [&](const std::string& f) { return starts_with(f, programs); }),
            g.end());
  }
  groups.push_back({"src/power/bench/lag_accuracy.cpp", sim});
  for (const auto& n : entries(root + "/tests")) {
    if (!is_dir(root + "/tests/" + n) || n == "support" || n == "fixtures" || n == "monitor")
      continue;
    std::vector<std::string> files;
    cpp_files(root, "tests/" + n, false, files);  // tests/gpu_sim/lib/ is not an area
    files.erase(std::remove(files.begin(), files.end(), "tests/workloads/test_cuda_backend.cpp"),
                files.end());
    if (n == "cli" || n == "bench") files.push_back(sim);
    groups.push_back(files);
  }
  // tests/monitor/: the C++ API's tests and the Python test module, each
  // with the simulator.
  groups.push_back({"tests/monitor/api_test.cpp", sim});
  groups.push_back({"tests/monitor/sim_module.cpp", sim});
  groups.emplace_back();
  cpp_files(root, "python", true, groups.back());
  groups.erase(
      std::remove_if(groups.begin(), groups.end(), [](const auto& g) { return g.size() < 2; }),
      groups.end());
  return groups;
}

}  // namespace edp::tools
