// png_probe: checks a screenshot. Usage:
//   png_probe FILE.png WIDTH HEIGHT BG_RRGGBB NAME:X,Y,W,H:>=F|<=F[:red|:yellow] ...
// Fails (exit 1) unless the PNG has exactly WIDTH×HEIGHT pixels and, in each region, the share of
// pixels that differ from the background colour (by more than 8 in a channel) meets its bound —
// or, with `:red` or `:yellow`, the share of pixels of that hue (the stop-policy shading: red well
// above green and blue, or red and green alike and well above blue).
// Prints each region's share. Exit 2 on bad arguments or an unreadable file.
#include <stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <string>

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
    double bound = 0;
    const int read = std::sscanf(argv[a], "%63[^:]:%d,%d,%d,%d:%2[<>=]%lf:%15s", name, &x, &y, &rw, &rh, op, &bound, hue);
    const std::string want_hue = hue;
    if (read < 7 || (read == 8 && want_hue != "red" && want_hue != "yellow") ||
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
