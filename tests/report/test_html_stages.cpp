// The stages report section reads stages.csv and memory.csv alone.
#include <catch2/catch.hpp>

#include "report/html_stages.h"
#include "support/process.h"

TEST_CASE("stages section: empty without stages.csv, bars and tables with it", "[report][stages]") {
  const std::string dir = edp::testing::temp_dir("html-stages");
  CHECK(edp::report::render_stages_section(dir).empty());
  const std::string k = "\"stages:workload=tensors,size=tiny,device=cpu\"";
  std::string csv =
      "workload,size,device,stage,time_s,share,energy_j,gflops,compute_efficiency,note,"
      "energy_j_ci95,time_s_profiled,compute_efficiency_measured,peak_gflops,relu,status,study,"
      "key\n";
  const char* stages[] = {"forward", "backward", "update", "loss_readback"};
  for (const char* s : stages)
    csv += std::string("tensors,tiny,cpu,") + s + ",0.25,0.25,0.1,4,0.5,,0.01,0.25,,8,,ok,stages," +
           k + "\n";
  edp::testing::write_text(dir + "/stages.csv", csv);
  edp::testing::write_text(
      dir + "/memory.csv",
      "workload,size,device,tensor,kind,bytes_computed,bytes_measured,note,"
      "relu,status,study,key\ntensors,tiny,cpu,w1,weight,256000,,,,ok,stages," +
          k + "\n");
  const std::string html = edp::report::render_stages_section(dir);
  CHECK_THAT(html, Catch::Contains("<svg"));
  CHECK_THAT(html, Catch::Contains("tensors / tiny / cpu"));
  CHECK_THAT(html, Catch::Contains("0.1 ± 0.01"));
  CHECK_THAT(html, Catch::Contains("256000"));
  // Four segments of a quarter each.
  size_t rects = 0;
  for (size_t p = html.find("<title>"); p != std::string::npos; p = html.find("<title>", p + 1))
    ++rects;
  CHECK(rects == 4);
  // A file cut short (a quote left open) is said in place of the section;
  // report exited 1 on it.
  edp::testing::write_text(dir + "/memory.csv",
                           edp::testing::slurp(dir + "/memory.csv") + "tensors,tiny,cpu,\"w2");
  const std::string cut = edp::report::render_stages_section(dir);
  CHECK_THAT(cut, Catch::Contains("class=\"notice\">memory.csv is unreadable: ") &&
                      Catch::Contains("unterminated quoted field"));
  CHECK_THAT(cut, !Catch::Contains("<svg"));
  // The file named is the one that could not be read, whatever the other holds.
  edp::testing::write_text(dir + "/stages.csv", "");
  CHECK_THAT(edp::report::render_stages_section(dir),
             Catch::Contains("memory.csv is unreadable: "));
}
