// The man page and the bash completion are generated from the CLI definition
// (src/cli/generated_docs.cpp): every subcommand `edpbench --help` lists and
// every option each subcommand's --help lists is in both, so a new one cannot
// be left out of either; the page renders without groff warnings and the
// completion completes.
#include <catch2/catch.hpp>

#include <regex>
#include <set>
#include <string>

#include "support/process.h"

using edp::testing::edpbench;

namespace {

// The subcommands under "Subcommands:" in `edpbench --help`.
std::vector<std::string> help_subcommands() {
  const auto r = edpbench("--help");
  REQUIRE(r.exit_code == 0);
  std::vector<std::string> out;
  const size_t at = r.out.find("Subcommands:");
  REQUIRE(at != std::string::npos);
  const std::string rest = r.out.substr(at);
  const std::regex line(R"(\n  ([a-z]+)\s)");
  for (std::sregex_iterator it(rest.begin(), rest.end(), line), end; it != end; ++it)
    out.push_back((*it)[1]);
  return out;
}

// The long options in `edpbench SUB --help`.
std::set<std::string> help_options(const std::string& sub) {
  const auto r = edpbench(sub + " --help");
  REQUIRE(r.exit_code == 0);
  std::set<std::string> out;
  // Each option line's first long name ("  -v,--verbose", "  --config TEXT"),
  // not options a description mentions.
  const std::regex opt(R"(\n\s+(?:-[a-zA-Z],)?(--[a-z][a-z0-9-]*))");
  for (std::sregex_iterator it(r.out.begin(), r.out.end(), opt), end; it != end; ++it)
    out.insert((*it)[1]);
  return out;
}

std::string roff_dashes(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

}  // namespace

TEST_CASE("the man page and the completion hold every subcommand and option of --help",
          "[cli][docs]") {
  const auto man = edpbench("--generate man");
  const auto bash = edpbench("--generate bash");
  REQUIRE(man.exit_code == 0);
  REQUIRE(bash.exit_code == 0);
  const std::vector<std::string> subs = help_subcommands();
  REQUIRE(subs.size() >= 10);
  for (const auto& sub : subs) {
    INFO(sub);
    CHECK_THAT(man.out, Catch::Contains(".SS \"edpbench " + sub + "\""));
    CHECK_THAT(bash.out, Catch::Contains("\n    " + sub + ")\n"));
    const std::set<std::string> opts = help_options(sub);
    CHECK_FALSE(opts.empty());
    for (const auto& o : opts) {
      INFO(o);
      if (o != "--help") CHECK_THAT(man.out, Catch::Contains("\\fB" + roff_dashes(o) + "\\fR"));
      CHECK(
          std::regex_search(bash.out, std::regex(sub + R"(\)\n      opts="[^"]*)" + o + "[ \"]")));
    }
  }
  CHECK(edpbench("--generate html").exit_code == 2);
}

TEST_CASE("the man page renders without warnings and the completion completes", "[cli][docs]") {
  const std::string dir = edp::testing::temp_dir("generated-docs");
  for (const char* what : {"man", "bash"}) {
    const auto r = edpbench(std::string("--generate ") + what);
    REQUIRE(r.exit_code == 0);
    edp::testing::write_text(dir + (what == std::string("man") ? "/edpbench.1" : "/edpbench.bash"),
                             r.out);
  }
  const auto groff = edp::testing::run(
      "command -v groff >/dev/null || exit 77; groff -man -ww -z " + dir + "/edpbench.1");
  if (groff.exit_code != 77) {
    CHECK(groff.exit_code == 0);
    CHECK(groff.err.empty());
  }
  const auto done = edp::testing::run(
      "bash -c '. " + dir +
      "/edpbench.bash; COMP_WORDS=(edpbench mea); COMP_CWORD=1; _edpbench; echo "
      "\"${COMPREPLY[*]}\"; "
      "COMP_WORDS=(edpbench measure --tr); COMP_CWORD=2; _edpbench; echo \"${COMPREPLY[*]}\"'");
  INFO(done.err);
  CHECK(done.out == "measure\n--trace\n");
}
