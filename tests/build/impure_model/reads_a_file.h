// A planted violation: the purity check must refuse this file (see tests/CMakeLists.txt).
#pragma once
#include <fstream>
