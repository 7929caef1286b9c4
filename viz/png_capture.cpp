#include "viz/png_capture.h"

#include <GL/gl.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace chaintwin::viz {

model::Status capture_png(const std::string& path, int width, int height) {
  if (width <= 0 || height <= 0) return model::err("capture_png: empty framebuffer");
  std::vector<unsigned char> pixels(static_cast<size_t>(width) * static_cast<size_t>(height) * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  if (glGetError() != GL_NO_ERROR) return model::err("capture_png: glReadPixels failed");
  const size_t row = static_cast<size_t>(width) * 4;
  std::vector<unsigned char> flipped(pixels.size());
  for (int y = 0; y < height; ++y)
    std::copy_n(pixels.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(height - 1 - y) * row),
                static_cast<std::ptrdiff_t>(row), flipped.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(y) * row));
  for (size_t i = 3; i < flipped.size(); i += 4) flipped[i] = 0xff;  // opaque, whatever the GL alpha
  const std::string partial = path + ".partial";
  if (stbi_write_png(partial.c_str(), width, height, 4, flipped.data(), static_cast<int>(row)) == 0) {
    std::remove(partial.c_str());
    return model::err(path + ": cannot write the PNG");
  }
  if (std::rename(partial.c_str(), path.c_str()) != 0) {
    std::remove(partial.c_str());
    return model::err(path + ": cannot move the PNG into place");
  }
  return model::Ok{};
}

}  // namespace chaintwin::viz
