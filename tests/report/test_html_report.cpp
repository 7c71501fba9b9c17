// The HTML report on the TX2 fixtures: one self-contained file with an SVG per
// metric, log axes when the values span decades, the recommendation, the
// context, escaped text; and the chart, number and JSON helpers under it.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "common/errors.h"
#include "report/html_escape.h"
#include "report/html_report.h"
#include "report/json_read.h"
#include "report/svg_chart.h"
#include "support/binary.h"
#include "support/files.h"
#include "support/fixtures.h"
#include "support/study_registry.h"

using edp::testing::between;
using edp::testing::contains;
using edp::testing::count;
using edp::testing::kTx2Sweep;
using edp::testing::slurp;
using edp::testing::temp_dir;
using edp::testing::write_text;
using namespace edp::report;

namespace {

const std::string kNoSensorDir = EDPBENCH_FIXTURES "/report/tx2_no_sensor";

const std::string& sweep_html() {
  static const std::string html =
      render_html_report(load_report_data(kTx2Sweep), edp::testing::registry());
  return html;
}

}  // namespace

TEST_CASE("the report has one SVG chart per metric: time energy and EDP", "[report]") {
  const std::string& html = sweep_html();
  CHECK(count(html, "<svg") == 3);
  CHECK(count(html, "</svg>") == 3);
  CHECK(contains(html, "id=\"fig-time_s\""));
  CHECK(contains(html, "id=\"fig-energy_j\""));
  CHECK(contains(html, "id=\"fig-edp_js\""));
  // Every workload and size labels a group; every device is in the legend.
  const std::string time_svg = between(html, "id=\"fig-time_s\"", "</svg>");
  for (const char* label : {">tensors<", ">autograd<", ">custom_relu<", ">small<", ">medium<",
                            ">large<", ">cpu<", ">gpu<", ">reference<"})
    CHECK(contains(time_svg, label));
}

TEST_CASE("values spanning decades get a log axis with decade gridlines", "[report]") {
  // The sweep's times run from about 1 s (GPU, small) to 2000 s (CPU, large).
  const std::string time_svg = between(sweep_html(), "id=\"fig-time_s\"", "</svg>");
  CHECK(contains(time_svg, "log scale"));
  for (const char* tick : {">1<", ">10<", ">100<", ">1000<", ">10000<"})
    CHECK(contains(time_svg, tick));
  // EDP spans 6.6 decades: the labels turn into powers of ten.
  const std::string edp_svg = between(sweep_html(), "id=\"fig-edp_js\"", "</svg>");
  CHECK(contains(edp_svg, "log scale"));
  CHECK(contains(edp_svg, ">10\xE2\x81\xB7<"));  // 10⁷
  CHECK(contains(sweep_html(), "the values span 6.6 decades"));
}

TEST_CASE("the report is self-contained with no scripts and no network references", "[report]") {
  std::string html = sweep_html();
  CHECK_FALSE(contains(html, "<script"));
  CHECK_FALSE(contains(html, "javascript:"));
  CHECK_FALSE(contains(html, "<link"));
  CHECK_FALSE(contains(html, "<img"));
  CHECK_FALSE(contains(html, "url("));
  const std::string xmlns = "http://www.w3.org/2000/svg";
  for (size_t p; (p = html.find(xmlns)) != std::string::npos;) html.erase(p, xmlns.size());
  CHECK_FALSE(contains(html, "http://"));
  CHECK_FALSE(contains(html, "https://"));
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(contains(html, "<meta charset=\"utf-8\">"));
}

TEST_CASE("text from the files is HTML-escaped", "[report]") {
  // results.csv note: out of memory: the tape needs > 7.6 GiB ("reference"
  // keeps every intermediate) & swap is off
  const std::string& html = sweep_html();
  CHECK(contains(html,
                 "needs &gt; 7.6 GiB (&quot;reference&quot; keeps every intermediate) "
                 "&amp; swap is off"));
  CHECK_FALSE(contains(html, "(\"reference\" keeps"));
  CHECK(html_escape("<a href='x'>&\"") == "&lt;a href=&#39;x&#39;&gt;&amp;&quot;");
  // A bidirectional control (RLO, PDI) is shown, not obeyed; other UTF-8 is kept.
  CHECK(html_escape("evil\xe2\x80\xaetxt\xe2\x81\xa9 caf\xc3\xa9") ==
        "evil\\u202Etxt\\u2069 caf\xc3\xa9");
}

TEST_CASE("a hostile workload name cannot inject markup", "[report]") {
  const std::string dir = temp_dir("report");
  std::string results = slurp(kTx2Sweep + "/results.csv");
  const std::string evil = "\"<script>alert(1)</script>\"";
  for (size_t p; (p = results.find("custom_relu")) != std::string::npos;)
    results.replace(p, 11, evil);
  write_text(dir + "/results.csv", results);
  const std::string html = render_html_report(load_report_data(dir), edp::testing::registry());
  CHECK_FALSE(contains(html, "<script"));
  CHECK(contains(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
}

TEST_CASE("the recommendation table (objective EDP) is in the report", "[report]") {
  const std::string table = between(sweep_html(), "<table class=\"recommendation\">", "</table>");
  REQUIRE_FALSE(table.empty());
  CHECK(contains(table, "CPU EDP"));
  CHECK(count(table, "<span class=\"choice gpu\">GPU</span>") == 9);
  CHECK(count(table, ">yes<") == 9);
  CHECK(contains(table, "4289\xC3\x97"));  // tensors/large: 3.118e7 / 7270 J·s
}

TEST_CASE("the context shows board L4T nvpmodel clocks power and baseline", "[report]") {
  // tx2_sweep/context.json has the layout `edpbench run` writes.
  const std::string ctx = between(sweep_html(), "<h2>Context</h2>", "</footer>");
  for (const char* s : {"NVIDIA Jetson TX2 Developer Kit",
                        "tegra186",
                        "R32.7.4",
                        "MAXN (mode 0)",
                        "a57 (cpu 0, 3, 4, 5): schedutil, 2035 MHz (max 2035 MHz)",
                        "denver (cpu 1, 2): schedutil, 2035 MHz (max 2035 MHz)",
                        "a57: 0, 3, 4, 5; denver: 1, 2",
                        "NVIDIA Tegra X2, compute 6.2, 2 SMs",
                        "1300 MHz, max 1300 MHz, nvhost_podgov",
                        "Memory (EMC) clock</th><td>1866 MHz",
                        "GPU-therm 39.5 \xC2\xB0"
                        "C",
                        "jetson",
                        "VDD_IN,VDD_SYS_CPU",
                        "0.1.0",
                        "Sweep complete</th><td>yes",
                        "2026-11-19T21:04:11Z",
                        "2026-11-20T14:47:52Z",
                        "Idle baseline power per rail",
                        "Configuration (resolved YAML)",
                        "<pre>name: default\niterations: 500"})
    CHECK(contains(ctx, s));
  CHECK(contains(between(ctx, "<table class=\"baseline\">", "</table>"), "2.351"));
}

TEST_CASE("a foreign context.json: the table reads only the schema's keys, the dump shows all",
          "[report]") {
  // tx2_no_sensor/context.json is hand-written with keys edpbench never
  // wrote (host, clocks, cpu.governors, config.iterations, power.warning).
  // The context table reads only common/context_schema.h's keys; everything
  // is still in the full context.json below it.
  const std::string html =
      render_html_report(load_report_data(kNoSensorDir), edp::testing::registry());
  const std::string ctx = between(html, "<h2>Context</h2>", "</footer>");
  const std::string table = between(ctx, "<table class=\"kv context\">", "</table>");
  CHECK(contains(table, "NVIDIA Jetson TX2 Developer Kit"));  // board.model
  CHECK(contains(table, "Power source"));
  for (const char* foreign : {"hostname", "gpu_mhz", "500 iterations", "no power sensor found"})
    CHECK_FALSE(contains(table, foreign));
  for (const char* s :
       {"hostname: tx2-lab-03", "gpu_mhz: 1300", "name: NVIDIA Tegra X2", "no power sensor found"})
    CHECK(contains(between(ctx, "Full context.json", "</details>"), s));
  CHECK(contains(ctx, "No idle baseline power recorded."));
}

TEST_CASE("failed and skipped configurations are listed with their note", "[report]") {
  const std::string list = between(sweep_html(), "<ul class=\"failures\">", "</ul>");
  CHECK(count(list, "<li>") == 2);
  CHECK(contains(list, "<b>autograd/small</b> on reference: failed"));
  CHECK(contains(list, "<b>custom_relu/small</b> on reference: skipped"));
  CHECK(contains(list, "max_reference_gflop"));
}

TEST_CASE("without energy the report shows time only and says so", "[report]") {
  const std::string html =
      render_html_report(load_report_data(kNoSensorDir), edp::testing::registry());
  CHECK(count(html, "<svg") == 1);
  CHECK(contains(html, "id=\"fig-time_s\""));
  CHECK_FALSE(contains(html, "id=\"fig-energy_j\""));
  CHECK_FALSE(contains(html, "id=\"fig-edp_js\""));
  CHECK(contains(html, "Energy was not measured"));
  CHECK(contains(html, "power source: none"));
  // The recommendation falls back to time and still decides every row.
  const std::string table = between(html, "<table class=\"recommendation\">", "</table>");
  CHECK(contains(table, "CPU time (s)"));
  CHECK(count(table, "<span class=\"choice gpu\">GPU</span>") == 9);
  CHECK_FALSE(contains(html, "Energy (J) mean"));
}

TEST_CASE("missing or broken runs.csv and context.json only add warnings", "[report]") {
  const std::string dir = temp_dir("report");
  write_text(dir + "/results.csv", slurp(kTx2Sweep + "/results.csv"));
  write_text(dir + "/context.json", "{\"board\": {\"model\": \"TX2\",}}");
  const ReportData d = load_report_data(dir);
  CHECK_FALSE(d.runs);
  CHECK_FALSE(d.context);
  REQUIRE(d.warnings.size() == 2);
  CHECK(contains(d.warnings[0], "no runs.csv"));
  CHECK(contains(d.warnings[1], "context.json is unreadable"));
  CHECK(contains(d.warnings[1], "line 1 column"));
  const std::string html = render_html_report(d, edp::testing::registry());
  CHECK(count(html, "<svg") == 3);
  CHECK(contains(html, "context.json is unreadable"));
}

TEST_CASE("a results.csv with only a header gives a page that says so", "[report]") {
  const std::string dir = temp_dir("report");
  const std::string results = slurp(kTx2Sweep + "/results.csv");
  write_text(dir + "/results.csv", results.substr(0, results.find('\n') + 1));
  const ReportData d = load_report_data(dir);
  CHECK(d.title == dir.substr(dir.rfind('/') + 1));
  const std::string html = render_html_report(d, edp::testing::registry());
  CHECK(contains(html, "results.csv has no configurations"));
  CHECK_FALSE(contains(html, "Energy was not measured"));
  CHECK(count(html, "<svg") == 0);
}

TEST_CASE("a directory without results.csv is a usage error", "[report]") {
  CHECK_THROWS_AS(load_report_data("/nonexistent/dir"), edp::UsageError);
  const std::string dir = temp_dir("report");
  CHECK_THROWS_AS(load_report_data(dir), edp::UsageError);
  CHECK_THROWS_AS(load_report_data(EDPBENCH_FIXTURES "/report/bad_columns"), edp::UsageError);
}

TEST_CASE("write_html_report writes the file atomically", "[report]") {
  const std::string dir = temp_dir("report");
  const auto summary = write_html_report(kTx2Sweep, dir + "/report.html", edp::testing::registry());
  CHECK(summary.configurations == 21);
  CHECK(summary.warnings.empty());
  CHECK(slurp(dir + "/report.html") == sweep_html());
  CHECK(count(slurp(dir + "/report.html"), "<svg") == 3);
}

// ---- charts ------------------------------------------------------------------

TEST_CASE("choose_axis: log beyond 1.5 decades and linear from zero otherwise", "[report][svg]") {
  const AxisScale wide = choose_axis({1.05, 24.5, 2003});
  CHECK(wide.log);
  CHECK(wide.lo == Approx(1));
  CHECK(wide.hi == Approx(10000));  // headroom above 2003 for the value label
  CHECK(wide.ticks == std::vector<double>{1, 10, 100, 1000, 10000});

  const AxisScale narrow = choose_axis({10, 300});  // 1.48 decades
  CHECK_FALSE(narrow.log);
  CHECK(narrow.lo == 0);
  CHECK(narrow.hi >= 300);
  CHECK(narrow.ticks.front() == 0);

  CHECK(choose_axis({10, 320}).log);           // 1.51 decades
  CHECK_FALSE(choose_axis({0, 1, 1000}).log);  // zero cannot sit on a log axis
  CHECK_FALSE(choose_axis({}).log);
}

TEST_CASE("choose_axis keeps about five ticks for any finite values, corrupt ones included",
          "[report][svg]") {
  // Values a corrupt results.csv can carry: the step used to follow the top
  // alone, so a large negative value asked for 10^13 ticks; 1e308 x 2.5
  // overflowed to infinity before it was converted to an int; a log axis
  // over 600 decades had 600 ticks, and one down to a denormal started at
  // 10^-324 = 0.
  for (const auto& values : std::vector<std::vector<double>>{{-1e6, 1e-6},
                                                             {1e308, 1},
                                                             {1e308, 1e-308},
                                                             {-1e308, 1e308},
                                                             {-5, -3},
                                                             {1e-300, 1e300},
                                                             {5e-324, 1},
                                                             {1e-250, 1e250}}) {
    const AxisScale a = choose_axis(values);
    CAPTURE(values);
    CHECK(std::isfinite(a.lo));
    CHECK(std::isfinite(a.hi));
    CHECK(a.lo < a.hi);
    if (a.log) CHECK(a.lo > 0);
    CHECK(a.ticks.size() >= 2);
    CHECK(a.ticks.size() <= 12);
  }
}

TEST_CASE("a chart with a narrow range uses a linear scale", "[report][svg]") {
  BarChart c;
  c.title = "Power";
  c.y_label = "W";
  c.series = {"cpu", "gpu"};
  c.groups.push_back({"small", "tensors", {{"cpu", 6.9, 0.1, ""}, {"gpu", 8.6, 0.2, ""}}});
  c.groups.push_back(
      {"large", "tensors", {{"cpu", 7.8, 0.1, ""}, {"gpu", std::nullopt, std::nullopt, "failed"}}});
  const std::string svg = render_bar_chart_svg(c);
  CHECK(contains(svg, "linear scale"));
  CHECK_FALSE(contains(svg, "log scale"));
  CHECK(contains(svg, ">failed<"));
  CHECK(count(svg, "<rect") == 1 /* background */ + 2 /* legend */ + 3 /* bars */);
}

TEST_CASE("format_number and format_tick read well", "[report][svg]") {
  CHECK(format_number(0.0123) == "0.0123");
  CHECK(format_number(9.4528) == "9.45");
  CHECK(format_number(1985.4) == "1985");
  CHECK(format_number(3.118e7, 4) ==
        "3.118\xC3\x97"
        "10\xE2\x81\xB7");
  CHECK(format_number(621264, 2) ==
        "6.2\xC3\x97"
        "10\xE2\x81\xB5");
  CHECK(format_number(9.9999e6, 2) ==
        "1.0\xC3\x97"
        "10\xE2\x81\xB7");
  CHECK(format_number(2.5e-5) ==
        "2.50\xC3\x97"
        "10\xE2\x81\xBB\xE2\x81\xB5");
  CHECK(format_number(0) == "0");
  CHECK(format_tick(0.01, true) == "0.01");
  CHECK(format_tick(10000, true) == "10000");
  CHECK(format_tick(1e5, true) == "10\xE2\x81\xB5");
  CHECK(format_tick(100, true, true) == "10\xC2\xB2");
}

// ---- JSON --------------------------------------------------------------------

TEST_CASE("parse_json keeps order types and escapes", "[report][json]") {
  const JsonValue v = parse_json(
      R"({"b": 1, "a": [true, null, -2.5e3, "x\"y\u00e9\ud83d\ude00"], "o": {"k": {}}})");
  REQUIRE(v.is_object());
  CHECK(v.object[0].first == "b");
  CHECK(v.object[1].first == "a");
  CHECK(v.find("b")->number == 1);
  const auto& a = v.find("a")->array;
  REQUIRE(a.size() == 4);
  CHECK(a[0].boolean);
  CHECK(a[1].is_null());
  CHECK(a[2].number == -2500);
  CHECK(a[2].to_text() == "-2.5e3");
  CHECK(a[3].string == "x\"y\xC3\xA9\xF0\x9F\x98\x80");
  CHECK(v.at({"o", "k"})->is_object());
  CHECK(v.at({"o", "missing"}) == nullptr);
  CHECK(v.find("a")->to_text() == "[true, null, -2.5e3, \"x\\\"y\xC3\xA9\xF0\x9F\x98\x80\"]");
}

TEST_CASE("parse_json reports line and column of an error", "[report][json]") {
  try {
    parse_json("{\n  \"a\": 1,\n  \"b\": tru\n}", "context.json");
    FAIL("expected an error");
  } catch (const std::runtime_error& e) {
    // nlohmann-json reports where it noticed the error: the end of "tru".
    CHECK_THAT(e.what(), Catch::StartsWith("context.json: line 3 column 11: syntax error"));
    CHECK_THAT(e.what(), Catch::Contains("invalid literal"));
  }
  CHECK_THROWS(parse_json("[1, 2"));
  CHECK_THROWS(parse_json("{\"a\": 1} x"));
  CHECK_THROWS(parse_json(std::string(1000, '[')));
  CHECK(parse_json(slurp(kTx2Sweep + "/context.json"))
            .at({"power", "baseline_w", "VDD_IN"})
            ->number == Approx(2.351));
}

TEST_CASE("parse_json refuses a key given twice in one object, and says where", "[report][json]") {
  try {
    parse_json("{\n  \"a\": 1,\n  \"o\": {\"k\": 1, \"k\": 2}\n}", "context.json");
    FAIL("expected an error");
  } catch (const std::runtime_error& e) {
    CHECK_THAT(e.what(), Catch::StartsWith("context.json: line 3 column 17: the key \"k\" "
                                           "appears twice in one object"));
  }
  // Keys compare as decoded: "bo\u0061rd" is "board". A string value equal to
  // a key is not a key: the place is the second "x" key (line 1 column 20).
  CHECK_THROWS_WITH(parse_json(R"({"board": 1, "bo\u0061rd": 2})", "c"),
                    Catch::StartsWith("c: line 1 column 14: the key \"board\" appears twice"));
  CHECK_THROWS_WITH(parse_json(R"({"x": "y", "y": 1, "x": 2})", "c"),
                    Catch::StartsWith("c: line 1 column 20: the key \"x\""));
  // A syntax error right after the repeated key is that error, at its place:
  // nlohmann reads the key before its ':' (review).
  CHECK_THROWS_WITH(parse_json(R"({"a":1,"a","b":2})", "c"),
                    Catch::StartsWith("c: line 1 column 11: syntax error"));
  CHECK_THROWS_WITH(parse_json(R"({"a":1,"a")", "c"),
                    Catch::Contains("syntax error") && !Catch::Contains("twice"));
  // The same key in two objects, or in an object inside another, is fine.
  const JsonValue v =
      parse_json(R"({"a": {"k": 1}, "b": {"k": 2, "o": {"k": 3}}, "k": [{"k": 4}]})");
  CHECK(v.at({"b", "o", "k"})->number == 3);
  CHECK(v.find("k")->array[0].find("k")->number == 4);
}

TEST_CASE("parse_json refuses an object of more than 4096 keys, at the one past",
          "[report][json]") {
  // The typed reader's ordered map inserts in linear time: 160000 keys took
  // it 47 s. 4096 keys pass; the 4097th is refused where it is.
  const auto object = [](int keys) {
    std::string text = "{";
    for (int i = 0; i < keys; ++i) text += (i ? ",\n\"k" : "\"k") + std::to_string(i) + "\": 0";
    return text + "}";
  };
  CHECK(parse_json(object(4096)).object.size() == 4096);
  CHECK_THROWS_WITH(parse_json(object(4097), "c"),
                    Catch::StartsWith("c: line 4097 column 1: an object with more than 4096 keys"));
  // Many keys across objects are not one object's.
  std::string many = "[";
  for (int i = 0; i < 3; ++i) many += (i ? "," : "") + object(4000);
  CHECK(parse_json(many + "]").array.size() == 3);
}

TEST_CASE("report leaves out a context.json with a key twice, and says which", "[report]") {
  const std::string dir = temp_dir("report");
  write_text(dir + "/results.csv", slurp(kTx2Sweep + "/results.csv"));
  // Two boards: the first is what a reader that takes the first key sees,
  // the second what nlohmann (compare, resume) would have kept.
  std::string text = slurp(kTx2Sweep + "/context.json");
  REQUIRE(text.rfind("{\n", 0) == 0);
  text.insert(2, "  \"board\": {\"model\": \"PLANTED\"},\n");
  write_text(dir + "/context.json", text);
  const ReportData d = load_report_data(dir);
  CHECK_FALSE(d.context);
  CHECK_FALSE(d.run_context);
  REQUIRE(d.warnings.size() == 2);
  CHECK(contains(d.warnings[1], "context.json is unreadable"));
  CHECK(contains(d.warnings[1], "the key \"board\" appears twice"));
  CHECK_FALSE(contains(render_html_report(d, edp::testing::registry()), "PLANTED"));
}

// ---- the CLI -----------------------------------------------------------------

namespace {
int run_edpbench(const std::string& args, std::string* err = nullptr) {
  const std::string err_file = "/tmp/edpbench-report-" + std::to_string(::getpid()) + ".err";
  const int status = std::system(
      (std::string(EDPBENCH_BINARY) + " " + args + " >/dev/null 2>" + err_file + " </dev/null")
          .c_str());
  if (err) *err = slurp(err_file);
  std::remove(err_file.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
}  // namespace

TEST_CASE("edpbench report DIR -o FILE writes the page", "[report][cli]") {
  const std::string dir = temp_dir("report");
  std::string err;
  REQUIRE(run_edpbench("report " + kTx2Sweep + " -o " + dir + "/report.html", &err) == 0);
  CHECK(contains(err, "21 configurations"));
  CHECK(slurp(dir + "/report.html") == sweep_html());
  CHECK(run_edpbench("report /nonexistent/dir -o " + dir + "/x.html", &err) == 2);
  CHECK(contains(err, "/nonexistent/dir"));
  CHECK(run_edpbench("report " + kTx2Sweep + " -o /nonexistent/dir/report.html") == 1);
}
