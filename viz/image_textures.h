// ImageTextures: how a panel draws an RGBA image it made itself (the card map's cells) with one
// quad instead of thousands. The window's implementation uploads the images of one owner as OpenGL
// textures on first use, nearest-neighbour (pixels stay pixels), and deletes them all when another
// owner is asked for; the headless tests pass none, and the panel then draws its cells as
// rectangles.
#pragma once

#include <imgui.h>

#include <cstddef>
#include <cstdint>

namespace chaintwin::viz {

class ImageTextures {
 public:
  virtual ~ImageTextures() = default;
  // The texture of image `index` of `owner` (a number that names one set of images, never reused),
  // `width` × `height` RGBA pixels, rows top-down; null when it cannot be made.
  virtual ImTextureID texture(uint64_t owner, size_t index, int width, int height, const uint8_t* rgba) = 0;
};

}  // namespace chaintwin::viz
