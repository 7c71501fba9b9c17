// The studies' own config sections (DESIGN §9), held by a Config without
// naming a study: one value per study, keyed by the study's name, of the
// study's own struct (src/bench/studies/<name>/<name>_config.h), which names
// its study as `static constexpr const char* kStudy`. Copied with the
// Config, as any of its members. A section never set reads as its struct's
// defaults, so a config that leaves a study's section out holds none.
#pragma once

#include <any>
#include <map>
#include <stdexcept>
#include <string>

namespace edp::bench {

class StudySections {
 public:
  // Study S::kStudy's section: the one set, else S's defaults.
  template <class S>
  const S& get() const {
    const auto it = sections_.find(S::kStudy);
    if (it == sections_.end()) return defaults<S>();
    return held<S>(&it->second);
  }

  // The section to change; S's defaults when it was not set.
  template <class S>
  S& edit() {
    std::any& a = sections_[S::kStudy];
    if (!a.has_value()) a = S{};
    return const_cast<S&>(held<S>(&a));
  }

  // Whether study `name`'s section was set (read from a file or edited).
  bool has(const std::string& name) const { return sections_.count(name) > 0; }

 private:
  template <class S>
  static const S& defaults() {
    static const S d{};
    return d;
  }

  // Two structs naming the same study are a programming error.
  template <class S>
  static const S& held(const std::any* a) {
    const S* s = std::any_cast<S>(a);
    if (!s)
      throw std::logic_error(std::string("the config section '") + S::kStudy +
                             "' holds another type than the one asked for");
    return *s;
  }

  std::map<std::string, std::any> sections_;
};

}  // namespace edp::bench
