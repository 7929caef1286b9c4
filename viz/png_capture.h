// Reads the current GL framebuffer back and writes it as a PNG (rows flipped to top-down). The
// file appears whole or not at all: it is written beside the target and renamed into place.
#pragma once

#include <string>

#include "model/result.h"

namespace chaintwin::viz {

model::Status capture_png(const std::string& path, int width, int height);

}  // namespace chaintwin::viz
