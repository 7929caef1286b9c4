// A small chart renderer for the plots a capacity plan puts in a report (`chaintwin plan`) and the
// GUI's Plan panel shows: line and point series with optional shaded bands, dashed reference lines,
// real axes with 1-2-5 ticks, a title and a legend, drawn on a white background into RGBA pixels
// and written as a PNG. Pure and deterministic: the same Chart gives the same bytes. It depends on
// the standard library and stb only (no GL); docs/plots.md says what it draws.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/result.h"

namespace chaintwin::sim::plot {

// Colours are 0xRRGGBBAA. An alpha of 0 in a non-zero colour is read as opaque.
struct Series {
  std::string label;                  // legend text
  std::vector<double> x, y;           // same length (a longer one is cut to the shorter)
  std::vector<double> y_low, y_high;  // optional (empty or same length): a shaded band (e.g. a 95 % CI)
  enum class Style { kLine, kPoints, kLinePoints } style = Style::kLinePoints;
  uint32_t rgba = 0;                  // 0: the next colour of a fixed, colour-blind-safe palette
  std::vector<bool> highlight;        // optional: points drawn filled (e.g. "meets every SLO") vs hollow
};

struct ReferenceLine {  // a horizontal (or vertical) line with its label, e.g. the SLO
  std::string label;
  double value = 0;
  bool vertical = false;
  uint32_t rgba = 0;  // 0: dark grey
};

struct Chart {
  std::string title;
  std::string x_label, y_label;  // with units, e.g. "H100 nodes", "p95 wait (min)"
  std::vector<Series> series;
  std::vector<ReferenceLine> lines;
  bool log_y = false;
  bool x_integer = false;  // x values are whole numbers (node counts): no ticks between them
  int width = 900, height = 560;
};

struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;  // width * height * 4 bytes, rows top-down
};

// Deterministic: same chart -> same bytes. Sizes are clamped to 64..8192 pixels a side.
Image render(const Chart& chart);

// Writes the PNG atomically (temp file + rename; nothing half-written on failure).
model::Status write_png(const Chart& chart, const std::string& path);

}  // namespace chaintwin::sim::plot
