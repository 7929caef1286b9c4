# Fails when a file under viz/ includes sim/ or live/: the GUI draws snapshots of the model and
# reaches a simulation, a run file or a live cluster only through viz/commands.h, which the
# composition root implements.
set(FORBIDDEN "sim/" "live/")
set(LAYER_DIR "${VIZ_DIR}")
set(LAYER viz)
set(WHY "viz/ may reach model/ only (sim/ and live/ come in through viz/commands.h)")
include(${CMAKE_CURRENT_LIST_DIR}/check_layer_includes.cmake)
