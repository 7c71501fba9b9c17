// Text from files a user or the service user can write (results.csv,
// context.json, a state file, a config, a trace) reaches the terminal through
// edp::terminal_text: ECMA-48 control sequences (ESC, and the C1 controls
// such as CSI 0x9B) are shown as \xNN, valid UTF-8 is kept. The CLI cases are
// the review's repro 04: each printed ESC raw before.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/text.h"
#include "report/csv.h"
#include "support/binary.h"
#include "support/files.h"
#include "support/process.h"

using edp::testing::slurp;
using edp::testing::write_text;

using edp::testing::edpbench;

namespace {

// OSC 0 (set the window title) and SGR 31 (red), as the review's repro used.
const std::string kPayload = "\x1b]0;PWN\x07\x1b[31mRED";

bool has_control(const std::string& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if ((c < 0x20 && c != '\n') || c == 0x7f) return true;
    if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) <= 0x9F) return true;
  }
  return false;
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string t = "/tmp/edpbench-terminal-XXXXXX";
    REQUIRE(::mkdtemp(t.data()) != nullptr);
    path = t;
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

// A copy of the TX2 sweep fixture with the payload appended to every
// workload name (results.csv, runs.csv) and to context.json's power source.
void tainted_sweep(const std::filesystem::path& dir) {
  std::filesystem::copy(EDPBENCH_FIXTURES "/report/tx2_sweep", dir);
  for (const char* name : {"results.csv", "runs.csv"}) {
    const auto path = (dir / name).string();
    auto table = edp::report::parse_csv(slurp(path), path);
    size_t col = 0;
    while (table.header[col] != "workload") ++col;
    std::string text = edp::report::csv_line(table.header);
    for (auto row : table.rows) {
      row[col] += kPayload;
      text += edp::report::csv_line(row);
    }
    write_text(path, text);
  }
  const auto ctx = (dir / "context.json").string();
  std::string json = slurp(ctx);
  const std::string key = "\"source\": \"";
  const size_t at = json.find(key);
  REQUIRE(at != std::string::npos);
  json.insert(json.find('"', at + key.size()), "\\u001b]0;PWN\\u0007\\u001b[31mRED");
  write_text(ctx, json);
}

}  // namespace

TEST_CASE("terminal_text shows C0, DEL and C1 controls as hex escapes and keeps UTF-8",
          "[terminal]") {
  using edp::terminal_text;
  CHECK(terminal_text("plain ascii") == "plain ascii");
  CHECK(terminal_text("caf\xc3\xa9 \xe2\x80\x94 J\xc2\xb7s") ==
        "caf\xc3\xa9 \xe2\x80\x94 J\xc2\xb7s");
  CHECK(terminal_text(kPayload) == "\\x1b]0;PWN\\x07\\x1b[31mRED");
  CHECK(terminal_text("a\x7f"
                      "b") == "a\\x7fb");
  CHECK(terminal_text("a\tb\rc") == "a\\x09b\\x0dc");
  CHECK(terminal_text("a\nb") == "a\\x0ab");
  CHECK(terminal_text("a\nb", true) == "a\nb");
  // CSI as a raw byte (not UTF-8) and as U+009B (C2 9B); U+00A0 is kept.
  CHECK(terminal_text("x\x9b"
                      "31m") == "x\\x9b31m");
  CHECK(terminal_text("x\xc2\x9b"
                      "31m") == "x\\xc2\\x9b31m");
  CHECK(terminal_text("x\xc2\xa0y") == "x\xc2\xa0y");
  // Invalid UTF-8: a lone continuation byte, an overlong ESC, a cut sequence.
  CHECK(terminal_text("\x80") == "\\x80");
  CHECK(terminal_text("\xc0\x9b") == "\\xc0\\x9b");
  CHECK(terminal_text("\xe2\x80") == "\\xe2\\x80");
  CHECK(terminal_text(std::string("a\0b", 3)) == "a\\x00b");
  // Bidirectional controls (UAX #9): RLO (E2 80 AE) would show "evil\u202Etxt.exe"
  // as "evilexe.txt"; LRE (U+202A) and PDI (U+2069) bound the ranges; the
  // marks RLM (E2 80 8F) and ALM (U+061C, two bytes: D8 9C) reorder too. The
  // neighbours U+2029, U+206A and U+200D (zero-width joiner) are kept.
  CHECK(terminal_text("evil\xe2\x80\xaetxt.exe") == "evil\\u202Etxt.exe");
  CHECK(terminal_text("\xe2\x80\xaa|\xe2\x81\xa6|\xe2\x81\xa9") == "\\u202A|\\u2066|\\u2069");
  CHECK(terminal_text("a\xe2\x80\x8f"
                      "b\xd8\x9c"
                      "c\xe2\x80\x8e") == "a\\u200Fb\\u061Cc\\u200E");
  CHECK(terminal_text("\xe2\x80\xa9\xe2\x81\xaa\xe2\x80\x8d") ==
        "\xe2\x80\xa9\xe2\x81\xaa\xe2\x80\x8d");
}

TEST_CASE("a label with a bidirectional control is refused, with the code point and byte",
          "[terminal]") {
  CHECK(edp::label_problem("run\xe2\x80\xae"
                           "1") ==
        "contains a bidirectional control (U+202E at byte 4), which shows the text after it "
        "reordered; remove it");
  CHECK(edp::label_problem("x\xe2\x81\xa8") ==
        "contains a bidirectional control (U+2068 at byte 2), which shows the text after it "
        "reordered; remove it");
  CHECK(edp::label_problem("x\xd8\x9c").find("bidirectional control (U+061C at byte 2)") !=
        std::string::npos);
  CHECK(edp::label_problem("caf\xc3\xa9 \xe2\x80\x94 ok").empty());
  // C1 controls: CSI (U+009B) is ESC [ in one character.
  CHECK(edp::label_problem("CPU\xc2\x9b"
                           "2J") ==
        "contains a control character (U+009B at byte 4); use letters, digits, '_' or '-'");
  CHECK(edp::label_problem("x\xc2\xa0y").empty());  // U+00A0, a no-break space, is text
}

TEST_CASE("recommend and compare print names and context values from files escaped",
          "[terminal][cli]") {
  TempDir t;
  const auto s = t.path / "s";
  tainted_sweep(s);
  const auto rec = edpbench("recommend " + (s / "results.csv").string());
  INFO(rec.err);
  CHECK(rec.exit_code == 0);
  CHECK(rec.out.find("\\x1b]0;PWN\\x07\\x1b[31mRED") != std::string::npos);
  CHECK_FALSE(has_control(rec.out));
  CHECK_FALSE(has_control(rec.err));
  // The CSV is data: its format escapes it, and it reads back as written.
  const auto csv = edpbench("recommend " + (s / "results.csv").string() + " --csv -");
  CHECK(csv.out.find(kPayload) != std::string::npos);

  const auto cmp = edpbench("compare " + s.string() + " " + s.string());
  INFO(cmp.err);
  CHECK(cmp.out.find("PWN") != std::string::npos);
  CHECK_FALSE(has_control(cmp.out));
  CHECK_FALSE(has_control(cmp.err));
}

TEST_CASE("restore, config and trace errors do not echo control characters", "[terminal][cli]") {
  TempDir t;
  const auto state = (t.path / "clock-state.txt").string();
  write_text(state, "version=1\x1b[2J\n");
  const auto restore = edpbench("restore --state " + state);
  CHECK(restore.exit_code == 2);
  CHECK(restore.err.find("\\x1b[2J") != std::string::npos);
  CHECK_FALSE(has_control(restore.err));

  const auto config = (t.path / "c.yaml").string();
  write_text(config, "name: t\n\"bad" + kPayload + "key\": 1\n");
  const auto plan = edpbench("plan --config " + config);
  CHECK(plan.exit_code == 2);
  CHECK(plan.err.find("unknown key") != std::string::npos);
  CHECK_FALSE(has_control(plan.err));

  // A rail name is written into CSVs, context.json and the terminal: refused.
  const auto trace = (t.path / "tr.csv").string();
  write_text(trace, "t_s,VDD\x1b[31mIN_w\n0,5\n0.1,6\n");
  const auto measure = edpbench("measure --trace " + trace + " -- true");
  CHECK(measure.exit_code == 2);
  CHECK(measure.err.find("control character") != std::string::npos);
  CHECK_FALSE(has_control(measure.err));
}
