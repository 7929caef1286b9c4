// png_probe: checks a screenshot. Usage:
//   png_probe FILE.png WIDTH HEIGHT BG_RRGGBB NAME:X,Y,W,H:>=F|<=F[:red|:yellow] ...
// Fails (exit 1) unless the PNG has exactly WIDTH×HEIGHT pixels and, in each region, the share of
// pixels that differ from the background colour (by more than 8 in a channel) meets its bound —
// or, with `:red`, `:yellow` or `:blue`, the share of pixels of that hue (the stop-policy shading:
// red well above green and blue, or red and green alike and well above blue; blue: the exclusive
// family's lines, blue well above red and green; light: text and axis labels, every channel at
// least 120).
// Or NAME:X,Y,W,H:squares=N: the region holds exactly N solid squares (4 to 16 pixels a side) of
// non-background pixels, each its own connected piece (the card map's cells; text never makes one).
// Prints each region's share. Exit 2 on bad arguments or an unreadable file.
#include <stb_image.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace {

// The solid squares among the 4-connected pieces of non-background pixels inside the region.
long count_squares(const unsigned char* pixels, int w, const int bg[3], int x, int y, int rw, int rh) {
  const auto differs = [&](int i, int j) {
    const unsigned char* p = pixels + (static_cast<long>(j) * w + i) * 3;
    for (int c = 0; c < 3; ++c)
      if (std::abs(p[c] - bg[c]) > 8) return true;
    return false;
  };
  std::vector<char> seen(static_cast<size_t>(rw) * rh, 0);
  long squares = 0;
  std::vector<std::pair<int, int>> stack;
  for (int j0 = 0; j0 < rh; ++j0)
    for (int i0 = 0; i0 < rw; ++i0) {
      if (seen[static_cast<size_t>(j0) * rw + i0] || !differs(x + i0, y + j0)) continue;
      long area = 0;
      int min_i = i0, max_i = i0, min_j = j0, max_j = j0;
      stack.assign(1, {i0, j0});
      seen[static_cast<size_t>(j0) * rw + i0] = 1;
      while (!stack.empty()) {
        const auto [i, j] = stack.back();
        stack.pop_back();
        ++area;
        min_i = std::min(min_i, i), max_i = std::max(max_i, i), min_j = std::min(min_j, j), max_j = std::max(max_j, j);
        const int next[4][2] = {{i + 1, j}, {i - 1, j}, {i, j + 1}, {i, j - 1}};
        for (const auto& n : next)
          if (n[0] >= 0 && n[1] >= 0 && n[0] < rw && n[1] < rh && !seen[static_cast<size_t>(n[1]) * rw + n[0]] &&
              differs(x + n[0], y + n[1])) {
            seen[static_cast<size_t>(n[1]) * rw + n[0]] = 1;
            stack.push_back({n[0], n[1]});
          }
      }
      const int side_w = max_i - min_i + 1, side_h = max_j - min_j + 1;
      if (side_w == side_h && side_w >= 4 && side_w <= 16 && area == static_cast<long>(side_w) * side_h) ++squares;
    }
  return squares;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: png_probe FILE.png WIDTH HEIGHT BG_RRGGBB NAME:X,Y,W,H:>=F|<=F ...\n");
    return 2;
  }
  int w = 0, h = 0, channels = 0;
  unsigned char* pixels = stbi_load(argv[1], &w, &h, &channels, 3);
  if (pixels == nullptr) {
    std::fprintf(stderr, "png_probe: %s: cannot read the PNG\n", argv[1]);
    return 2;
  }
  const int want_w = std::atoi(argv[2]), want_h = std::atoi(argv[3]);
  const unsigned long bg = std::strtoul(argv[4], nullptr, 16);
  const int bg_rgb[3] = {static_cast<int>(bg >> 16 & 0xff), static_cast<int>(bg >> 8 & 0xff), static_cast<int>(bg & 0xff)};
  bool ok = true;
  std::printf("%s: %dx%d (want %dx%d)\n", argv[1], w, h, want_w, want_h);
  if (w != want_w || h != want_h) ok = false;
  for (int a = 5; a < argc && ok; ++a) {
    char name[64] = {0}, op[3] = {0}, hue[16] = {0};
    int x = 0, y = 0, rw = 0, rh = 0;
    long want_squares = -1;
    if (std::sscanf(argv[a], "%63[^:]:%d,%d,%d,%d:squares=%ld", name, &x, &y, &rw, &rh, &want_squares) == 6) {
      if (x < 0 || y < 0 || rw <= 0 || rh <= 0 || x + rw > w || y + rh > h || want_squares < 0) {
        std::fprintf(stderr, "png_probe: bad region '%s'\n", argv[a]);
        stbi_image_free(pixels);
        return 2;
      }
      const long found = count_squares(pixels, w, bg_rgb, x, y, rw, rh);
      std::printf("  %-12s %4d,%4d %4dx%-4d  %ld solid squares (want %ld): %s\n", name, x, y, rw, rh, found,
                  want_squares, found == want_squares ? "ok" : "FAIL");
      ok = ok && found == want_squares;
      continue;
    }
    double bound = 0;
    const int read = std::sscanf(argv[a], "%63[^:]:%d,%d,%d,%d:%2[<>=]%lf:%15s", name, &x, &y, &rw, &rh, op, &bound, hue);
    const std::string want_hue = hue;
    if (read < 7 || (read == 8 && want_hue != "red" && want_hue != "yellow" && want_hue != "blue" &&
                       want_hue != "light") ||
        x < 0 || y < 0 || rw <= 0 || rh <= 0 || x + rw > w || y + rh > h) {
      std::fprintf(stderr, "png_probe: bad region '%s'\n", argv[a]);
      stbi_image_free(pixels);
      return 2;
    }
    long differing = 0;
    for (int j = y; j < y + rh; ++j)
      for (int i = x; i < x + rw; ++i) {
        const unsigned char* p = pixels + (static_cast<long>(j) * w + i) * 3;
        const int r = p[0], g = p[1], b = p[2];
        if (want_hue == "red") {
          differing += r - g >= 20 && r - b >= 20 && g - b < 15 ? 1 : 0;
          continue;
        }
        if (want_hue == "light") {
          differing += r >= 120 && g >= 120 && b >= 120 ? 1 : 0;
          continue;
        }
        if (want_hue == "blue") {
          differing += b - r >= 80 && b - g >= 40 ? 1 : 0;
          continue;
        }
        if (want_hue == "yellow") {
          differing += r - b >= 25 && g - b >= 25 && std::abs(r - g) < 20 ? 1 : 0;
          continue;
        }
        for (int c = 0; c < 3; ++c)
          if (std::abs(p[c] - bg_rgb[c]) > 8) {
            ++differing;
            break;
          }
      }
    const double share = static_cast<double>(differing) / (static_cast<double>(rw) * rh);
    const bool pass = std::string(op) == ">=" ? share >= bound : share <= bound;
    std::printf("  %-12s %4d,%4d %4dx%-4d  %.3f of its pixels are %s (want %s %.3f): %s\n", name, x, y, rw, rh, share,
                want_hue.empty() ? "not background" : want_hue.c_str(), op, bound, pass ? "ok" : "FAIL");
    ok = ok && pass;
  }
  stbi_image_free(pixels);
  return ok ? 0 : 1;
}
