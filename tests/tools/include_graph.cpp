#include "tools/include_graph.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <regex>
#include <stdexcept>

namespace edp::tools {
namespace {

bool is_source(const std::string& name) {
  static const char* const kExtensions[] = {".h", ".hpp", ".cpp", ".cu", ".cuh", ".def", ".inc"};
  for (const char* ext : kExtensions) {
    const std::string e(ext);
    if (name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0)
      return true;
  }
  return false;
}

bool is_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Every source under root/rel, as paths relative to root.
void list_sources(const std::string& root, const std::string& rel, std::vector<std::string>& out) {
  const std::string dir = rel.empty() ? root : root + "/" + rel;
  DIR* d = ::opendir(dir.c_str());
  if (!d) throw std::runtime_error("include graph: cannot read the folder " + dir);
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(d);
  for (const auto& name : names) {
    const std::string path = rel.empty() ? name : rel + "/" + name;
    struct stat st {};
    if (::lstat((root + "/" + path).c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode))
      list_sources(root, path, out);
    else if (S_ISREG(st.st_mode) && is_source(name))
      out.push_back(path);
  }
}

// The path with every link and "." or ".." resolved ("" when it does not exist).
std::string real_path(const std::string& path) {
  char* r = ::realpath(path.c_str(), nullptr);
  if (!r) return "";
  std::string out = r;
  std::free(r);
  return out;
}

std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

// The first folder of `path` under `parent/` ("config" for
// "bench/config/x.h" under "bench"), or "" when it is not in one.
std::string subfolder(const std::string& path, const std::string& parent) {
  const std::string prefix = parent + "/";
  if (path.compare(0, prefix.size(), prefix) != 0) return "";
  const std::string rest = path.substr(prefix.size());
  const auto slash = rest.find('/');
  return slash == std::string::npos ? "" : rest.substr(0, slash);
}

std::string layer_of(const std::string& path) {
  const auto slash = path.find('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

std::string at(const Include& i) {
  return i.from + ":" + std::to_string(i.line) + " includes " + i.to;
}

// Strongly connected components of a directed graph (Tarjan), those with
// more than one node, each sorted, in the order of their smallest node.
std::vector<std::vector<std::string>> cycles_of(
    const std::map<std::string, std::set<std::string>>& edges) {
  std::set<std::string> nodes;
  for (const auto& e : edges) {
    nodes.insert(e.first);
    nodes.insert(e.second.begin(), e.second.end());
  }
  std::map<std::string, int> index, low;
  std::vector<std::string> stack;
  std::set<std::string> on_stack;
  std::vector<std::vector<std::string>> out;
  int next = 0;
  std::function<void(const std::string&)> visit = [&](const std::string& v) {
    index[v] = low[v] = next++;
    stack.push_back(v);
    on_stack.insert(v);
    const auto it = edges.find(v);
    if (it != edges.end())
      for (const auto& w : it->second) {
        if (!index.count(w)) {
          visit(w);
          low[v] = std::min(low[v], low[w]);
        } else if (on_stack.count(w)) {
          low[v] = std::min(low[v], index[w]);
        }
      }
    if (low[v] != index[v]) return;
    std::vector<std::string> component;
    std::string w;
    do {
      w = stack.back();
      stack.pop_back();
      on_stack.erase(w);
      component.push_back(w);
    } while (w != v);
    if (component.size() > 1) {
      std::sort(component.begin(), component.end());
      out.push_back(component);
    }
  };
  for (const auto& v : nodes)
    if (!index.count(v)) visit(v);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<Include> read_includes(const std::string& root) {
  std::vector<std::string> files;
  list_sources(root, "", files);
  std::sort(files.begin(), files.end());
  // "..." and <...>: src/ is on every target's include path, so <report/csv.h>
  // reaches src/report/csv.h as "report/csv.h" does.
  static const std::regex kInclude(R"re(^\s*#\s*include\s*([<"])([^>"]+)[>"])re");
  const std::string real_root = real_path(root);
  std::vector<Include> out;
  for (const auto& file : files) {
    std::ifstream in(root + "/" + file);
    if (!in) throw std::runtime_error("include graph: cannot read " + root + "/" + file);
    std::string text;
    int line = 0;
    while (std::getline(in, text)) {
      ++line;
      std::smatch m;
      if (!std::regex_search(text, m, kInclude)) continue;
      const bool quoted = m[1] == "\"";
      const std::string named = m[2];
      // A quoted name is looked up beside the file first, as the
      // preprocessor does; either is resolved on the file system, so a path
      // that climbs out of src/ and back in ("../../src/report/csv.h") is
      // the file it reaches.
      std::vector<std::string> candidates;
      if (quoted) candidates.push_back(root + "/" + folder_of(file) + "/" + named);
      candidates.push_back(root + "/" + named);
      for (const std::string& candidate : candidates) {
        if (!is_file(candidate)) continue;
        const std::string real = real_path(candidate);
        if (real.compare(0, real_root.size() + 1, real_root + "/") == 0)
          out.push_back({file, line, real.substr(real_root.size() + 1)});
        break;  // found, inside src/ or not (a system or build folder's header)
      }
    }
  }
  return out;
}

std::string unit_of(const std::string& path) {
  const auto slash = path.rfind('/');
  const auto dot = path.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return path;
  return path.substr(0, dot);
}

std::string MutualInclude::describe() const {
  return pair() + " (" + at(a_to_b) + "; " + at(b_to_a) + ")";
}

std::vector<MutualInclude> mutual_includes(const std::vector<Include>& includes) {
  // The first include from each unit to each other unit.
  std::map<std::pair<std::string, std::string>, Include> first;
  for (const auto& i : includes) {
    const std::string from = unit_of(i.from), to = unit_of(i.to);
    if (from != to) first.emplace(std::make_pair(from, to), i);
  }
  std::vector<MutualInclude> out;
  for (const auto& e : first) {
    const std::string& a = e.first.first;
    const std::string& b = e.first.second;
    if (!(a < b)) continue;
    const auto back = first.find({b, a});
    if (back != first.end()) out.push_back({a, b, e.second, back->second});
  }
  return out;
}

std::vector<std::string> folder_cycles(const std::vector<Include>& includes,
                                       const std::string& parent) {
  std::map<std::string, std::set<std::string>> edges;
  std::map<std::pair<std::string, std::string>, Include> evidence;
  for (const auto& i : includes) {
    const std::string from = subfolder(i.from, parent), to = subfolder(i.to, parent);
    if (from.empty() || to.empty() || from == to) continue;
    edges[from].insert(to);
    evidence.emplace(std::make_pair(from, to), i);
  }
  std::vector<std::string> out;
  for (const auto& cycle : cycles_of(edges)) {
    std::string line = parent + "/: the folders";
    for (const auto& f : cycle) line += " " + f;
    line += " include each other:";
    const std::set<std::string> in_cycle(cycle.begin(), cycle.end());
    for (const auto& e : evidence)
      if (in_cycle.count(e.first.first) && in_cycle.count(e.first.second))
        line += " " + at(e.second) + ";";
    line.pop_back();
    out.push_back(line);
  }
  return out;
}

const Layers& design_layers() {
  // DESIGN §1: "cli -> bench -> power, workloads, report, platform ->
  // common"; "power, workloads and report must not depend on each other";
  // power "does not depend on platform"; the monitor library and the
  // exporter run "on the same Session" (bench's engine). A layer may use any
  // layer below it, not only the next one (`probe` prints platform's facts).
  static const Layers layers{
      {"common", {}},
      {"platform", {"common"}},
      {"power", {"common"}},
      {"workloads", {"common", "platform"}},
      {"report", {"common", "platform"}},
      {"bench", {"common", "platform", "power", "workloads", "report"}},
      {"monitor", {"common", "platform", "power", "workloads", "report", "bench"}},
      {"cli", {"common", "platform", "power", "workloads", "report", "bench"}},
  };
  return layers;
}

std::vector<std::string> layer_violations(const std::vector<Include>& includes,
                                          const Layers& layers) {
  std::vector<std::string> out;
  std::set<std::string> unplaced;
  for (const auto& i : includes) {
    const std::string from = layer_of(i.from), to = layer_of(i.to);
    for (const std::string& layer : {from, to})
      if (!layer.empty() && !layers.count(layer) && unplaced.insert(layer).second)
        out.push_back(layer + "/ (" + (layer == from ? i.from : i.to) +
                      "): a layer DESIGN §1 does not place; add it to design_layers()");
    if (from == to || from.empty() || to.empty() || !layers.count(from)) continue;
    if (!layers.at(from).count(to))
      out.push_back(at(i) + ": " + from + "/ may not include " + to + "/ (DESIGN §1)");
  }
  return out;
}

}  // namespace edp::tools
