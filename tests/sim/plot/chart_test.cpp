#include <catch2/catch.hpp>
#include <stb_image.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>

#include "sim/plot/chart.h"

using namespace chaintwin::sim::plot;
namespace fs = std::filesystem;

namespace {

// A plan-like chart: two series with bands and highlights, an SLO line.
Chart sample_chart() {
  Chart c;
  c.title = "p95 wait by H100 nodes";
  c.x_label = "H100 nodes";
  c.y_label = "p95 wait (min)";
  Series a{"training", {}, {}, {}, {}, Series::Style::kLinePoints, 0, {}};
  Series b{"inference", {}, {}, {}, {}, Series::Style::kLinePoints, 0, {}};
  for (int n = 2; n <= 16; n += 2) {
    const double w = 400.0 / (n * n) + 2, v = 80.0 / n + 1;
    a.x.push_back(n), a.y.push_back(w), a.y_low.push_back(w * 0.8), a.y_high.push_back(w * 1.2);
    a.highlight.push_back(w <= 15);
    b.x.push_back(n), b.y.push_back(v), b.highlight.push_back(v <= 15);
  }
  c.series = {a, b};
  c.lines.push_back({"SLO 15 min", 15, false, 0});
  return c;
}

// The share of pixels in a rectangle that are not white.
double inked(const Image& im, int x0, int y0, int x1, int y1) {
  int n = 0, total = 0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x, ++total) {
      const uint8_t* p = &im.rgba[(static_cast<size_t>(y) * im.width + x) * 4];
      if (p[0] < 250 || p[1] < 250 || p[2] < 250) ++n;
    }
  return total == 0 ? 0 : static_cast<double>(n) / total;
}

// Pixels within `tolerance` of an exact colour.
int pixels_like(const Image& im, uint8_t r, uint8_t g, uint8_t b, int tolerance = 12) {
  int n = 0;
  for (size_t i = 0; i + 3 < im.rgba.size(); i += 4)
    if (std::abs(im.rgba[i] - r) <= tolerance && std::abs(im.rgba[i + 1] - g) <= tolerance &&
        std::abs(im.rgba[i + 2] - b) <= tolerance)
      ++n;
  return n;
}

std::string temp_path(const std::string& name) {
  return (fs::temp_directory_path() / ("chaintwin-plot-test-" + name)).string();
}

}  // namespace

TEST_CASE("the same chart renders to the same bytes", "[plot]") {
  const Chart c = sample_chart();
  const Image a = render(c), b = render(c);
  CHECK(a.width == 900);
  CHECK(a.height == 560);
  REQUIRE(a.rgba.size() == 900u * 560u * 4u);
  CHECK(a.rgba == b.rgba);
  Chart other = c;
  other.series[0].y[3] += 1;
  CHECK(render(other).rgba != a.rgba);
}

TEST_CASE("a rendered chart draws in its plot area and its legend, on white", "[plot]") {
  const Image im = render(sample_chart());
  CHECK(inked(im, 0, 0, 900, 4) == 0);            // a white margin at the top
  CHECK(inked(im, 150, 120, 550, 420) > 0.02);    // the plot area: lines, bands, grid
  CHECK(inked(im, 700, 50, 880, 110) > 0.05);     // the legend box on the right
  CHECK(pixels_like(im, 0x00, 0x72, 0xB2) > 200);  // the first palette colour (training)
  CHECK(pixels_like(im, 0xD5, 0x5E, 0x00) > 200);  // the second (inference)
}

TEST_CASE("the axes include a reference line beyond the data", "[plot]") {
  Chart c;
  c.series.push_back({"s", {0, 1, 2}, {1, 2, 3}, {}, {}, Series::Style::kLine, 0, {}});
  c.lines.push_back({"limit", 100, false, 0xFF0000FF});
  c.lines.push_back({"x limit", -50, true, 0x00FF00FF});
  const Image im = render(c);
  CHECK(pixels_like(im, 255, 0, 0, 40) > 100);  // the horizontal line and its label are drawn
  CHECK(pixels_like(im, 0, 255, 0, 40) > 100);  // the vertical one too
}

TEST_CASE("write_png writes a PNG stb_image reads back with the chart's size and pixels", "[plot]") {
  Chart c = sample_chart();
  c.width = 640;
  c.height = 400;
  const std::string path = temp_path("roundtrip.png");
  fs::remove(path);
  REQUIRE(write_png(c, path).ok());
  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load(path.c_str(), &w, &h, &n, 4);
  REQUIRE(px != nullptr);
  CHECK(w == 640);
  CHECK(h == 400);
  const Image im = render(c);
  CHECK(std::equal(im.rgba.begin(), im.rgba.end(), px));
  stbi_image_free(px);
  CHECK_FALSE(fs::exists(path + ".partial"));
  // Written twice, the file is the same bytes.
  std::ifstream f1(path, std::ios::binary);
  const std::string first((std::istreambuf_iterator<char>(f1)), std::istreambuf_iterator<char>());
  REQUIRE(write_png(c, path).ok());
  std::ifstream f2(path, std::ios::binary);
  const std::string second((std::istreambuf_iterator<char>(f2)), std::istreambuf_iterator<char>());
  CHECK(first == second);
  fs::remove(path);
}

TEST_CASE("write_png to a path it cannot write returns an error and leaves nothing", "[plot]") {
  const std::string missing_dir = temp_path("no-such-dir/sub/chart.png");
  const auto s = write_png(sample_chart(), missing_dir);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().find(missing_dir) != std::string::npos);
  CHECK_FALSE(fs::exists(missing_dir));
  CHECK_FALSE(fs::exists(missing_dir + ".partial"));
  // A directory in the way: the PNG is made, then cannot be moved there; no partial file stays.
  const std::string dir = temp_path("a-directory.png");
  fs::create_directories(dir);
  const auto d = write_png(sample_chart(), dir);
  CHECK_FALSE(d.ok());
  CHECK(fs::is_directory(dir));
  CHECK_FALSE(fs::exists(dir + ".partial"));
  fs::remove_all(dir);
}

TEST_CASE("degenerate charts render without crashing", "[plot]") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  auto series = [](std::vector<double> x, std::vector<double> y) {
    Series s;
    s.label = "s";
    s.x = std::move(x);
    s.y = std::move(y);
    return s;
  };
  std::vector<std::pair<std::string, Chart>> charts;
  charts.push_back({"empty", Chart{}});
  Chart one;
  one.series.push_back(series({3}, {7}));
  charts.push_back({"one point", one});
  Chart flat;
  flat.series.push_back(series({1, 2, 3}, {5, 5, 5}));
  charts.push_back({"all equal", flat});
  Chart zeros;
  zeros.series.push_back(series({0, 0}, {0, 0}));
  charts.push_back({"all zero", zeros});
  Chart bad;
  bad.series.push_back(series({1, nan, 3, inf, 5}, {1, 2, nan, 4, -inf}));
  charts.push_back({"NaN and inf", bad});
  Chart only_bad;
  only_bad.series.push_back(series({nan}, {inf}));
  charts.push_back({"nothing finite", only_bad});
  Chart huge;
  huge.series.push_back(series({-1e300, 0, 1e300, 1e308}, {1e-300, 1, 1e300, 5}));  // 1e308: left out
  charts.push_back({"huge range", huge});
  Chart huge_log = huge;
  huge_log.log_y = true;
  charts.push_back({"huge log range", huge_log});
  Chart log_bad;
  log_bad.log_y = true;
  log_bad.series.push_back(series({1, 2, 3, 4}, {-1, 0, 10, 100}));
  log_bad.lines.push_back({"at zero", 0, false, 0});
  charts.push_back({"log with non-positive values", log_bad});
  Chart log_none = log_bad;
  log_none.series[0].y = {-1, 0, -5, 0};
  charts.push_back({"log with nothing positive", log_none});
  Chart ragged;
  ragged.series.push_back(series({1, 2, 3}, {1, 2}));
  ragged.series[0].y_low = {0};
  ragged.series[0].highlight = {true, false, true, true};
  charts.push_back({"ragged lengths", ragged});
  Chart tiny = one;
  tiny.width = 1;
  tiny.height = -5;
  tiny.title = "a title far longer than a sixty-four pixel image could ever hold";
  charts.push_back({"tiny", tiny});
  Chart many;
  for (int i = 0; i < 12; ++i) many.series.push_back(series({0, 1}, {static_cast<double>(i), i + 1.0}));
  many.series[0].label = "non-ASCII: \xc2\xb5s and \xe2\x80\x94 dashes";
  charts.push_back({"more series than colours", many});
  Chart lines_only;
  lines_only.lines.push_back({"SLO", 15, false, 0});
  charts.push_back({"a reference line and no data", lines_only});
  Chart band_single;
  band_single.series.push_back(series({4}, {2}));
  band_single.series[0].y_low = {1};
  band_single.series[0].y_high = {3};
  band_single.series[0].style = Series::Style::kLine;
  charts.push_back({"a band on one point", band_single});
  for (const auto& [name, chart] : charts) {
    INFO(name);
    const Image im = render(chart);
    CHECK(im.width >= 64);
    CHECK(im.height >= 64);
    CHECK(im.rgba.size() == static_cast<size_t>(im.width) * static_cast<size_t>(im.height) * 4);
  }
  // "no data" is written in the middle of an empty chart.
  const Image empty = render(Chart{});
  CHECK(inked(empty, 400, 250, 500, 310) > 0.01);
}
