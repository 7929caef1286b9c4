// A planted violation: model/ may not include sim/ (see tests/CMakeLists.txt).
#pragma once
#include "sim/sim_time.h"
