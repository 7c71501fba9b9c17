// The batch and ops studies in recommend and the report, on crafted data with
// known answers (tests/fixtures/report/make_studies_fixture.py): the crossover
// N (pure, then from results.csv), recommend per (workload, size, N) with the
// `batch` column, the batch and ops sections of the page, the pivot's unit
// formatting and the speed-up table between backend modes.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "report/crossover.h"
#include "report/html_report.h"
#include "report/html_sections.h"
#include "report/pivot_table.h"
#include "report/recommend.h"
#include "report/report_data.h"
#include "report/speedup.h"
#include "support/binary.h"
#include "support/files.h"
#include "support/fixtures.h"
#include "support/study_registry.h"

using edp::testing::between;
using edp::testing::contains;
using edp::testing::count;
using edp::testing::kTx2Sweep;
using edp::testing::slurp;
using namespace edp::report;

namespace {

const std::string kStudiesDir = EDPBENCH_FIXTURES "/report/tx2_studies";

const std::string& studies_html() {
  static const std::string html =
      render_html_report(load_report_data(kStudiesDir), edp::testing::registry());
  return html;
}

const BatchCrossover& find_row(const std::vector<BatchCrossover>& v, const std::string& workload) {
  for (const auto& c : v)
    if (c.workload == workload) return c;
  FAIL("no crossover for " << workload);
  return v.front();
}

}  // namespace

// ---- the crossover, pure ----------------------------------------------------

TEST_CASE("crossover: the GPU wins from the first N after which it always wins", "[crossover]") {
  // CPU 2 ms per sample, GPU 30 ms / N: 3.75 ms at 8, 1.875 ms at 16.
  std::vector<CrossoverPoint> pts;
  for (int64_t n = 512; n >= 1; n /= 2) pts.push_back({n, 2e-3, 0.03 / static_cast<double>(n)});
  const Crossover c = find_crossover(pts);  // given largest N first: order does not matter
  CHECK(c.kind == CrossoverKind::gpu_from);
  REQUIRE(c.n);
  CHECK(*c.n == 16);
  CHECK(*c.last_other_n == 8);
  CHECK(c.n_min == 1);
  CHECK(c.n_max == 512);
  CHECK(crossover_text(c) == "GPU from N = 16 (CPU up to N = 8)");
}

TEST_CASE("crossover: a tie goes to the CPU", "[crossover]") {
  const Crossover c = find_crossover({{16, 1.0, 2.0}, {32, 1.0, 1.0}, {64, 1.0, 0.5}});
  CHECK(c.kind == CrossoverKind::gpu_from);
  CHECK(*c.n == 64);
  CHECK(*c.last_other_n == 32);
}

TEST_CASE("crossover: one device winning at every N has no crossover N", "[crossover]") {
  const Crossover cpu = find_crossover({{1, 1.0, 2.0}, {2, 1.0, 3.0}, {4, 1.0, 1.5}});
  CHECK(cpu.kind == CrossoverKind::cpu_everywhere);
  CHECK_FALSE(cpu.n);
  CHECK(crossover_text(cpu) ==
        "CPU at every N (N = 1\xE2\x80\x93"
        "4)");
  const Crossover gpu = find_crossover({{8, 5.0, 1.0}, {16, std::nullopt, 0.5}});
  CHECK(gpu.kind == CrossoverKind::gpu_everywhere);
}

TEST_CASE("crossover: a device that alone qualifies at an N wins that N", "[crossover]") {
  const Crossover c = find_crossover({{8, 5.0, 1.0}, {16, 5.0, std::nullopt}});
  CHECK(c.kind == CrossoverKind::cpu_from);
  CHECK(*c.n == 16);
  CHECK(*c.last_other_n == 8);
  const Crossover g = find_crossover({{1, 1.0, 2.0}, {512, std::nullopt, 3.0}});
  CHECK(g.kind == CrossoverKind::gpu_from);
  CHECK(*g.n == 512);
}

TEST_CASE("crossover: no device qualifying at any N", "[crossover]") {
  CHECK(find_crossover({}).kind == CrossoverKind::none);
  const Crossover c = find_crossover({{1, std::nullopt, std::nullopt}, {2, {}, {}}});
  CHECK(c.kind == CrossoverKind::none);
  CHECK(crossover_text(c) == "no device qualifies at any N");
}

// ---- recommend on the batch fixture -----------------------------------------

TEST_CASE("batch_crossovers on the crafted results.csv gives the known N",
          "[recommend][crossover]") {
  const CsvTable t = load_results_csv(kStudiesDir + "/results.csv");
  const auto all = batch_crossovers(t, RecommendOptions{});
  REQUIRE(all.size() == 3);
  const auto& tensors = find_row(all, "tensors");
  CHECK(tensors.by_time.kind == CrossoverKind::gpu_from);
  CHECK(tensors.by_time.n == std::optional<int64_t>(16));
  REQUIRE(tensors.by_energy);
  CHECK(tensors.by_energy->kind == CrossoverKind::gpu_from);
  CHECK(tensors.by_energy->n == std::optional<int64_t>(64));  // the tie at 32 stays CPU
  const auto& autograd = find_row(all, "autograd");
  CHECK(autograd.by_time.kind == CrossoverKind::cpu_everywhere);
  CHECK(autograd.by_energy->kind == CrossoverKind::gpu_everywhere);
  const auto& failed = find_row(all, "custom_relu");
  CHECK(failed.by_time.kind == CrossoverKind::none);
  CHECK(failed.by_energy->kind == CrossoverKind::none);
}

TEST_CASE("batch_crossovers: a zero or negative time or energy per sample is not measured",
          "[recommend][crossover]") {
  CsvTable t = load_results_csv(kStudiesDir + "/results.csv");
  // tensors on the CPU at N = 256 and 512, where the GPU wins: as values,
  // -1 and 0 would be the smallest, and the CPU would win the largest N.
  size_t damaged = 0;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (t.get(r, "study") != "batch" || t.get(r, "workload") != "tensors" ||
        t.get(r, "device") != "cpu" || (t.get(r, "n") != "256" && t.get(r, "n") != "512"))
      continue;
    const std::string bad = t.get(r, "n") == "256" ? "-1" : "0";
    t.rows[r][t.column("time_per_sample_s_mean")] = bad;
    t.rows[r][t.column("energy_per_sample_j_mean")] = bad;
    ++damaged;
  }
  REQUIRE(damaged == 2);
  const auto all = batch_crossovers(t, RecommendOptions{});
  const auto& tensors = find_row(all, "tensors");
  CHECK(tensors.by_time.kind == CrossoverKind::gpu_from);
  CHECK(tensors.by_time.n == std::optional<int64_t>(16));
  REQUIRE(tensors.by_energy);
  CHECK(tensors.by_energy->kind == CrossoverKind::gpu_from);
  CHECK(tensors.by_energy->n == std::optional<int64_t>(64));
}

TEST_CASE("batch_crossovers: a deadline nobody meets leaves no device qualifying",
          "[recommend][crossover]") {
  const CsvTable t = load_results_csv(kStudiesDir + "/results.csv");
  RecommendOptions o;
  o.deadline_s = 1e-9;
  for (const auto& c : batch_crossovers(t, o)) CHECK(c.by_time.kind == CrossoverKind::none);
  // A deadline that only the small CPU runs of tensors meet (N x 100 x 2 ms <= 0.45 s: N <= 2)
  // and the GPU meets from N = 16 on (30 ms x 100 = 3 s always): the GPU never qualifies.
  o.deadline_s = 0.45;
  const auto crossovers = batch_crossovers(t, o);  // kept alive: find_row returns a reference
  const auto& tensors = find_row(crossovers, "tensors");
  CHECK(tensors.by_time.kind == CrossoverKind::cpu_everywhere);
  CHECK(tensors.by_time.n_max == 2);
}

TEST_CASE("recommend decides per (workload, size, N) and the CSV gets a batch column",
          "[recommend]") {
  const CsvTable t = load_results_csv(kStudiesDir + "/results.csv");
  RecommendOptions o;
  o.objective = Objective::time;
  o.studies = edp::testing::registry();  // the batch study's view: N names a configuration
  const auto recs = recommend(t, o);
  REQUIRE(recs.size() == 30);  // 3 workloads x 10 N
  CHECK(recs[0].batch == "1");
  CHECK(recs[3].choice == "cpu");  // tensors N = 8
  CHECK(recs[4].choice == "gpu");  // tensors N = 16
  CHECK(recommendation_sentence(recs[4], o).rfind("tensors/medium/n=16: GPU", 0) == 0);
  const CsvTable csv = parse_csv(recommendations_csv(recs));
  REQUIRE(csv.header.size() == 10);
  CHECK(csv.header.back() == "batch");
  CHECK(csv.get(4, "batch") == "16");
  CHECK(csv.get(4, "choice") == "gpu");
  // Files without batch rows keep the nine contract columns.
  const auto sweep = recommend(load_results_csv(kTx2Sweep + "/results.csv"), o);
  CHECK(parse_csv(recommendations_csv(sweep)).header.size() == 9);
}

TEST_CASE("edpbench recommend prints the crossover per workload and size", "[recommend][cli]") {
  const std::string out = "/tmp/edpbench-studies-" + std::to_string(::getpid()) + ".out";
  const std::string cmd = std::string(EDPBENCH_BINARY) + " recommend " + kStudiesDir +
                          "/results.csv --objective time >" + out + " 2>/dev/null";
  const int status = std::system(cmd.c_str());
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  const std::string text = slurp(out);
  std::remove(out.c_str());
  CHECK(contains(text, "Crossover (batch study, per sample)"));
  CHECK(contains(text,
                 "tensors/medium: by time, GPU from N = 16 (CPU up to N = 8); by energy, "
                 "GPU from N = 64 (CPU up to N = 32)"));
  CHECK(contains(text, "autograd/medium: by time, CPU at every N"));
  CHECK(contains(text, "custom_relu/medium: by time, no device qualifies at any N"));
}

// ---- the report's batch and ops sections --------------------------------------

TEST_CASE("the batch section plots per-sample time and energy against N with the crossover",
          "[report]") {
  const std::string batch = between(studies_html(), "<h2 id=\"batch\">", "<h2 id=\"ops\">");
  REQUIRE_FALSE(batch.empty());
  // Two charts per workload with ok rows (time, energy); none for all-failed custom_relu.
  CHECK(count(batch, "<svg") == 4);
  const std::string time_svg =
      between(batch, "id=\"fig-batch-tensors-medium-time_per_sample_s\"", "</svg>");
  CHECK(contains(time_svg, "GPU from N = 16"));
  CHECK(contains(time_svg, "batch size N (log scale)"));
  CHECK(count(time_svg, "<circle") == 20);  // 10 N x 2 devices
  CHECK(contains(between(batch, "id=\"fig-batch-tensors-medium-energy_per_sample_j\"", "</svg>"),
                 "GPU from N = 64"));
  // autograd: one device wins everywhere, so no marker.
  CHECK_FALSE(
      contains(between(batch, "id=\"fig-batch-autograd-medium-time_per_sample_s\"", "</svg>"),
               "class=\"marker\""));
  const std::string words = between(batch, "<table class=\"crossover\">", "</table>");
  CHECK(contains(words, "GPU from N = 16 (CPU up to N = 8)"));
  CHECK(contains(words, "no device qualifies at any N"));
  // The pivot: per workload and size, N x device, formatted by unit.
  CHECK(contains(batch, "<caption>Time per sample: tensors/medium</caption>"));
  CHECK(contains(batch, "<td>16</td><td class=\"num\">2 ms \xC2\xB1 50 \xC2\xB5s</td>"));
}

TEST_CASE("batch rows stay out of the MLP section", "[report]") {
  const std::string& html = studies_html();
  CHECK_FALSE(contains(html, "<h2>All configurations</h2>"));
  CHECK_FALSE(contains(html, "id=\"fig-time_s\""));
  // ... and a directory without batch rows or ops.csv has neither section.
  const std::string sweep =
      render_html_report(load_report_data(kTx2Sweep), edp::testing::registry());
  CHECK_FALSE(contains(sweep, "id=\"batch\""));
  CHECK_FALSE(contains(sweep, "id=\"ops\""));
  CHECK(render_ops_section(kTx2Sweep).empty());
  CHECK(render_stages_section(kTx2Sweep).empty());
}

TEST_CASE("the ops section has a roofline per device, throughput per op and a table", "[report]") {
  const std::string ops = between(studies_html(), "<h2 id=\"ops\">", "<h2>Failed");
  REQUIRE_FALSE(ops.empty());
  for (const char* id : {"fig-roofline-cpu", "fig-roofline-gpu", "fig-roofline-reference",
                         "fig-ops-copy", "fig-ops-add", "fig-ops-tanh", "fig-ops-gemm"})
    CHECK(contains(ops, std::string("id=\"") + id + "\""));
  CHECK_FALSE(contains(ops, "id=\"fig-ops-fma_peak\""));
  const std::string cpu_roof = between(ops, "id=\"fig-roofline-cpu\"", "</svg>");
  CHECK(contains(cpu_roof, "arithmetic intensity (FLOP/byte)"));
  CHECK(contains(cpu_roof, "nominal: 32.6 GFLOP/s, 59.7 GB/s"));
  CHECK(contains(cpu_roof, "measured: 27.9 GFLOP/s, 9.5 GB/s"));  // fma_peak, warm copy
  // add (2), tanh (2), gemm (2): warm points only; copy has no FLOPs.
  CHECK(count(cpu_roof, "<circle") == 6);
  const std::string table = between(ops, "<table class=\"ops\">", "</table>");
  CHECK(count(table, "<tr") == 38);  // header + 37 rows
  CHECK(contains(table, "max_reference_gflop"));
  CHECK(contains(table, "<td class=\"nowrap\">128 MiB</td>"));
}

TEST_CASE("the speed-up table between backend modes is in the ops section", "[report]") {
  const std::string table = between(between(studies_html(), "<h2 id=\"ops\">", "<h2>Failed"),
                                    "<table class=\"speedup\">", "</table>");
  REQUIRE_FALSE(table.empty());
  CHECK(contains(table, "<th>cpu vs reference</th><th>gpu vs reference</th><th>gpu vs cpu</th>"));
  // gemm n = 1024 runs at 0.8, 24 and 460 GFLOP/s: cpu/ref 30x, gpu/ref 575x, gpu/cpu 19.2x.
  CHECK(contains(table,
                 "<td>gemm n = 1024 warm</td><td class=\"num\">30\xC3\x97</td><td "
                 "class=\"num\">575\xC3\x97</td><td class=\"num\">19.2\xC3\x97</td>"));
}

// ---- helpers ---------------------------------------------------------------------

TEST_CASE("format_quantity picks the unit from the column's suffix", "[report][pivot]") {
  CHECK(unit_of("time_per_sample_s_mean") == "s");
  CHECK(unit_of("energy_per_op_j") == "J");
  CHECK(unit_of("power_w_mean") == "W");
  CHECK(unit_of("edp_js_ci95") == "J\xC2\xB7s");
  CHECK(unit_of("gflops") == "");
  CHECK(format_quantity(0.00123, "time_s_median") == "1.23 ms");
  CHECK(format_quantity(4.56e-5, "energy_j_mean") == "45.6 \xC2\xB5J");
  CHECK(format_quantity(7.1, "power_w_mean") == "7.1 W");
  CHECK(format_quantity(2140, "time_s_mean") == "2140 s");
  CHECK(format_quantity(3.5e-10, "time_s") == "350 ps");
  CHECK(format_quantity(12.5, "gflops") == "12.5");
}

TEST_CASE("make_pivots: a table per label, rows by first appearance, an ok row wins a cell",
          "[report][pivot]") {
  CsvTable t = parse_csv(
      "size,n,device,status,x_s_mean,x_s_ci95\n"
      "small,1,cpu,ok,0.002,0.0001\n"
      "small,1,gpu,failed,,\n"
      "small,2,gpu,ok,0.5,\n"
      "large,1,cpu,ok,3,0.1\n"
      "small,1,gpu,ok,0.004,0.0002\n");
  PivotSpec spec{{"size"}, {"n"}, "device", "x_s_mean", "x_s_ci95"};
  const auto p = make_pivots(t, spec);
  REQUIRE(p.size() == 2);
  CHECK(p[0].label == "small");
  CHECK(p[0].rows == std::vector<std::string>{"1", "2"});
  CHECK(p[0].columns == std::vector<std::string>{"cpu", "gpu"});
  CHECK(format_cell(p[0].cells.at({"1", "cpu"}), spec.value_column) ==
        "2 ms \xC2\xB1 100 \xC2\xB5s");
  CHECK(format_cell(p[0].cells.at({"1", "gpu"}), spec.value_column) ==
        "4 ms \xC2\xB1 200 \xC2\xB5s");
  CHECK(format_cell(p[0].cells.at({"2", "gpu"}), spec.value_column) == "500 ms");
  const std::string html = render_pivot_html(p[1], spec, "N");
  CHECK(contains(html, "<caption>large</caption>"));
  CHECK(contains(html, "<td class=\"num\">3 s \xC2\xB1 100 ms</td>"));
  // A negative CI cell is damage: the value is shown without a CI.
  const auto damaged = make_pivots(parse_csv("size,n,device,status,x_s_mean,x_s_ci95\n"
                                             "small,1,cpu,ok,0.002,-5\n"),
                                   spec);
  CHECK(format_cell(damaged[0].cells.at({"1", "cpu"}), spec.value_column) == "2 ms");
}

TEST_CASE("speedup_table: every pair of modes measured, the faster of two rows", "[report]") {
  const auto s = speedup_table({{"a", "gpu", 1.0},
                                {"a", "reference", 100.0},
                                {"a", "cpu", 10.0},
                                {"a", "cpu", 5.0},
                                {"b", "cpu", 2.0},
                                {"c", "gpu", 3.0}});
  REQUIRE(s.pairs.size() == 3);
  CHECK(s.pairs[0] == std::make_pair(std::string("reference"), std::string("cpu")));
  CHECK(s.pairs[2] == std::make_pair(std::string("cpu"), std::string("gpu")));
  CHECK(s.labels == std::vector<std::string>{"a"});  // b and c have one mode each
  CHECK(s.ratio.at({"a", 0}) == Approx(20.0));
  CHECK(s.ratio.at({"a", 1}) == Approx(100.0));
  CHECK(s.ratio.at({"a", 2}) == Approx(5.0));
  CHECK(speedup_table({{"a", "cpu", 1.0}, {"b", "cpu", 2.0}}).pairs.empty());
}

// An ops.csv value the study never writes draws nothing: the section says
// where it is (the report drew -1 s and 1e308 GFLOP/s). A cold row's time
// is a difference (the op with the flush, less the flush) and may be below 0.
TEST_CASE("the ops section of an ops.csv with a value no study writes is a notice", "[report]") {
  const CsvTable good = read_csv_file(kStudiesDir + "/ops.csv");
  std::string dir = "/tmp/edpbench-ops-values-XXXXXX";
  REQUIRE(::mkdtemp(&dir[0]) != nullptr);
  struct Case {
    size_t row;
    const char *column, *value, *why;
  };
  // Row 0 is a warm copy, row 1 its cold twin.
  REQUIRE(good.get(0, "variant") == "warm");
  REQUIRE(good.get(1, "variant") == "cold");
  for (const Case& c :
       {Case{0, "time_s_median", "-1", "is below zero"},
        Case{0, "energy_per_op_j", "-1", "is below zero"},
        Case{0, "gflops", "1e308", "is larger than 1e+15"},
        Case{0, "gbs", "nan", "is not a decimal number"}, Case{1, "time_s_median", "-2e-06", ""}}) {
    CsvTable t = good;
    t.rows[c.row][static_cast<size_t>(t.column(c.column))] = c.value;
    std::string text = csv_line(t.header);
    for (const auto& row : t.rows) text += csv_line(row);
    std::ofstream(dir + "/ops.csv") << text;
    const std::string h = render_ops_section(dir);
    INFO(c.column << " = " << c.value);
    if (std::string(c.why).empty()) {
      CHECK_THAT(h, !Catch::Contains("class=\"notice\""));
      continue;
    }
    CHECK_THAT(h, Catch::Contains("class=\"notice\"") &&
                      Catch::Contains("ops.csv line " + std::to_string(c.row + 2) + ": " +
                                      c.column + " = &#39;" + c.value + "&#39; " + c.why));
    CHECK_THAT(h, !Catch::Contains("<svg"));
  }
  std::remove((dir + "/ops.csv").c_str());
  ::rmdir(dir.c_str());
}
