# The front end: `make run` builds the `chaintwin` binary alone (no tests) and runs the main job on
# the embedded default; `make test` builds everything and runs every test. Both install missing
# Debian packages first (as root). Build times: docs/performance.md, "Building".
BUILD ?= build
JOBS ?= 2
CMAKE_FLAGS ?=

.PHONY: all deps configure build chaintwin run test clean

all: build

deps:
	@bash cmake/deps.sh

$(BUILD)/build.ninja: | deps
	cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS)

configure: deps $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# Only what the run needs: the binary and the libraries it links.
chaintwin: configure
	cmake --build $(BUILD) -j $(JOBS) --target chaintwin

run: chaintwin
	./$(BUILD)/chaintwin

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD)
