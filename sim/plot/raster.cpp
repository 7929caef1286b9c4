#include "sim/plot/raster.h"

#include <stb_easy_font.h>

#include <algorithm>
#include <cmath>

namespace chaintwin::sim::plot {
namespace {

int floor_int(double v) { return static_cast<int>(std::floor(std::clamp(v, -1e9, 1e9))); }

// stb_easy_font draws ASCII 32..126 only; anything else becomes '?'.
std::string printable(const std::string& text) {
  std::string s = text;
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126) c = '?';
  return s;
}

}  // namespace

Rgba Rgba::from_u32(uint32_t rgba) {
  Rgba c{static_cast<uint8_t>(rgba >> 24), static_cast<uint8_t>(rgba >> 16), static_cast<uint8_t>(rgba >> 8),
         static_cast<uint8_t>(rgba)};
  if (c.a == 0) c.a = 255;
  return c;
}

Raster::Raster(int width, int height, int ss, Rgba background)
    : width_(width), height_(height), ss_(ss), sw_(width * ss), sh_(height * ss),
      rgb_(static_cast<size_t>(sw_) * static_cast<size_t>(sh_) * 3),
      mask_(static_cast<size_t>(sw_) * static_cast<size_t>(sh_), 0) {
  for (size_t i = 0; i < rgb_.size(); i += 3) {
    rgb_[i] = background.r;
    rgb_[i + 1] = background.g;
    rgb_[i + 2] = background.b;
  }
  clear_clip();
  dx0_ = dy0_ = 0;
  dx1_ = dy1_ = 0;
}

void Raster::set_clip(double x0, double y0, double x1, double y1) {
  cx0_ = std::clamp(floor_int(x0 * ss_ + 0.5), 0, sw_);
  cy0_ = std::clamp(floor_int(y0 * ss_ + 0.5), 0, sh_);
  cx1_ = std::clamp(floor_int(x1 * ss_ + 0.5), 0, sw_);
  cy1_ = std::clamp(floor_int(y1 * ss_ + 0.5), 0, sh_);
}

void Raster::clear_clip() {
  cx0_ = cy0_ = 0;
  cx1_ = sw_;
  cy1_ = sh_;
}

void Raster::mark_span(int y, int x0, int x1) {
  if (y < cy0_ || y >= cy1_) return;
  x0 = std::max(x0, cx0_);
  x1 = std::min(x1, cx1_);
  if (x0 >= x1) return;
  std::fill(mask_.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(y) * sw_ + x0),
            mask_.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(y) * sw_ + x1), uint8_t{1});
  if (dx0_ >= dx1_) {
    dx0_ = x0, dx1_ = x1, dy0_ = y, dy1_ = y + 1;
  } else {
    dx0_ = std::min(dx0_, x0), dx1_ = std::max(dx1_, x1);
    dy0_ = std::min(dy0_, y), dy1_ = std::max(dy1_, y + 1);
  }
}

// A sample (i, j) is covered when its centre (i + 0.5, j + 0.5) is inside the shape.
void Raster::mark_rect(double x0, double y0, double x1, double y1) {
  if (!(std::isfinite(x0) && std::isfinite(y0) && std::isfinite(x1) && std::isfinite(y1))) return;
  if (x1 < x0) std::swap(x0, x1);
  if (y1 < y0) std::swap(y0, y1);
  const int i0 = std::max(floor_int(x0 * ss_ + 0.5), cx0_), i1 = std::min(floor_int(x1 * ss_ + 0.5), cx1_);
  const int j0 = std::max(floor_int(y0 * ss_ + 0.5), cy0_), j1 = std::min(floor_int(y1 * ss_ + 0.5), cy1_);
  for (int j = j0; j < j1; ++j) mark_span(j, i0, i1);
}

void Raster::mark_polygon(const std::vector<Point>& points) {
  if (points.size() < 3) return;
  double ymin = 1e18, ymax = -1e18;
  for (const Point& p : points) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) return;
    ymin = std::min(ymin, p.y * ss_);
    ymax = std::max(ymax, p.y * ss_);
  }
  const int j0 = std::max(floor_int(ymin - 0.5), cy0_), j1 = std::min(floor_int(ymax + 0.5) + 1, cy1_);
  std::vector<std::pair<double, int>> crossings;
  for (int j = j0; j < j1; ++j) {
    const double yc = j + 0.5;
    crossings.clear();
    for (size_t k = 0; k < points.size(); ++k) {
      const Point a{points[k].x * ss_, points[k].y * ss_};
      const Point b{points[(k + 1) % points.size()].x * ss_, points[(k + 1) % points.size()].y * ss_};
      if (a.y == b.y) continue;
      const bool up = b.y > a.y;
      const double lo = up ? a.y : b.y, hi = up ? b.y : a.y;
      if (yc < lo || yc >= hi) continue;
      crossings.emplace_back(a.x + (yc - a.y) * (b.x - a.x) / (b.y - a.y), up ? 1 : -1);
    }
    std::sort(crossings.begin(), crossings.end());
    int winding = 0;
    for (size_t k = 0; k + 1 < crossings.size(); ++k) {
      winding += crossings[k].second;
      if (winding == 0) continue;
      mark_span(j, floor_int(crossings[k].first + 0.5), floor_int(crossings[k + 1].first + 0.5));
    }
  }
}

void Raster::mark_disc(double cx, double cy, double r) {
  if (!(std::isfinite(cx) && std::isfinite(cy) && r > 0)) return;
  const double sx = cx * ss_, sy = cy * ss_, sr = r * ss_;
  const int j0 = std::max(floor_int(sy - sr), cy0_), j1 = std::min(floor_int(sy + sr) + 1, cy1_);
  for (int j = j0; j < j1; ++j) {
    const double dy = j + 0.5 - sy;
    if (dy * dy > sr * sr) continue;
    const double dx = std::sqrt(sr * sr - dy * dy);
    mark_span(j, floor_int(sx - dx + 0.5), floor_int(sx + dx + 0.5));
  }
}

void Raster::mark_segment(Point a, Point b, double width) {
  const double dx = b.x - a.x, dy = b.y - a.y, len = std::hypot(dx, dy);
  if (!(len > 0) || !std::isfinite(len)) return;
  const double nx = -dy / len * width / 2, ny = dx / len * width / 2;
  mark_polygon({{a.x + nx, a.y + ny}, {b.x + nx, b.y + ny}, {b.x - nx, b.y - ny}, {a.x - nx, a.y - ny}});
}

void Raster::mark_polyline(const std::vector<Point>& points, double width) {
  for (size_t k = 0; k < points.size(); ++k) {
    mark_disc(points[k].x, points[k].y, width / 2);
    if (k + 1 < points.size()) mark_segment(points[k], points[k + 1], width);
  }
}

void Raster::mark_dashed(Point a, Point b, double width, double dash, double gap) {
  const double len = std::hypot(b.x - a.x, b.y - a.y);
  if (!(len > 0) || !std::isfinite(len) || dash <= 0) return;
  const double ux = (b.x - a.x) / len, uy = (b.y - a.y) / len;
  for (double s = 0; s < len; s += dash + gap) {
    const double e = std::min(s + dash, len);
    mark_segment({a.x + ux * s, a.y + uy * s}, {a.x + ux * e, a.y + uy * e}, width);
  }
}

void Raster::mark_text(double x, double y, const std::string& text, double scale, bool vertical) {
  std::string s = printable(text);
  if (s.empty()) return;
  std::vector<char> buffer(s.size() * 1024 + 64);  // up to 16 quads of 64 bytes a character
  const int quads = stb_easy_font_print(0, 0, s.data(), nullptr, buffer.data(), static_cast<int>(buffer.size()));
  for (int q = 0; q < quads; ++q) {
    double u0 = 1e9, v0 = 1e9, u1 = -1e9, v1 = -1e9;
    for (int k = 0; k < 4; ++k) {
      const float* v = reinterpret_cast<const float*>(buffer.data() + (static_cast<size_t>(q) * 4 + k) * 16);
      u0 = std::min(u0, double{v[0]}), u1 = std::max(u1, double{v[0]});
      v0 = std::min(v0, double{v[1]}), v1 = std::max(v1, double{v[1]});
    }
    if (vertical)  // (u, v) -> (x + v, y - u): the text turned a quarter to the left
      mark_rect(x + v0 * scale, y - u1 * scale, x + v1 * scale, y - u0 * scale);
    else
      mark_rect(x + u0 * scale, y + v0 * scale, x + u1 * scale, y + v1 * scale);
  }
}

double Raster::text_width(const std::string& text, double scale) {
  std::string s = printable(text);
  if (s.empty()) return 0;
  // stb counts the gap after the last character; the ink ends one unit earlier.
  return (stb_easy_font_width(s.data()) - 1) * scale;
}

double Raster::text_height(double scale) { return 9 * scale; }

void Raster::paint(Rgba c) {
  if (dx0_ >= dx1_) return;
  const unsigned a = c.a, na = 255 - a;
  for (int j = dy0_; j < dy1_; ++j) {
    uint8_t* m = mask_.data() + static_cast<size_t>(j) * sw_;
    uint8_t* p = rgb_.data() + static_cast<size_t>(j) * sw_ * 3;
    for (int i = dx0_; i < dx1_; ++i) {
      if (m[i] == 0) continue;
      m[i] = 0;
      uint8_t* px = p + static_cast<size_t>(i) * 3;
      px[0] = static_cast<uint8_t>((px[0] * na + c.r * a + 127) / 255);
      px[1] = static_cast<uint8_t>((px[1] * na + c.g * a + 127) / 255);
      px[2] = static_cast<uint8_t>((px[2] * na + c.b * a + 127) / 255);
    }
  }
  dx0_ = dx1_ = dy0_ = dy1_ = 0;
}

std::vector<uint8_t> Raster::resolve() const {
  std::vector<uint8_t> out(static_cast<size_t>(width_) * static_cast<size_t>(height_) * 4);
  const unsigned n = static_cast<unsigned>(ss_ * ss_);
  for (int y = 0; y < height_; ++y)
    for (int x = 0; x < width_; ++x) {
      unsigned sum[3] = {0, 0, 0};
      for (int j = 0; j < ss_; ++j) {
        const uint8_t* p = rgb_.data() + (static_cast<size_t>(y * ss_ + j) * sw_ + static_cast<size_t>(x) * ss_) * 3;
        for (int i = 0; i < ss_; ++i)
          for (int k = 0; k < 3; ++k) sum[k] += p[i * 3 + k];
      }
      uint8_t* o = out.data() + (static_cast<size_t>(y) * width_ + x) * 4;
      for (int k = 0; k < 3; ++k) o[k] = static_cast<uint8_t>((sum[k] + n / 2) / n);
      o[3] = 255;
    }
  return out;
}

}  // namespace chaintwin::sim::plot
