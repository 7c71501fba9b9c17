#include "report/report_css.h"

namespace edp::report {

std::string report_css() {
  return R"(body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; color: #222;
max-width: 1180px; margin: 20px auto; padding: 0 12px; font-size: 14px; line-height: 1.4; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 28px 0 8px; border-bottom: 2px solid #ddd; padding-bottom: 3px; }
.sub { color: #555; margin: 0 0 12px; }
.chips span { display: inline-block; background: #f0f2f5; border-radius: 10px; padding: 2px 10px;
margin: 0 6px 6px 0; font-size: 13px; }
.notice { border-left: 4px solid #d9a400; background: #fff8e1; padding: 8px 12px; margin: 8px 0; }
.notice.info { border-color: #3b6fd4; background: #eef3fc; }
.wide { overflow-x: auto; }
figure { margin: 10px 0 18px; }
figcaption { color: #555; font-size: 13px; }
svg.chart { max-width: 100%; height: auto; border: 1px solid #e4e4e4; }
table { border-collapse: collapse; margin: 6px 0 12px; font-size: 12px; }
table.results td, table.results th { padding: 3px 5px; }
table.results td:last-child { min-width: 9em; }
table.results .note { font-size: 11px; }
th, td { border: 1px solid #ddd; padding: 3px 7px; text-align: left; vertical-align: top; }
th { background: #f3f4f6; }
td.nowrap { white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.failed td { background: #fdecec; } tr.skipped td { background: #f4f4f4; color: #666; }
.choice { font-weight: bold; padding: 1px 8px; border-radius: 8px; color: #fff; }
.choice.cpu { background: #3b6fd4; } .choice.gpu { background: #6aa300; }
.choice.none, .choice.undecided { background: #888; }
.note { color: #555; font-size: 12px; }
table.kv th { width: 170px; font-weight: normal; color: #444; }
table.kv table.kv { margin: 0; }
ol.compact { margin: 0; padding-left: 20px; }
pre { background: #f6f7f9; padding: 6px 8px; font-size: 12px; white-space: pre-wrap;
margin: 4px 0; }
details summary { cursor: pointer; color: #3b6fd4; }
.pair { display: flex; flex-wrap: wrap; gap: 8px; }
.pair figure { margin: 4px 0; }
table.pivot caption { text-align: left; font-weight: bold; padding: 4px 0; }
footer { margin: 30px 0 10px; color: #777; font-size: 12px; border-top: 1px solid #ddd;
padding-top: 6px; }
@media (max-width: 700px) {
table { display: block; overflow-x: auto; max-width: 100%; }
figure { overflow-x: auto; }
svg.chart { max-width: none; width: 680px; }
}
)";
}

}  // namespace edp::report
