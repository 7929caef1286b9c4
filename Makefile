# The front end: `make run` builds the `chaintwin` binary alone (no tests) and runs the main job on
# the embedded default; `make test` builds everything and runs every test. Both install missing
# Debian packages first (as root). Build times: docs/performance.md, "Building".
BUILD ?= build
JOBS ?= 2
CMAKE_FLAGS ?=

.PHONY: all deps configure build chaintwin run test clean fuzz-deps fuzz-build fuzz sanitize

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

# Fuzzing and sanitizers (docs/reliability.md, "Fuzzing and sanitizers"). Neither is part of
# `make test`. `make fuzz` builds the libFuzzer targets of tests/fuzz/ with clang, ASan and UBSan
# in $(FUZZ_BUILD) and runs each for FUZZ_SECONDS on a copy of its seed corpus, one at a time;
# crashes land in $(FUZZ_BUILD)/crashes/<target>/. `make sanitize` builds everything and the test
# suite with ASan and UBSan (gcc) in $(ASAN_BUILD) and runs ctest there.
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= scenario kube_objects openb_csv kubeconfig served_api
FUZZ_CXX ?= clang++-14
ASAN_BUILD ?= build-asan
SANITIZE_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

# clang and its libFuzzer runtime, installed here (as root) rather than in deps.sh: the normal
# build and CI do not need them.
fuzz-deps: deps
	@command -v $(FUZZ_CXX) >/dev/null && dpkg-query -W -f='$${Status}' libclang-rt-14-dev 2>/dev/null | grep -q 'install ok installed' || \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang-14 libclang-rt-14-dev >/dev/null; }

$(FUZZ_BUILD)/build.ninja: | fuzz-deps
	cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_CXX_COMPILER=$(FUZZ_CXX) -DCHAINTWIN_FUZZ=ON \
	  -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -gline-tables-only"

fuzz-build: fuzz-deps $(FUZZ_BUILD)/build.ninja
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(addsuffix _fuzz,$(FUZZ_TARGETS))

fuzz: fuzz-build
	bash tests/fuzz/run_fuzzers.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

$(ASAN_BUILD)/build.ninja: | deps
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCHAINTWIN_ALLOCATOR=glibc -DCMAKE_BUILD_TYPE=Release \
	  "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -g1 -DNDEBUG" "-DCMAKE_CXX_FLAGS=$(SANITIZE_FLAGS)" \
	  "-DCMAKE_EXE_LINKER_FLAGS=$(SANITIZE_FLAGS)"

sanitize: deps $(ASAN_BUILD)/build.ninja
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS) --timeout 5400
