# Fails when a file under model/ includes a header that does I/O, draws, talks to a
# database or the network, starts threads, or reads a clock. model/ must stay pure.
set(forbidden
  "iostream" "fstream" "istream" "ostream" "cstdio" "stdio.h" "filesystem" "print"
  "thread" "mutex" "shared_mutex" "future" "condition_variable" "atomic" "semaphore" "stop_token"
  "chrono" "ctime" "time.h" "random" "unistd.h" "fcntl.h" "sys/"
  "sqlite3.h" "curl/" "httplib.h" "imgui" "GLFW/" "GL/" "EGL/" "yaml-cpp/" "stb_")
file(GLOB_RECURSE files "${MODEL_DIR}/*.h" "${MODEL_DIR}/*.cpp")
set(violations "")
foreach(f IN LISTS files)
  file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "[<\"]([^>\"]+)[>\"]" _ "${line}")
    set(header "${CMAKE_MATCH_1}")
    foreach(bad IN LISTS forbidden)
      string(FIND "${header}" "${bad}" pos)
      if(pos EQUAL 0)
        file(RELATIVE_PATH rel "${MODEL_DIR}/.." "${f}")
        list(APPEND violations "${rel}: #include <${header}> (model/ may not use ${bad})")
      endif()
    endforeach()
  endforeach()
endforeach()
if(violations)
  list(JOIN violations "\n  " msg)
  message(FATAL_ERROR "model/ must stay pure (no I/O, GUI, SQLite, curl, threads or clocks):\n  ${msg}")
endif()
file(WRITE "${STAMP}" "ok\n")
