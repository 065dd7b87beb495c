# The two commands of the README's quick start, and a few more.
#   make demo    — build what the demo runs, simulate a node, run nicd on it, inject faults, show
#                  what nicd saw
#   make check   — every test in a normal build; the unit tests, the fuzz replays and the
#                  integration suites of hostile input in an ASan+UBSan build
#   make fuzz    — every libFuzzer target for SECONDS each (default 60), built with clang
# Both install missing Debian packages first (as root; make demo only those the demo needs).

BUILD_DIR  ?= build
ASAN_DIR   ?= build-asan
FUZZ_DIR   ?= build-fuzz
SECONDS    ?= 60
BUILD_TYPE ?= RelWithDebInfo
# Tests run CTEST_JOBS at a time: most of them wait on the daemon's cycles, not on a CPU.
CTEST_JOBS ?= $(shell echo $$(( $$(nproc) * 2 )))
CTEST_ARGS ?= --output-on-failure --timeout 300 -j $(CTEST_JOBS)
# What the demo runs, and all it builds: no tests, no fuzz targets, no benchmarks.
DEMO_TARGETS = nicd nicd-plugin-mlx5 nicd-plugin-bnxt nicctl nicd-sim

.PHONY: all deps deps-demo configure build build-demo build-asan check check-normal check-asan fuzz demo bench package image format tidy clean

all: build

deps:
	@scripts/install-deps.sh

deps-demo:
	@scripts/install-deps.sh demo

# The normal build folder with its tests (NICD_BUILD_TESTS=ON), whether new or configured by
# make demo without them; make demo configures a new one without.
configure: deps
	@grep -qs '^NICD_BUILD_TESTS:BOOL=ON$$' $(BUILD_DIR)/CMakeCache.txt || \
		cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DNICD_BUILD_TESTS=ON

# The sanitizer build with line tables only (-g1): its reports name file and line, and it compiles
# ~10 % faster with a quarter less object code than with full debug information. With clang (make
# deps installs it for the fuzz targets; ASAN_CXX=c++ for GCC): unoptimised, it compiled the tree
# in 292 s where GCC took 503 s on the 2-core machine (docs/performance.md), and a second compiler
# reads the code with its own warnings.
ASAN_CC  ?= $(if $(shell command -v clang),clang,cc)
ASAN_CXX ?= $(if $(shell command -v clang++),clang++,c++)
$(ASAN_DIR)/build.ninja: | deps
	CC=$(ASAN_CC) CXX=$(ASAN_CXX) cmake -S . -B $(ASAN_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug \
		-DNICD_SANITIZE=ON -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1

build: configure
	cmake --build $(BUILD_DIR)

build-demo: deps-demo
	@[ -f $(BUILD_DIR)/build.ninja ] || \
		cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DNICD_BUILD_TESTS=OFF
	cmake --build $(BUILD_DIR) --target $(DEMO_TARGETS)

build-asan: deps $(ASAN_DIR)/build.ninja
	cmake --build $(ASAN_DIR)

# The libFuzzer build and its smoke runs (ctest -L libfuzzer) are left to make fuzz.
check-normal: build
	ctest --test-dir $(BUILD_DIR) $(CTEST_ARGS) --label-exclude libfuzzer

check-asan: build-asan
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --test-dir $(ASAN_DIR) $(CTEST_ARGS) --label-exclude slow

check: check-normal check-asan

# What it finds stays in $(FUZZ_DIR)/corpus/ for the next run; a crash's input in $(FUZZ_DIR)/crashes/.
fuzz: deps
	NICD_FUZZ_DIR=$(abspath $(FUZZ_DIR)) scripts/fuzz.sh all $(SECONDS)

demo: build-demo
	@scripts/demo.sh $(BUILD_DIR)

# make soak [SECONDS=N]: nicd on a simulated 64-device node under faults, a kernel log flood and
# D-Bus clients for N seconds (default 600); scripts/soak/__main__.py says what it asserts. make
# check runs a 45-s variant (the ctest soak.short).
SOAK_SECONDS ?= $(if $(filter command line environment,$(origin SECONDS)),$(SECONDS),600)
.PHONY: soak
soak: build
	@scripts/soak.sh --build $(BUILD_DIR) --seconds $(SOAK_SECONDS)

bench: build
	cmake --build $(BUILD_DIR) --target benchmarks
	@scripts/bench.sh $(BUILD_DIR)

package: build
	cd $(BUILD_DIR) && cpack -G "DEB;RPM"

# The OCI image (localhost/nicd:VERSION): the .deb above in a minimal Debian 12 root made by
# mmdebstrap, imported by podman; nothing pulled from a registry (scripts/build-image.sh).
image: build
	scripts/build-image.sh $(BUILD_DIR)

format:
	git ls-files '*.cpp' '*.hpp' '*.h' | xargs clang-format -i

# clang-tidy reads each file's own compile command: a configuration without unity batches (only
# the generated D-Bus glue is built there).
TIDY_DIR ?= build-tidy
tidy: deps
	cmake -S . -B $(TIDY_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DNICD_UNITY_BUILD=OFF
	cmake --build $(TIDY_DIR) --target nicd_dbus_codegen
	git ls-files 'daemon/*.cpp' 'plugins/*.cpp' 'tools/*.cpp' | xargs clang-tidy -p $(TIDY_DIR) --quiet

clean:
	rm -rf $(BUILD_DIR) $(ASAN_DIR) $(FUZZ_DIR) $(TIDY_DIR)
