// bench/queue/svg.cpp - the throughput plot: bars by implementation, lines by producer count.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bench/queue/results.h"
#include "bench/queue/stats.h"

namespace rocref::bench {
namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

// The clean-canary median; with no clean repetition, the median of all runs (the table says which).
double plotted(const Series& s) { return s.mops.empty() ? median(s.mops_any) : median(s.mops); }

const char* kColors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
                         "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39",
                         "#7b4173", "#3182bd"};

}  // namespace

std::string format_svg(const SuiteResults& r) {
  struct Bar {
    std::string label;
    double one = NAN, two = NAN;
  };
  std::vector<Bar> bars;
  double top = 1;
  for (const auto& impl : implementations()) {
    Bar b{impl.label};
    if (auto it = r.series.find("queue_1p1c/" + impl.name); it != r.series.end()) b.one = plotted(it->second);
    if (auto it = r.series.find("queue_2p/" + impl.name); it != r.series.end()) b.two = plotted(it->second);
    if (std::isnan(b.one) && std::isnan(b.two)) continue;
    for (double v : {b.one, b.two}) {
      if (!std::isnan(v)) top = std::max(top, v);
    }
    bars.push_back(b);
  }
  const double row = 22, left = 260, width = 420;
  const double bars_height = 60 + row * static_cast<double>(bars.size());
  const double chart_top = bars_height + 40, chart_height = 260;
  const double total_height = chart_top + chart_height + 80;
  std::string s = "<svg xmlns='http://www.w3.org/2000/svg' width='980' height='" + num(total_height) +
                  "' font-family='sans-serif' font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n";
  s += "<text x='10' y='20' font-size='15'>Throughput by implementation, Mops/s (median; " + escape(r.machine) +
       ")</text>\n";
  s += "<rect x='700' y='30' width='12' height='10' fill='#1f77b4'/><text x='716' y='39'>1 producer -> 1 consumer</text>\n";
  s += "<rect x='700' y='46' width='12' height='10' fill='#ff7f0e'/><text x='716' y='55'>2 producers -> 1 consumer</text>\n";
  double y = 40;
  for (const auto& b : bars) {
    s += "<text x='" + num(left - 6) + "' y='" + num(y + 14) + "' text-anchor='end'>" + escape(b.label) + "</text>\n";
    if (!std::isnan(b.one)) {
      s += "<rect x='" + num(left) + "' y='" + num(y + 2) + "' width='" + num(width * b.one / top) +
           "' height='8' fill='#1f77b4'/><text x='" + num(left + width * b.one / top + 4) + "' y='" + num(y + 10) +
           "' font-size='10'>" + num(b.one) + "</text>\n";
    }
    if (!std::isnan(b.two)) {
      s += "<rect x='" + num(left) + "' y='" + num(y + 11) + "' width='" + num(width * b.two / top) +
           "' height='8' fill='#ff7f0e'/><text x='" + num(left + width * b.two / top + 4) + "' y='" + num(y + 19) +
           "' font-size='10'>" + num(b.two) + "</text>\n";
    }
    y += row;
  }
  // Scaling lines.
  s += "<text x='10' y='" + num(chart_top - 12) + "' font-size='15'>Throughput by producer count, Mops/s</text>\n";
  const auto& counts = r.producer_counts;
  double scale_top = 1;
  for (const auto& [name, series] : r.series) {
    if (series.scenario == "queue_scale" && !series.mops_any.empty()) scale_top = std::max(scale_top, plotted(series));
  }
  const double cx = 80, cw = 560;
  s += "<line x1='" + num(cx) + "' y1='" + num(chart_top + chart_height) + "' x2='" + num(cx + cw) + "' y2='" +
       num(chart_top + chart_height) + "' stroke='black'/>\n<line x1='" + num(cx) + "' y1='" + num(chart_top) +
       "' x2='" + num(cx) + "' y2='" + num(chart_top + chart_height) + "' stroke='black'/>\n";
  s += "<text x='" + num(cx - 6) + "' y='" + num(chart_top + 4) + "' text-anchor='end'>" + num(scale_top) +
       "</text><text x='" + num(cx - 6) + "' y='" + num(chart_top + chart_height) + "' text-anchor='end'>0</text>\n";
  auto x_of = [&](size_t i) {
    return counts.size() < 2 ? cx + cw / 2 : cx + cw * static_cast<double>(i) / static_cast<double>(counts.size() - 1);
  };
  for (size_t i = 0; i < counts.size(); ++i) {
    s += "<text x='" + num(x_of(i)) + "' y='" + num(chart_top + chart_height + 16) + "' text-anchor='middle'>" +
         std::to_string(counts[i]) + "</text>\n";
  }
  s += "<text x='" + num(cx + cw / 2) + "' y='" + num(chart_top + chart_height + 34) +
       "' text-anchor='middle'>producers</text>\n";
  size_t color = 0;
  double legend_y = chart_top;
  for (const auto& impl : implementations()) {
    std::string points;
    for (size_t i = 0; i < counts.size(); ++i) {
      auto it = r.series.find("queue_scale/" + impl.name + "/producers:" + std::to_string(counts[i]));
      if (it == r.series.end() || it->second.mops_any.empty()) continue;
      const double v = plotted(it->second);
      points += num(x_of(i)) + "," + num(chart_top + chart_height * (1 - v / scale_top)) + " ";
    }
    if (points.empty()) continue;
    const char* c = kColors[color++ % (sizeof kColors / sizeof *kColors)];
    s += "<polyline fill='none' stroke='" + std::string(c) + "' stroke-width='2' points='" + points + "'/>\n";
    s += "<rect x='" + num(cx + cw + 30) + "' y='" + num(legend_y) + "' width='12' height='10' fill='" + c +
         "'/><text x='" + num(cx + cw + 46) + "' y='" + num(legend_y + 9) + "'>" + escape(impl.label) + "</text>\n";
    legend_y += 16;
  }
  s += "</svg>\n";
  return s;
}

}  // namespace rocref::bench
