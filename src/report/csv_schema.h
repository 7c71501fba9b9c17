// A CSV file's columns as one table of {name, value-of-record} entries
// (issue 22.3; nvbench adds cells by key, google/benchmark's reporters read
// a Run by field). The header and every row come from the same entries, so
// a column inserted anywhere moves its name and its value together and
// cannot shift the others. The required columns (the DESIGN contract) come
// first; extras only follow them.
#pragma once

#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace edp::report {

template <class Row>
struct Column {
  std::string name;
  std::function<std::string(const Row&)> value;
};

template <class Row>
class CsvSchema {
 public:
  CsvSchema(std::vector<Column<Row>> required, std::vector<Column<Row>> extras)
      : required_count_(required.size()), columns_(std::move(required)) {
    for (auto& c : extras) columns_.push_back(std::move(c));
    std::set<std::string> seen;
    for (const auto& c : columns_) {
      if (!seen.insert(c.name).second)
        throw std::logic_error("CSV schema names column '" + c.name + "' twice");
      names_.push_back(c.name);
    }
    required_names_.assign(names_.begin(), names_.begin() + static_cast<long>(required_count_));
  }

  // The header: required columns, then extras.
  const std::vector<std::string>& names() const { return names_; }
  const std::vector<std::string>& required_names() const { return required_names_; }

  std::vector<std::string> row(const Row& r) const {
    std::vector<std::string> out;
    out.reserve(columns_.size());
    for (const auto& c : columns_) out.push_back(c.value(r));
    return out;
  }

 private:
  size_t required_count_;
  std::vector<Column<Row>> columns_;
  std::vector<std::string> names_, required_names_;
};

}  // namespace edp::report
