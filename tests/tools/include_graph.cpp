#include "tools/include_graph.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <regex>
#include <stdexcept>

#include "tools/strings.h"

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

bool is_header(const std::string& path) {
  return ends_with(path, ".h") || ends_with(path, ".hpp") || ends_with(path, ".cuh");
}

bool is_translation_unit(const std::string& path) {
  return ends_with(path, ".cpp") || ends_with(path, ".cu");
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("include graph: cannot read " + path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The text with comments, string and character literals (raw strings too)
// and preprocessor lines blanked, line breaks kept, so that what is left is
// code at the line it was on.
std::string code_only(const std::string& text) {
  std::string out = text;
  size_t i = 0;
  const size_t n = text.size();
  auto blank = [&](size_t from, size_t to) {
    for (size_t k = from; k < to && k < n; ++k)
      if (out[k] != '\n') out[k] = ' ';
  };
  bool line_start = true;
  while (i < n) {
    const char c = text[i];
    if (c == '\n') {
      line_start = true;
      ++i;
      continue;
    }
    if (line_start && (c == ' ' || c == '\t')) {
      ++i;
      continue;
    }
    if (line_start && c == '#') {  // a directive, with its continuation lines
      size_t end = i;
      while (end < n && !(text[end] == '\n' && text[end - 1] != '\\')) ++end;
      blank(i, end);
      i = end;
      continue;
    }
    line_start = false;
    if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      const size_t end = text.find('\n', i);
      blank(i, end == std::string::npos ? n : end);
      i = end == std::string::npos ? n : end;
    } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      const size_t end = text.find("*/", i + 2);
      const size_t stop = end == std::string::npos ? n : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c == 'R' && i + 1 < n && text[i + 1] == '"' &&
               (i == 0 ||
                !(std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_'))) {
      const size_t open = text.find('(', i + 2);
      if (open == std::string::npos) break;
      const std::string close = ")" + text.substr(i + 2, open - i - 2) + "\"";
      const size_t end = text.find(close, open);
      const size_t stop = end == std::string::npos ? n : end + close.size();
      blank(i, stop);
      i = stop;
    } else if (c == '"' || c == '\'') {
      size_t k = i + 1;
      while (k < n && text[k] != c && text[k] != '\n') k += text[k] == '\\' ? 2 : 1;
      blank(i, k + 1);
      i = k + 1;
    } else {
      ++i;
    }
  }
  return out;
}

// A name declared or defined at namespace scope, from its line onwards.
struct Named {
  int line = 0;
  std::string name;  // a function, or the class of Class::member
  bool is_class = false;
  bool body = false;  // followed by { (a definition), not ; (a declaration)
};

// The functions, members (as their class) and classes declared or defined
// at namespace scope in code_only() text: lines that start in column 0
// while every open brace is a named namespace's (or extern "C"'s).
std::vector<Named> namespace_scope_names(const std::string& code) {
  static const std::regex kFunction(
      R"re(^(?!(?:static|using|typedef|namespace|template|return|friend|extern)\b)(?:[A-Za-z_][\w:<>,*&\s]*?[\s*&>])?((?:\w+::)*~?\w+)\s*\()re");
  static const std::regex kClass(R"re(^(?:struct|class)\s+(?:\[\[\w+\]\]\s+)?(\w+))re");
  static const std::regex kNamespaceOpen(
      R"re(^\s*(?:inline\s+)?namespace\s+[\w:]+\s*\{|^\s*extern\s*\{)re");
  std::vector<Named> out;
  std::vector<char> braces;  // 'n' a named namespace, 'o' anything else
  size_t pos = 0;
  int line = 0;
  while (pos <= code.size()) {
    size_t end = code.find('\n', pos);
    if (end == std::string::npos) end = code.size();
    const std::string text = code.substr(pos, end - pos);
    ++line;
    const bool at_namespace_scope =
        std::all_of(braces.begin(), braces.end(), [](char b) { return b == 'n'; });
    // Column 0, and a ( or a struct or class: the regexes are the slow part.
    if (at_namespace_scope && !text.empty() && std::isalpha(static_cast<unsigned char>(text[0])) &&
        (text.find('(') != std::string::npos || text.compare(0, 6, "struct") == 0 ||
         text.compare(0, 5, "class") == 0)) {
      std::smatch m;
      Named named;
      named.line = line;
      if (std::regex_search(text, m, kClass)) {
        named.name = m[1];
        named.is_class = true;
      } else if (std::regex_search(text, m, kFunction) &&
                 text.find("operator") == std::string::npos) {
        const std::string full = m[1];
        const auto colons = full.find("::");
        if (colons != std::string::npos) {
          named.name = full.substr(0, colons);  // Class::member: the class
          named.is_class = true;
        } else {
          named.name = full;
        }
      }
      if (!named.name.empty()) {
        // A definition when a { comes before any ; outside parentheses.
        int depth = 0;
        for (size_t k = pos; k < code.size(); ++k) {
          const char c = code[k];
          if (c == '(') ++depth;
          if (c == ')') --depth;
          if (depth == 0 && (c == '{' || c == ';')) {
            named.body = c == '{';
            break;
          }
        }
        out.push_back(named);
      }
    }
    const bool opens_namespace = std::regex_search(text, kNamespaceOpen);
    bool first_open = true;
    for (const char c : text) {
      if (c == '{') {
        braces.push_back(opens_namespace && first_open ? 'n' : 'o');
        first_open = false;
      } else if (c == '}' && !braces.empty()) {
        braces.pop_back();
      }
    }
    pos = end + 1;
  }
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

std::vector<MutualInclude> mutual_includes(const std::vector<Include>& includes,
                                           const Units& units) {
  const auto unit = [&units](const std::string& path) {
    const auto it = units.find(path);
    return it == units.end() ? unit_of(path) : it->second;
  };
  // The first include from each unit to each other unit.
  std::map<std::pair<std::string, std::string>, Include> first;
  for (const auto& i : includes) {
    const std::string from = unit(i.from), to = unit(i.to);
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

std::vector<std::string> read_headers(const std::string& root) {
  std::vector<std::string> files, out;
  list_sources(root, "", files);
  for (const auto& f : files)
    if (is_header(f)) out.push_back(f);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Definition> foreign_definitions(const std::string& root) {
  std::vector<std::string> files;
  list_sources(root, "", files);
  std::sort(files.begin(), files.end());
  // Who declares each function and class (a class only by its definition:
  // `struct X;` ahead declares no members).
  std::map<std::string, std::set<std::string>> functions, classes;
  for (const auto& f : files) {
    if (!is_header(f)) continue;
    for (const auto& n : namespace_scope_names(code_only(read_text(root + "/" + f)))) {
      if (!n.is_class)
        functions[n.name].insert(f);
      else if (n.body)
        classes[n.name].insert(f);
    }
  }
  std::vector<Definition> out;
  for (const auto& f : files) {
    if (!is_translation_unit(f)) continue;
    const std::string unit = unit_of(f);
    std::set<std::pair<std::string, std::string>> seen;  // (name, header): once each
    for (const auto& n : namespace_scope_names(code_only(read_text(root + "/" + f)))) {
      if (!n.body || n.name == "main") continue;
      const auto& declared = n.is_class ? classes : functions;
      const auto it = declared.find(n.name);
      if (it == declared.end()) continue;
      const bool own = std::any_of(it->second.begin(), it->second.end(),
                                   [&](const std::string& h) { return unit_of(h) == unit; });
      if (own) continue;
      for (const auto& h : it->second)
        if (seen.insert({n.name, h}).second) out.push_back({f, n.line, n.name, h});
    }
  }
  return out;
}

Units implementing_units(const std::vector<Definition>& definitions,
                         const std::vector<std::string>& headers) {
  std::set<std::string> header_units;
  for (const auto& h : headers) header_units.insert(unit_of(h));
  std::map<std::string, std::set<std::string>> implemented;  // source -> headers it implements
  for (const auto& d : definitions)
    if (!header_units.count(unit_of(d.source))) implemented[d.source].insert(d.header);
  Units out;
  for (const auto& s : implemented)
    if (s.second.size() == 1) out[s.first] = unit_of(*s.second.begin());
  return out;
}

std::vector<std::string> definition_violations(const std::vector<Definition>& definitions,
                                               const std::vector<std::string>& headers) {
  std::set<std::string> header_units;
  for (const auto& h : headers) header_units.insert(unit_of(h));
  std::map<std::string, std::vector<const Definition*>> by_source;
  for (const auto& d : definitions) by_source[d.source].push_back(&d);
  std::vector<std::string> out;
  for (const auto& s : by_source) {
    const bool has_own = header_units.count(unit_of(s.first)) > 0;
    std::set<std::string> declaring;
    for (const Definition* d : s.second) declaring.insert(d->header);
    if (!has_own && declaring.size() == 1) continue;  // it implements that header
    for (const Definition* d : s.second)
      out.push_back(s.first + ":" + std::to_string(d->line) + " defines " + d->name +
                    ", declared in " + d->header + ": " +
                    (has_own ? "a source defines what its own header declares; declare it there "
                               "or define it in the source of " +
                                   d->header
                             : "a source without a header of its own defines what " +
                                   std::to_string(declaring.size()) +
                                   " headers declare; give it a header of its own"));
  }
  return out;
}

std::vector<std::string> own_header_violations(const std::string& root) {
  std::vector<std::string> files;
  list_sources(root, "", files);
  std::sort(files.begin(), files.end());
  std::map<std::string, std::string> header_of_unit;
  for (const auto& f : files)
    if (is_header(f)) header_of_unit.emplace(unit_of(f), f);
  std::map<std::string, Include> first;
  for (const auto& i : read_includes(root)) first.emplace(i.from, i);
  std::vector<std::string> out;
  for (const auto& f : files) {
    if (!is_translation_unit(f)) continue;
    const auto h = header_of_unit.find(unit_of(f));
    if (h == header_of_unit.end()) continue;
    const auto it = first.find(f);
    if (it == first.end() || it->second.to != h->second)
      out.push_back(f + ": its first include of src/ is " +
                    (it == first.end()
                         ? std::string("none")
                         : it->second.to + " (line " + std::to_string(it->second.line) + ")") +
                    ", not its own header " + h->second + "; include it first");
  }
  return out;
}

}  // namespace edp::tools
