// to_json(): a JSON object that strict parsers accept, checked with Python's
// json module when python3 is installed and structurally otherwise.
#include <catch2/catch.hpp>

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "platform/platform.h"
#include "support/fixtures.h"

using edp::testing::kTx2Tree;
using edp::testing::kX86Tree;
using namespace edp::platform;
using Catch::Contains;

namespace {

bool have_python() { return std::system("command -v python3 >/dev/null 2>&1") == 0; }

// Runs `python3 -c code` with `json` on stdin; returns its exit status.
int python_on(const std::string& json, const std::string& code) {
  char path[] = "/tmp/edp-platform-json-XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  close(fd);
  { std::ofstream(path) << json; }
  const int rc = std::system(("python3 -c '" + code + "' < " + path).c_str());
  unlink(path);
  return rc;
}

// Without Python: balanced brackets outside strings, and only valid escapes.
bool looks_like_json_object(const std::string& s) {
  if (s.empty() || s.front() != '{' || s.back() != '}') return false;
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\') {
        if (++i >= s.size() || std::string("\"\\/bfnrtu").find(s[i]) == std::string::npos) {
          return false;
        }
      } else if (c == '"') {
        in_string = false;
      } else if (static_cast<unsigned char>(c) < 0x20) {
        return false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth < 0) return false;
    }
  }
  return depth == 0 && !in_string;
}

}  // namespace

TEST_CASE("JSON: the TX2 probe parses and carries board, clusters, GPU and zones") {
  const std::string json = to_json(probe(kTx2Tree));
  CHECK(looks_like_json_object(json));
  CHECK_THAT(json, Contains("\"l4t_release\":\"R32.7.1\""));
  CHECK_THAT(json, Contains("\"nvpmodel\":{\"id\":0,\"mode\":\"MAXN\"}"));
  CHECK_THAT(json, Contains("\"clusters\":{\"a57\":[0,3,4,5],\"denver\":[1,2]}"));
  CHECK_THAT(json, Contains("\"temp_c\":41.5"));
  if (!have_python()) {
    WARN("python3 not found: JSON checked structurally only");
    return;
  }
  CHECK(python_on(json,
                  "import json,sys; d=json.load(sys.stdin); "
                  "assert d[\"model\"]==\"quill\" and d[\"is_jetson\"] is True; "
                  "assert [c[\"cluster\"] for c in d[\"cpus\"]]==[\"a57\",\"denver\",\"denver\","
                  "\"a57\",\"a57\",\"a57\"]; "
                  "assert d[\"gpu\"][\"governor\"]==\"nvhost_podgov\"; "
                  "assert d[\"gpu\"][\"max_hz\"]==1300500000; "
                  "assert len(d[\"thermal\"])==8") == 0);
}

TEST_CASE("JSON: unknown values are null on a machine without cpufreq") {
  const std::string json = to_json(probe(kX86Tree));
  CHECK(looks_like_json_object(json));
  CHECK_THAT(json, Contains("\"l4t_release\":null"));
  CHECK_THAT(json, Contains("\"governor\":null,\"cur_khz\":null"));
  CHECK_THAT(json, Contains("\"thermal\":[]"));
  if (have_python()) {
    CHECK(python_on(json,
                    "import json,sys; d=json.load(sys.stdin); "
                    "assert d[\"is_jetson\"] is False and d[\"gpu\"][\"cur_hz\"] is None") == 0);
  }
}

TEST_CASE("JSON: quotes, backslashes, control bytes and invalid UTF-8 are escaped") {
  Platform p;
  p.model = "Acme \"Board\" \\ v2\n\t\x01 \xC3\xA9 \xFF end";
  p.thermal.push_back({"zone\"x", NAN, 0});
  const std::string json = to_json(p);
  CHECK(looks_like_json_object(json));
  // The invalid byte becomes U+FFFD (nlohmann writes the character itself,
  // UTF-8 EF BF BD, where the hand-built writer wrote the \ufffd escape).
  CHECK_THAT(json, Contains(R"("model":"Acme \"Board\" \\ v2\n\t\u0001 )"
                            "\xC3\xA9"
                            " \xEF\xBF\xBD end\""));
  CHECK_THAT(json, Contains(R"("type":"zone\"x","temp_c":null)"));
  if (have_python()) {
    CHECK(python_on(json,
                    "import json,sys; d=json.load(sys.stdin); "
                    "assert d[\"model\"]==\"Acme \\\"Board\\\" \\\\ v2\\n\\t\\x01 "
                    "\\u00e9 \\ufffd end\", repr(d[\"model\"])") == 0);
  }
}
