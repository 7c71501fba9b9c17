// samples.csv (DESIGN §5) and the report's timeline section: the columns in
// DESIGN's order, one row per point and rail, and per configuration the
// median run (by energy) drawn with its window's edges and idle baseline.
#include <catch2/catch.hpp>

#include <cmath>
#include <regex>

#include "report/csv.h"
#include "report/html_sections.h"
#include "report/json_read.h"
#include "report/samples_csv.h"
#include "report/svg_time_chart.h"
#include "support/process.h"

using namespace edp::report;

namespace {

// Three runs of one configuration: energies 5, 3, 4 J (median: run 3), each
// with its own constant power in samples.csv so the drawn run is known.
struct Sweep {
  std::string dir = edp::testing::temp_dir("timeline");
  ReportData data;

  explicit Sweep(const std::string& context = "{\"power\": {\"total_rails\": \"VDD_IN\"}}") {
    data.dir = dir;
    data.runs = parse_csv(
        "study,key,workload,run,time_s,energy_j,dynamic_energy_j,start_monotonic_s,"
        "end_monotonic_s\n"
        "mlp,k1,tensors,1,1.0,5,3,10,11\n"
        "mlp,k1,tensors,2,1.0,3,1,20,21\n"
        "mlp,k1,tensors,3,1.0,4,2,30,31.25\n");
    data.context = parse_json(context);
    std::string samples = csv_line(samples_columns());
    for (int run = 1; run <= 3; ++run) {
      WindowSamples w;
      w.study = "mlp";
      w.key = "k1";
      w.workload = "tensors";
      w.run = run;
      w.rails = {"VDD_IN", "VDD_SYS_GPU"};
      for (double t = -0.5; t <= 1.5; t += 0.25) {
        w.t_s.push_back(t);
      }
      w.power_w.assign(2, std::vector<double>(w.t_s.size(), 10.0 * run));
      w.corrected_w = w.power_w;
      w.corrected_w[0].back() = NAN;  // not yet published
      samples += samples_csv_text(w);
    }
    edp::testing::write_text(dir + "/samples.csv", samples);
  }
};

}  // namespace

TEST_CASE("samples.csv: DESIGN's columns, one row per point and rail", "[report][timeline]") {
  CHECK(samples_columns() == std::vector<std::string>{"study", "key", "workload", "run", "t_s",
                                                      "rail", "power_w", "corrected_power_w"});
  WindowSamples w;
  w.study = "ops";
  w.key = "ops:op=add,bytes=1KB,device=cpu";
  w.workload = "add";
  w.run = 2;
  w.rails = {"A", "B"};
  w.t_s = {-0.1, 0.05};
  w.power_w = {{1.5, 2.5}, {0.25, NAN}};
  w.corrected_w = {{2.5, NAN}, {0.25, NAN}};
  const auto rows = samples_rows(w);
  REQUIRE(samples_row_count(w) == 4);
  REQUIRE(rows.size() == 4);
  CHECK(rows[0] == std::vector<std::string>{"ops", w.key, "add", "2", "-0.1", "A", "1.5", "2.5"});
  CHECK(rows[1] == std::vector<std::string>{"ops", w.key, "add", "2", "-0.1", "B", "0.25", "0.25"});
  CHECK(rows[3] == std::vector<std::string>{"ops", w.key, "add", "2", "0.05", "B", "", ""});
  // The key's commas are quoted, so the file reads back as written.
  const CsvTable back = parse_csv(csv_line(samples_columns()) + samples_csv_text(w));
  CHECK(back.rows == rows);
}

TEST_CASE("timeline section: the median run by energy, its edges and its baseline",
          "[report][timeline]") {
  Sweep s;
  const std::string h = render_timeline_section(s.data);
  REQUIRE(!h.empty());
  // One chart, the run of median energy (4 J: run 3), drawn at its 30 W.
  CHECK(std::regex_search(h, std::regex("<svg[^>]*id=\"timeline-0\"")));
  CHECK(h.find("id=\"timeline-1\"") == std::string::npos);
  CHECK(h.find("run 3 of 3") != std::string::npos);
  // Window edges: start at 0 and end at 31.25 - 30 s; baseline (4 - 2) / 1 W.
  CHECK(h.find(">start<") != std::string::npos);
  CHECK(h.find("end 1.25 s") != std::string::npos);
  CHECK(h.find("idle 2 W") != std::string::npos);
  // Both series, on the total rail alone (30 W, not 60 W over both rails).
  CHECK(h.find("data-series=\"as read\"") != std::string::npos);
  CHECK(h.find("data-series=\"lag-corrected\"") != std::string::npos);
  CHECK(h.find("VDD_IN (W)") != std::string::npos);
  CHECK(h.find(">60<") == std::string::npos);
}

TEST_CASE("timeline section: absent without samples.csv, a note when the cap cut it",
          "[report][timeline]") {
  ReportData none;
  none.dir = edp::testing::temp_dir("timeline-none");
  CHECK(render_timeline_section(none).empty());

  Sweep capped(
      "{\"power\": {\"total_rails\": \"VDD_IN\", \"timeline\": {\"max_rows\": 1000, "
      "\"full_at\": \"k9/tensors#2\"}}}");
  const std::string h = render_timeline_section(capped.data);
  CHECK(h.find("cap of 1000 rows") != std::string::npos);
  CHECK(h.find("k9/tensors#2") != std::string::npos);

  // Other columns are said, not drawn.
  edp::testing::write_text(capped.dir + "/samples.csv", "t_s,power_w\n0,1\n");
  const std::string other = render_timeline_section(capped.data);
  CHECK(other.find("other columns") != std::string::npos);
  CHECK(other.find("<svg") == std::string::npos);
}

TEST_CASE("timeline section: a power no sensor writes is said at its line, nothing drawn",
          "[report][timeline]") {
  // 1e308 W was drawn pinned to the top of a 1 W axis; 'nan' was said as
  // "no samples for their median run".
  for (const std::string bad : {"1e308", "nan", "abc"}) {
    Sweep s;
    const std::string text = edp::testing::slurp(s.dir + "/samples.csv");
    // The median run (3): its first row's power as read.
    CsvTable t = parse_csv(text);
    size_t row = 0;
    while (t.get(row, "run") != "3") ++row;
    t.rows[row][static_cast<size_t>(t.column("power_w"))] = bad;
    std::string out = csv_line(t.header);
    for (const auto& r : t.rows) out += csv_line(r);
    edp::testing::write_text(s.dir + "/samples.csv", out);
    const std::string h = render_timeline_section(s.data);
    INFO(bad << ": " << h);
    CHECK(h.find("samples.csv line " + std::to_string(row + 2) + ": power_w = &#39;" + bad) !=
          std::string::npos);
    CHECK(h.find("<svg") == std::string::npos);
  }
}

TEST_CASE("timeline section: a run number that is no count names no run", "[report][timeline]") {
  // 1e20 was cast to int (undefined; it drew "run -2147483648"), and two
  // huge numbers collided.
  Sweep s;
  s.data.runs = parse_csv(
      "study,key,workload,run,time_s,energy_j,dynamic_energy_j,start_monotonic_s,"
      "end_monotonic_s\n"
      "mlp,k1,tensors,1e20,1.0,5,3,10,11\n"
      "mlp,k1,tensors,2,1.0,3,1,20,21\n"
      "mlp,k1,tensors,3,1.0,4,2,30,31.25\n");
  const std::string h = render_timeline_section(s.data);
  CHECK(h.find("-2147483648") == std::string::npos);
  // Of the two runs left, the lower of the even count's median: run 2.
  CHECK(h.find("run 2 of 2") != std::string::npos);
}

TEST_CASE("time chart: 1-2-5 ticks across zero, gaps where a value is missing",
          "[report][timeline]") {
  CHECK(linear_ticks(-0.5, 1.25) == std::vector<double>{-0.5, 0, 0.5, 1.0});
  CHECK(linear_ticks(0, 3.2, 4) == std::vector<double>{0, 1, 2, 3});
  TimeChart c;
  c.title = "t";
  c.series.push_back({"s", "#000", false, {{0, 1}, {1, 2}, {2, NAN}, {3, 2}, {4, 1}}});
  const std::string svg = render_time_chart_svg(c);
  // Two polylines: the NaN splits the series.
  size_t lines = 0;
  for (size_t p = 0; (p = svg.find("<polyline", p)) != std::string::npos; ++p) ++lines;
  CHECK(lines == 2);
  TimeChart empty;
  CHECK(render_time_chart_svg(empty).empty());
}

TEST_CASE("time chart: a stretch without points breaks the line, a lone point is a dot",
          "[report][timeline]") {
  // Review: a run whose process was stopped for 1.5 s had no points there,
  // and the chart joined the last point before to the first after with a
  // straight line, drawn as data; a valid point between two failed reads
  // was not drawn at all.
  auto count = [](const std::string& svg, const std::string& what) {
    size_t n = 0;
    for (size_t p = 0; (p = svg.find(what, p)) != std::string::npos; ++p) ++n;
    return n;
  };
  TimeChart c;
  c.title = "t";
  std::vector<std::pair<double, double>> points;
  for (int i = 0; i <= 10; ++i) points.push_back({0.01 * i, 3.0});        // every 10 ms
  for (int i = 0; i <= 10; ++i) points.push_back({1.6 + 0.01 * i, 7.0});  // after 1.5 s
  c.series.push_back({"s", "#000", false, points});
  std::string svg = render_time_chart_svg(c);
  CHECK(count(svg, "<polyline") == 2);
  // Jitter within three spacings is not a gap.
  TimeChart steady;
  steady.series.push_back(
      {"s", "#000", false, {{0, 1}, {0.01, 1}, {0.035, 1}, {0.045, 1}, {0.055, 1}}});
  CHECK(count(render_time_chart_svg(steady), "<polyline") == 1);
  // A point alone between two missing values.
  TimeChart lone;
  lone.series.push_back(
      {"s",
       "#000",
       false,
       {{0, 1}, {0.01, 1}, {0.02, NAN}, {0.03, 2}, {0.04, NAN}, {0.05, 1}, {0.06, 1}}});
  svg = render_time_chart_svg(lone);
  CHECK(count(svg, "<polyline") == 2);
  CHECK(count(svg, "<circle") == 1);
}
