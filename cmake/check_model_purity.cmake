# Fails when a file under model/ includes a header that does I/O, draws, talks to a
# database or the network, starts threads, or reads a clock — or reaches into another layer
# (sim/, live/, viz/). model/ must stay pure and at the bottom of the dependency graph.
set(FORBIDDEN
  "iostream" "fstream" "istream" "ostream" "cstdio" "stdio.h" "filesystem" "print"
  "thread" "mutex" "shared_mutex" "future" "condition_variable" "atomic" "semaphore" "stop_token"
  "chrono" "ctime" "time.h" "random" "unistd.h" "fcntl.h" "sys/"
  "sqlite3.h" "curl/" "httplib.h" "imgui" "GLFW/" "GL/" "EGL/" "yaml-cpp/" "stb_"
  "sim/" "live/" "viz/")
set(LAYER_DIR "${MODEL_DIR}")
set(LAYER model)
set(WHY "model/ must stay pure (no I/O, GUI, SQLite, curl, threads or clocks) and reach no other layer")
include(${CMAKE_CURRENT_LIST_DIR}/check_layer_includes.cmake)
