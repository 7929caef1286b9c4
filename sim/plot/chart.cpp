// render(): lays a Chart out (title, plot area, axes, legend on the right), maps its data to pixels
// and draws it on a 4x supersampled Raster; write_png(): encodes with Debian's libstb and writes the
// file atomically. The layout is computed in output pixels from the text sizes, so a long tick
// label or legend entry moves the plot area rather than overlapping it.
#include "sim/plot/chart.h"

#include <stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/plot/raster.h"
#include "sim/plot/ticks.h"

namespace chaintwin::sim::plot {
namespace {

constexpr int kSupersample = 4;
// Okabe & Ito's palette, which stays distinct under the common colour-vision deficiencies; the
// yellow, weakest on white, comes last.
constexpr uint32_t kPalette[] = {0x0072B2FF, 0xD55E00FF, 0x009E73FF, 0xCC79A7FF,
                                 0xE69F00FF, 0x56B4E9FF, 0x000000FF, 0xF0E442FF};
constexpr Rgba kWhite{255, 255, 255, 255};
constexpr Rgba kInk{34, 34, 34, 255};          // title and axis labels
constexpr Rgba kTickInk{68, 68, 68, 255};      // tick labels and marks
constexpr Rgba kFrame{85, 85, 85, 255};
constexpr Rgba kGrid{228, 228, 228, 255};
constexpr Rgba kLegendBorder{190, 190, 190, 255};
constexpr uint32_t kReferenceGrey = 0x444444FF;
constexpr uint8_t kBandAlpha = 56;  // a band is the series' colour at 22 %

constexpr double kTitleScale = 2.25, kLabelScale = 1.75, kTickScale = 1.5, kLegendScale = 1.5;
constexpr double kPad = 16, kTickLength = 5, kLineWidth = 2.2, kMarkerRadius = 4.5;

enum class Marker { kCircle, kSquare, kTriangle, kDiamond, kTriangleDown };
constexpr Marker kMarkers[] = {Marker::kCircle, Marker::kSquare, Marker::kTriangle, Marker::kDiamond,
                               Marker::kTriangleDown};

void mark_marker(Raster& r, Marker m, double cx, double cy, double radius) {
  switch (m) {
    case Marker::kCircle: r.mark_disc(cx, cy, radius); return;
    case Marker::kSquare: {
      const double h = radius * 0.88;
      r.mark_rect(cx - h, cy - h, cx + h, cy + h);
      return;
    }
    case Marker::kTriangle: {
      const double h = radius * 1.2;
      r.mark_polygon({{cx, cy - h}, {cx + h * 0.95, cy + h * 0.7}, {cx - h * 0.95, cy + h * 0.7}});
      return;
    }
    case Marker::kTriangleDown: {
      const double h = radius * 1.2;
      r.mark_polygon({{cx, cy + h}, {cx - h * 0.95, cy - h * 0.7}, {cx + h * 0.95, cy - h * 0.7}});
      return;
    }
    case Marker::kDiamond: {
      const double h = radius * 1.2;
      r.mark_polygon({{cx, cy - h}, {cx + h, cy}, {cx, cy + h}, {cx - h, cy}});
      return;
    }
  }
}

// One marker, filled or hollow (a ring in the colour around white).
void draw_marker(Raster& r, Marker m, double cx, double cy, Rgba colour, bool filled) {
  mark_marker(r, m, cx, cy, kMarkerRadius);
  r.paint(colour);
  if (!filled) {
    mark_marker(r, m, cx, cy, kMarkerRadius - 1.7);
    r.paint(kWhite);
  }
}

bool has_line(Series::Style s) { return s != Series::Style::kPoints; }
bool has_points(Series::Style s) { return s != Series::Style::kLine; }

// A series' drawable data: points with finite x and y (y > 0 on a log axis), in the given order;
// a point that is left out breaks the line there.
struct Prepared {
  const Series* series = nullptr;
  Rgba colour;
  Marker marker = Marker::kCircle;
  struct P {
    double x, y;
    bool filled;
    bool starts_run;  // the previous point was left out (or this is the first)
  };
  std::vector<P> points;
  struct B {
    double x, lo, hi;
    bool starts_run;
  };
  std::vector<B> band;
};

// Values beyond +-1e300 (and, on a log axis, below 1e-300) are left out like infinities: the axis
// arithmetic stays finite.
constexpr double kLargest = 1e300;
bool usable_x(double x) { return std::fabs(x) <= kLargest; }
bool usable_y(double y, bool log_y) { return std::fabs(y) <= kLargest && (!log_y || y >= 1 / kLargest); }

std::vector<Prepared> prepare(const Chart& chart) {
  std::vector<Prepared> out;
  size_t next_colour = 0;
  for (size_t i = 0; i < chart.series.size(); ++i) {
    const Series& s = chart.series[i];
    Prepared p;
    p.series = &s;
    p.colour = Rgba::from_u32(s.rgba != 0 ? s.rgba : kPalette[next_colour++ % std::size(kPalette)]);
    p.marker = kMarkers[i % std::size(kMarkers)];
    const size_t n = std::min(s.x.size(), s.y.size());
    bool gap = true;
    for (size_t k = 0; k < n; ++k) {
      if (!usable_x(s.x[k]) || !usable_y(s.y[k], chart.log_y)) {
        gap = true;
        continue;
      }
      const bool filled = s.highlight.size() != s.x.size() || s.highlight[k];
      p.points.push_back({s.x[k], s.y[k], filled, gap});
      gap = false;
    }
    if (s.y_low.size() == s.x.size() && s.y_high.size() == s.x.size()) {
      gap = true;
      for (size_t k = 0; k < s.x.size(); ++k) {
        if (!usable_x(s.x[k]) || !usable_y(s.y_low[k], chart.log_y) || !usable_y(s.y_high[k], chart.log_y)) {
          gap = true;
          continue;
        }
        p.band.push_back({s.x[k], s.y_low[k], s.y_high[k], gap});
        gap = false;
      }
    }
    out.push_back(std::move(p));
  }
  return out;
}

struct Range {
  double lo = INFINITY, hi = -INFINITY;
  void add(double v) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  bool empty() const { return !(lo <= hi); }
};

double text_h(double scale) { return Raster::text_height(scale); }

// The legend's rows: every series, then every reference line.
struct LegendRow {
  std::string label;
  Rgba colour;
  bool line = false, points = false, band = false, dashed = false;
  Marker marker = Marker::kCircle;
};

class Renderer {
 public:
  Renderer(const Chart& chart, int w, int h) : c_(chart), w_(w), h_(h), r_(w, h, kSupersample, kWhite) {}

  Image run() {
    prepared_ = prepare(c_);
    collect_ranges();
    build_legend();
    place_legend();
    if (has_data_) {
      draw_grid();
      draw_bands();
      draw_reference_lines();
      draw_series();
      r_.clear_clip();
      draw_ticks();
    } else {
      const std::string msg = "no data";
      r_.mark_text((left_ + right_) / 2 - Raster::text_width(msg, kLabelScale) / 2, (top_ + bottom_) / 2 - text_h(kLabelScale) / 2,
                   msg, kLabelScale);
      r_.paint({150, 150, 150, 255});
    }
    draw_frame_and_labels();
    draw_legend();
    return Image{w_, h_, r_.resolve()};
  }

 private:
  void collect_ranges() {
    for (const Prepared& p : prepared_) {
      for (const auto& pt : p.points) {
        xr_.add(pt.x);
        yr_.add(pt.y);
      }
      for (const auto& b : p.band) {
        xr_.add(b.x);
        yr_.add(b.lo);
        yr_.add(b.hi);
      }
    }
    has_data_ = !xr_.empty() && !yr_.empty();
    if (!has_data_) return;
    // The axis ranges include the reference lines, so an SLO above every point is still drawn.
    for (const ReferenceLine& l : c_.lines) {
      if (l.vertical) {
        if (usable_x(l.value)) xr_.add(l.value);
      } else if (usable_y(l.value, c_.log_y)) {
        yr_.add(l.value);
      }
    }
    // A linear y axis of non-negative values starts at 0 when 0 is near (within half the span).
    if (!c_.log_y && yr_.lo >= 0 && yr_.lo <= (yr_.hi - yr_.lo) * 0.5) yr_.lo = 0;
  }

  void build_legend() {
    for (const Prepared& p : prepared_) {
      LegendRow row;
      row.label = p.series->label;
      row.colour = p.colour;
      row.line = has_line(p.series->style);
      row.points = has_points(p.series->style);
      row.band = !p.band.empty() || (p.series->y_low.size() == p.series->x.size() && !p.series->x.empty() &&
                                     p.series->y_high.size() == p.series->x.size());
      row.marker = p.marker;
      legend_.push_back(row);
    }
    for (const ReferenceLine& l : c_.lines) {
      LegendRow row;
      row.label = l.label;
      row.colour = Rgba::from_u32(l.rgba != 0 ? l.rgba : kReferenceGrey);
      row.dashed = true;
      legend_.push_back(row);
    }
    if (legend_.empty()) return;
    double label_w = 0;
    for (const LegendRow& row : legend_) label_w = std::max(label_w, Raster::text_width(row.label, kLegendScale));
    legend_row_h_ = text_h(kLegendScale) + 9;
    legend_w_ = 10 + kSampleWidth + 8 + label_w + 10;
    legend_h_ = 8 + legend_row_h_ * static_cast<double>(legend_.size()) + 2;
  }

  // The legend goes inside the plot, in the first corner (top right, top left, bottom right, bottom
  // left) where it covers no point, line, band or reference line; when every corner is taken, it
  // goes to the right of the plot, which is then narrower.
  void place_legend() {
    legend_inside_ = false;
    if (has_data_ && !legend_.empty()) {
      layout(false);
      const double m = 10;
      const double xs[2] = {right_ - m - legend_w_, left_ + m}, ys[2] = {top_ + m, bottom_ - m - legend_h_};
      const int corners[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
      for (const auto& c : corners) {
        const double x0 = xs[c[0]], y0 = ys[c[1]];
        if (x0 < left_ + m || y0 < top_ + m || x0 + legend_w_ > right_ - m || y0 + legend_h_ > bottom_ - m) continue;
        if (!covers_data(x0 - 4, y0 - 4, x0 + legend_w_ + 4, y0 + legend_h_ + 4)) {
          legend_inside_ = true;
          legend_x_ = x0;
          legend_y_ = y0;
          return;
        }
      }
    }
    layout(!legend_.empty());
    legend_x_ = right_ + 14;
    legend_y_ = top_;
  }

  // Whether anything drawn in the plot area falls in the box (output pixels, after layout).
  bool covers_data(double x0, double y0, double x1, double y1) const {
    auto in = [&](double x, double y, double r) { return x + r >= x0 && x - r <= x1 && y + r >= y0 && y - r <= y1; };
    for (const Prepared& p : prepared_) {
      for (size_t k = 0; k < p.points.size(); ++k) {
        const double ax = px(p.points[k].x), ay = py(p.points[k].y);
        if (in(ax, ay, kMarkerRadius + 2)) return true;
        if (k + 1 == p.points.size() || p.points[k + 1].starts_run || !has_line(p.series->style)) continue;
        const double bx = px(p.points[k + 1].x), by = py(p.points[k + 1].y);
        const int steps = std::clamp(static_cast<int>(std::hypot(bx - ax, by - ay) / 2), 1, 4000);
        for (int i = 1; i < steps; ++i) {
          const double t = static_cast<double>(i) / steps;
          if (in(ax + (bx - ax) * t, ay + (by - ay) * t, kLineWidth + 1)) return true;
        }
      }
      for (size_t k = 0; k < p.band.size(); ++k) {  // the band as vertical spans every 2 px
        const bool joined = k + 1 < p.band.size() && !p.band[k + 1].starts_run;
        const double ax = px(p.band[k].x), bx = joined ? px(p.band[k + 1].x) : ax;
        const int steps = std::clamp(static_cast<int>(std::fabs(bx - ax) / 2), 1, 4000);
        for (int i = 0; i <= steps; ++i) {
          const double t = static_cast<double>(i) / steps;
          const double x = ax + (bx - ax) * t;
          const size_t e = joined ? k + 1 : k;
          const double hi = py(p.band[k].hi) + (py(p.band[e].hi) - py(p.band[k].hi)) * t;
          const double lo = py(p.band[k].lo) + (py(p.band[e].lo) - py(p.band[k].lo)) * t;
          if (x >= x0 - 3 && x <= x1 + 3 && std::max(hi, lo) >= y0 && std::min(hi, lo) <= y1) return true;
        }
      }
    }
    const double label_h = text_h(kTickScale) + 6;
    for (const ReferenceLine& l : c_.lines) {
      if (l.vertical) {
        const double reach = Raster::text_width(l.label, kTickScale) + 10;  // its label beside it
        if (usable_x(l.value) && px(l.value) >= x0 - reach && px(l.value) <= x1 + reach) return true;
      } else if (usable_y(l.value, c_.log_y) && py(l.value) >= y0 - label_h && py(l.value) <= y1 + 4) {
        return true;
      }
    }
    return false;
  }

  // The plot area, its axes and ticks; `legend_outside` keeps room for the legend on the right.
  void layout(bool legend_outside) {
    top_ = kPad + (c_.title.empty() ? 4 : text_h(kTitleScale) + 14);
    bottom_ = h_ - kPad - (c_.x_label.empty() ? 0 : text_h(kLabelScale) + 10) - (has_data_ ? text_h(kTickScale) + kTickLength + 6 : 0);
    right_ = w_ - kPad - (legend_outside ? legend_w_ + 14 : 0);
    bottom_ = std::max(bottom_, top_ + 20);
    if (has_data_) {
      y_ = c_.log_y ? log_axis(yr_.lo, yr_.hi)
                    : linear_axis(yr_.lo, yr_.hi, std::max(2, static_cast<int>((bottom_ - top_) / 55)));
      // A y axis that starts at exactly 0 keeps 0 as its bottom edge (no padding below it).
      if (!c_.log_y && yr_.lo == 0 && yr_.hi > 0) {
        y_.lo = 0;
        y_.ticks = nice_ticks(0, y_.hi, std::max(2, static_cast<int>((bottom_ - top_) / 55)));
      }
    }
    double tick_w = 0;
    for (double t : y_.ticks) tick_w = std::max(tick_w, Raster::text_width(label(t, y_), kTickScale));
    left_ = kPad + (c_.y_label.empty() ? 0 : text_h(kLabelScale) + 12) + (has_data_ ? tick_w + kTickLength + 6 : 0);
    right_ = std::max(right_, left_ + 20);
    if (!has_data_) return;
    // As many x ticks as fit with room between their labels.
    for (int target = std::max(2, static_cast<int>((right_ - left_) / 80)); target >= 2; --target) {
      x_ = linear_axis(xr_.lo, xr_.hi, target);
      double widest = 0;
      for (double t : x_.ticks) widest = std::max(widest, Raster::text_width(label(t, x_), kTickScale));
      if ((widest + 16) * static_cast<double>(x_.ticks.size()) <= right_ - left_) break;
    }
    // Whole-number x values (node counts): ticks on whole numbers only.
    if (c_.x_integer && x_.step < 1) {
      x_.step = 1;
      x_.ticks.clear();
      for (double t = std::ceil(x_.lo); t <= x_.hi; t += 1) x_.ticks.push_back(t);
    }
  }

  static std::string label(double v, const Axis& a) { return tick_label(v, a.log ? v : a.step); }

  double px(double x) const { return left_ + (x - x_.lo) / (x_.hi - x_.lo) * (right_ - left_); }
  double py(double y) const {
    if (c_.log_y) {
      const double l0 = std::log10(y_.lo), l1 = std::log10(y_.hi);
      return bottom_ - (std::log10(y) - l0) / (l1 - l0) * (bottom_ - top_);
    }
    return bottom_ - (y - y_.lo) / (y_.hi - y_.lo) * (bottom_ - top_);
  }

  void clip_to_plot() { r_.set_clip(left_, top_, right_, bottom_); }

  void draw_grid() {
    clip_to_plot();
    for (double t : y_.ticks) r_.mark_rect(left_, py(t) - 0.5, right_, py(t) + 0.5);
    for (double t : x_.ticks) r_.mark_rect(px(t) - 0.5, top_, px(t) + 0.5, bottom_);
    r_.paint(kGrid);
  }

  void draw_bands() {
    clip_to_plot();
    for (const Prepared& p : prepared_) {
      // One polygon per unbroken run: along the high edge, back along the low edge.
      for (size_t k = 0; k < p.band.size();) {
        size_t e = k + 1;
        while (e < p.band.size() && !p.band[e].starts_run) ++e;
        std::vector<Point> poly;
        for (size_t i = k; i < e; ++i) poly.push_back({px(p.band[i].x), py(p.band[i].hi)});
        for (size_t i = e; i-- > k;) poly.push_back({px(p.band[i].x), py(p.band[i].lo)});
        if (e - k == 1) {  // a single x: a short vertical bar
          r_.mark_rect(poly[0].x - 3, poly[0].y, poly[0].x + 3, poly[1].y);
        } else {
          r_.mark_polygon(poly);
        }
        k = e;
      }
      Rgba c = p.colour;
      c.a = kBandAlpha;
      r_.paint(c);
    }
  }

  void draw_reference_lines() {
    for (const ReferenceLine& l : c_.lines) {
      const Rgba c = Rgba::from_u32(l.rgba != 0 ? l.rgba : kReferenceGrey);
      clip_to_plot();
      const double th = text_h(kTickScale), tw = Raster::text_width(l.label, kTickScale);
      if (l.vertical) {
        if (!usable_x(l.value)) continue;
        const double x = px(l.value);
        r_.mark_dashed({x, top_}, {x, bottom_}, 1.6, 7, 5);
        r_.paint(c);
        r_.clear_clip();
        const double tx = x + 5 + tw <= right_ - 4 ? x + 5 : x - 5 - tw;  // beside the line, inside the plot
        r_.mark_text(tx, top_ + 6, l.label, kTickScale);
      } else {
        if (!usable_y(l.value, c_.log_y)) continue;
        const double y = py(l.value);
        r_.mark_dashed({left_, y}, {right_, y}, 1.6, 7, 5);
        r_.paint(c);
        r_.clear_clip();
        const double ty = y - 5 - th >= top_ + 2 ? y - 5 - th : y + 5;  // above the line unless at the top
        r_.mark_text(right_ - 6 - tw, ty, l.label, kTickScale);
      }
      r_.paint(c);
    }
  }

  void draw_series() {
    for (const Prepared& p : prepared_) {
      clip_to_plot();
      if (has_line(p.series->style)) {
        std::vector<Point> run;
        auto flush = [&] {
          r_.mark_polyline(run, kLineWidth);
          run.clear();
        };
        for (const auto& pt : p.points) {
          if (pt.starts_run) flush();
          run.push_back({px(pt.x), py(pt.y)});
        }
        flush();
        r_.paint(p.colour);
      }
      // A line-only series still shows a lone point (one with no neighbour to join).
      for (size_t k = 0; k < p.points.size(); ++k) {
        const auto& pt = p.points[k];
        const bool alone = pt.starts_run && (k + 1 == p.points.size() || p.points[k + 1].starts_run);
        if (has_points(p.series->style) || alone) draw_marker(r_, p.marker, px(pt.x), py(pt.y), p.colour, pt.filled);
      }
    }
  }

  void draw_ticks() {
    const double th = text_h(kTickScale);
    for (double t : y_.ticks) {
      const double y = py(t);
      r_.mark_rect(left_ - kTickLength, y - 0.6, left_, y + 0.6);
      r_.paint(kFrame);
      const std::string s = label(t, y_);
      r_.mark_text(left_ - kTickLength - 5 - Raster::text_width(s, kTickScale), y - th * 0.4, s, kTickScale);
      r_.paint(kTickInk);
    }
    for (double t : x_.ticks) {
      const double x = px(t);
      r_.mark_rect(x - 0.6, bottom_, x + 0.6, bottom_ + kTickLength);
      r_.paint(kFrame);
      const std::string s = label(t, x_);
      r_.mark_text(x - Raster::text_width(s, kTickScale) / 2, bottom_ + kTickLength + 5, s, kTickScale);
      r_.paint(kTickInk);
    }
  }

  void draw_frame_and_labels() {
    r_.clear_clip();
    r_.mark_rect(left_ - 0.6, top_ - 0.6, right_ + 0.6, top_ + 0.6);
    r_.mark_rect(left_ - 0.6, bottom_ - 0.6, right_ + 0.6, bottom_ + 0.6);
    r_.mark_rect(left_ - 0.6, top_ - 0.6, left_ + 0.6, bottom_ + 0.6);
    r_.mark_rect(right_ - 0.6, top_ - 0.6, right_ + 0.6, bottom_ + 0.6);
    r_.paint(kFrame);
    if (!c_.title.empty()) {
      const double tw = Raster::text_width(c_.title, kTitleScale);
      double x = (left_ + right_) / 2 - tw / 2;
      x = std::clamp(x, kPad, std::max(kPad, w_ - kPad - tw));
      r_.mark_text(x, kPad, c_.title, kTitleScale);
    }
    if (!c_.x_label.empty())
      r_.mark_text((left_ + right_) / 2 - Raster::text_width(c_.x_label, kLabelScale) / 2,
                   h_ - kPad - text_h(kLabelScale), c_.x_label, kLabelScale);
    if (!c_.y_label.empty())
      r_.mark_text(kPad, (top_ + bottom_) / 2 + Raster::text_width(c_.y_label, kLabelScale) / 2, c_.y_label,
                   kLabelScale, true);
    r_.paint(kInk);
  }

  void draw_legend() {
    if (legend_.empty()) return;
    const double x0 = legend_x_, y0 = legend_y_;
    r_.mark_rect(x0, y0, x0 + legend_w_, y0 + legend_h_);
    r_.paint(kLegendBorder);
    r_.mark_rect(x0 + 1, y0 + 1, x0 + legend_w_ - 1, y0 + legend_h_ - 1);
    r_.paint(kWhite);
    const double th = text_h(kLegendScale);
    for (size_t i = 0; i < legend_.size(); ++i) {
      const LegendRow& row = legend_[i];
      const double top = y0 + 8 + legend_row_h_ * static_cast<double>(i);
      const double cy = top + th * 0.42, sx0 = x0 + 10, sx1 = sx0 + kSampleWidth;
      if (row.band) {
        r_.mark_rect(sx0, cy - 6, sx1, cy + 6);
        Rgba c = row.colour;
        c.a = kBandAlpha;
        r_.paint(c);
      }
      if (row.dashed) {
        r_.mark_dashed({sx0, cy}, {sx1, cy}, 1.6, 7, 5);
        r_.paint(row.colour);
      } else if (row.line) {
        r_.mark_segment({sx0, cy}, {sx1, cy}, kLineWidth);
        r_.paint(row.colour);
      }
      if (row.points) draw_marker(r_, row.marker, (sx0 + sx1) / 2, cy, row.colour, true);
      r_.mark_text(sx1 + 8, top, row.label, kLegendScale);
      r_.paint(kInk);
    }
  }

  static constexpr double kSampleWidth = 34;

  const Chart& c_;
  int w_, h_;
  Raster r_;
  std::vector<Prepared> prepared_;
  std::vector<LegendRow> legend_;
  double legend_w_ = 0, legend_h_ = 0, legend_row_h_ = 0;
  bool legend_inside_ = false;
  double legend_x_ = 0, legend_y_ = 0;
  Range xr_, yr_;
  bool has_data_ = false;
  Axis x_, y_;
  double left_ = 0, right_ = 0, top_ = 0, bottom_ = 0;
};

void append_bytes(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<uint8_t>*>(context);
  const auto* p = static_cast<const uint8_t*>(data);
  out->insert(out->end(), p, p + size);
}

}  // namespace

Image render(const Chart& chart) {
  const int w = std::clamp(chart.width, 64, 8192), h = std::clamp(chart.height, 64, 8192);
  return Renderer(chart, w, h).run();
}

model::Status write_png(const Chart& chart, const std::string& path) {
  const Image image = render(chart);
  std::vector<uint8_t> png;
  if (stbi_write_png_to_func(append_bytes, &png, image.width, image.height, 4, image.rgba.data(), image.width * 4) == 0 ||
      png.empty())
    return model::err(path + ": cannot encode the PNG");
  const std::string partial = path + ".partial";
  std::FILE* f = std::fopen(partial.c_str(), "wb");
  if (f == nullptr) return model::err(path + ": cannot write the PNG (cannot create " + partial + ")");
  const bool written = std::fwrite(png.data(), 1, png.size(), f) == png.size();
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed) {
    std::remove(partial.c_str());
    return model::err(path + ": cannot write the PNG (the disk refused it)");
  }
  if (std::rename(partial.c_str(), path.c_str()) != 0) {
    std::remove(partial.c_str());
    return model::err(path + ": cannot move the PNG into place");
  }
  return model::Ok{};
}

}  // namespace chaintwin::sim::plot
