// A planted violation: viz/ may not include live/ (see tests/CMakeLists.txt).
#pragma once
#include "live/api_client.h"
