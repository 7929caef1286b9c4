// The canvas sim/plot/chart.cpp draws on: an opaque RGB image supersampled `ss` times in each
// direction, so edges, 2-px lines, markers and text come out anti-aliased when resolve() averages
// each ss x ss block into one output pixel. Shapes are first marked in a coverage mask and then
// painted once with one colour, so a translucent polyline or band never blends twice where its
// pieces overlap. Coordinates are output pixels (floats); x grows right, y grows down.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace chaintwin::sim::plot {

struct Rgba {
  uint8_t r = 0, g = 0, b = 0, a = 255;
  static Rgba from_u32(uint32_t rgba);  // 0xRRGGBBAA; alpha 0 is read as opaque
};

struct Point {
  double x = 0, y = 0;
};

class Raster {
 public:
  Raster(int width, int height, int ss, Rgba background);

  int width() const { return width_; }
  int height() const { return height_; }

  // Shapes outside the clip rectangle are not marked (default: the whole image).
  void set_clip(double x0, double y0, double x1, double y1);
  void clear_clip();

  // Marking: each adds to the coverage mask.
  void mark_rect(double x0, double y0, double x1, double y1);
  void mark_polygon(const std::vector<Point>& points);  // non-zero winding, any shape
  void mark_disc(double cx, double cy, double r);
  void mark_segment(Point a, Point b, double width);                  // square ends
  void mark_polyline(const std::vector<Point>& points, double width);  // round joins and ends
  void mark_dashed(Point a, Point b, double width, double dash, double gap);
  // stb_easy_font text with its top-left at (x, y), `scale` output pixels per font unit; vertical
  // text reads bottom to top, its baseline side at x.
  void mark_text(double x, double y, const std::string& text, double scale, bool vertical = false);

  // Paints every marked sample with `colour` (alpha-blended) and clears the mask.
  void paint(Rgba colour);

  // The output image: each ss x ss block averaged. Deterministic.
  std::vector<uint8_t> resolve() const;

  // The width and height of `text` as mark_text draws it (horizontal), in output pixels.
  static double text_width(const std::string& text, double scale);
  static double text_height(double scale);  // one line: cap height plus descenders

 private:
  void mark_span(int y, int x0, int x1);  // samples [x0, x1) of row y, clipped

  int width_, height_, ss_, sw_, sh_;
  int cx0_, cy0_, cx1_, cy1_;         // clip in samples, half-open
  std::vector<uint8_t> rgb_, mask_;
  int dx0_, dy0_, dx1_, dy1_;         // the marked region, half-open (empty when dx0_ >= dx1_)
};

}  // namespace chaintwin::sim::plot
