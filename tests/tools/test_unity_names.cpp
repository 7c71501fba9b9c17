// The unity build's rule (tools/unity_names.h): no two sources of one target
// define the same file-local name. Checked on the repository, and on planted
// sources with each kind of name, so that a reader that stopped seeing one
// fails here rather than passing on the tree by accident.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "support/files.h"
#include "tools/unity_names.h"

using edp::testing::TempDir;
using edp::testing::write_text;
using namespace edp::tools;

namespace {

// EDPBENCH_FIXTURES is tests/fixtures; the repository is two folders up.
const std::string kRepo = std::string(EDPBENCH_FIXTURES) + "/../..";

std::vector<std::string> names_of(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& n : local_names(text, "x.cpp")) out.push_back(n.name);
  return out;
}

}  // namespace

TEST_CASE("unity names: no two sources of a target define the same file-local name", "[tools]") {
  const auto groups = unity_groups(kRepo);
  // src/'s folders, the test areas and python/: a reader that lost them
  // would check nothing.
  REQUIRE(groups.size() >= 12);
  std::size_t files = 0;
  for (const auto& g : groups) {
    files += g.size();
    for (const auto& clash : clashing_names(kRepo, g)) {
      std::string where;
      for (const auto& n : clash) where += "\n  " + n.file + ":" + std::to_string(n.line);
      FAIL_CHECK(clash.front().name << " is defined by more than one source of a target"
                                    << " (rename it, or define it once in a header):" << where);
    }
  }
  CHECK(files > 300);
}

TEST_CASE("unity names: each kind of file-local definition is read", "[tools]") {
  const std::string text =
      "#include <string>\n"
      "namespace edp::report {\n"
      "namespace {\n"
      "\n"
      "const std::string kTx2 = \"/x\";\n"
      "constexpr double kSlackS = 0.05;\n"
      "std::atomic<int> counter{0};\n"
      "int table[3] = {1, 2, 3};\n"
      "struct Dir {\n"
      "  std::string path;  // a member: indented\n"
      "};\n"
      "enum class Mode { a, b };\n"
      "using Rows = std::vector<int>;\n"
      "template <typename T>\n"
      "T twice(T v) {\n"
      "  int local = 0;\n"
      "  return v + v + local;\n"
      "}\n"
      "std::string num(double v) { return std::to_string(v); }\n"
      "const std::string& sweep_html() {\n"
      "  static const std::string html = \"\";  // a function's static: indented\n"
      "  return html;\n"
      "}\n"
      "std::string error_of(const std::string& yaml,\n"
      "                     const std::string& origin = \"t.yaml\") {\n"
      "  return yaml + origin;\n"
      "}\n"
      "struct Later;\n"
      "using edp::testing::slurp;\n"
      "bool operator==(const Dir& a, const Dir& b) { return a.path == b.path; }\n"
      "TEST_CASE(\"a macro\") {}\n"
      "const char* kYaml = R\"x(runs: 3\n"
      "workloads: [tensors]\n"
      ")x\";\n"
      "const char* kTwo = R\"(a: )\" \"b\" R\"(\n"
      "key = value\n"
      ")\";\n"
      "[[noreturn]] void fail(const char* why);\n"
      "void rails() {\n"
      "  for (const char* r : {\"VDD_IN\", \"VDD_SYS_DDR\"}) (void)r;\n"
      "}\n"
      "int after_rails = 0;\n"
      "\n"
      "}  // namespace\n"
      "\n"
      "std::string exported(double v) { return num(v); }\n"
      "static int counted = 0;\n"
      "\n"
      "}  // namespace edp::report\n"
      "static edp::cli::CommandRegistration reg(50, \"probe\", \"what\", setup);\n";
  const std::string a = "edp::report::{anonymous}::";
  CHECK(names_of(text) ==
        std::vector<std::string>{a + "kTx2", a + "kSlackS", a + "counter", a + "table", a + "Dir",
                                 a + "Mode", a + "Rows", a + "twice", a + "num", a + "sweep_html",
                                 a + "error_of", a + "kYaml", a + "kTwo", a + "fail", a + "rails",
                                 a + "after_rails", "edp::report::counted", "reg"});
}

TEST_CASE("unity names: planted clashes are named with both places, other namespaces are not",
          "[tools]") {
  TempDir t("unity");
  write_text(t.path + "/a.cpp",
             "namespace {\n"
             "std::string read_all(const std::string& p) { return p; }\n"
             "const std::string kTx2 = \"/platform/tx2\";\n"
             "}  // namespace\n"
             "namespace edp::cli::probe_command {\n"
             "namespace {\n"
             "int setup() { return 1; }\n"
             "}  // namespace\n"
             "}  // namespace edp::cli::probe_command\n");
  write_text(t.path + "/b.cpp",
             "#include <string>\n"
             "namespace {\n"
             "\n"
             "std::string read_all(const std::string& p, int n) { return p; }  // an overload\n"
             "const std::string kTx2 = \"/report/tx2_sweep\";\n"
             "}  // namespace\n"
             "namespace edp::cli::run_command {\n"
             "namespace {\n"
             "int setup() { return 2; }\n"
             "}  // namespace\n"
             "}  // namespace edp::cli::run_command\n");
  const auto clashes = clashing_names(t.path, {"a.cpp", "b.cpp"});
  REQUIRE(clashes.size() == 2);
  CHECK(clashes[0][0].name == "{anonymous}::kTx2");
  CHECK(clashes[0][0].file == "a.cpp");
  CHECK(clashes[0][0].line == 3);
  CHECK(clashes[0][1].file == "b.cpp");
  CHECK(clashes[0][1].line == 5);
  CHECK(clashes[1][0].name == "{anonymous}::read_all");
  CHECK(clashes[1][1].line == 4);
  CHECK_THROWS_WITH(clashing_names(t.path, {"missing.cpp"}),
                    Catch::Contains("cannot read") && Catch::Contains("missing.cpp"));
}
