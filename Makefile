# wake: the two commands of the README's quick start, and their helpers.
#   make run ARGS='07:00'   installs what is missing, builds, and runs wake
#   make test               installs what is missing and runs the test suite

# Debian packages: C libraries wake links, and the real peers its tests run against
# (a dbus-daemon with python-dbusmock's logind template and busctl to drive it, sox to make
# test sounds, strace to watch the inhibitor lock close, setpriv to run as an unprivileged user,
# a private PulseAudio server with pactl/parec and ALSA's pulse plugin to ring through a sound
# server and to freeze it).
BUILD_PACKAGES := pkg-config libasound2-dev libsndfile1-dev libsystemd-dev
TEST_PACKAGES  := $(BUILD_PACKAGES) alsa-utils dbus-daemon dbus-bin python3 python3-dbusmock systemd \
                  sox flac strace util-linux pulseaudio pulseaudio-utils libasound2-plugins
BENCH_PACKAGES := $(TEST_PACKAGES) mpv hyperfine strace time procps pulseaudio pulseaudio-utils libasound2-plugins libsox-fmt-pulse

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SWIFT ?= swift
ARGS ?= --help

.PHONY: run test build release deps-build deps-test deps-bench bench sound asan stress clean

# Installs only what dpkg does not already have, so a second run costs nothing.
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
	@command -v $(SWIFT) >/dev/null || { echo "wake needs a Swift 6 toolchain on PATH (swift.org/install)"; exit 1; }
endef

deps-build:
	$(call apt_install,$(BUILD_PACKAGES))

deps-test:
	$(call apt_install,$(TEST_PACKAGES))

deps-bench:
	$(call apt_install,$(BENCH_PACKAGES))

# The binary that ships links the Swift runtime statically: 3 MB less resident memory and a
# quarter less start-up time than the shared runtime (BENCHMARKS.md). wake reads time zones
# itself, so the static Foundation's TimeZone ignoring TZ does not touch it; `make test` checks
# this very binary under several TZ values. (The linker's note that FoundationEssentials uses
# mktemp comes from the toolchain's static library, not from wake.)
RELEASE_FLAGS := -c release --product wake -Xswiftc -static-stdlib

release: deps-build
	$(SWIFT) build $(RELEASE_FLAGS)

run: release
	./.build/release/wake $(ARGS)

build: deps-build
	$(SWIFT) build

test: deps-test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(SWIFT) build $(RELEASE_FLAGS)
	WAKE_BINARY=$(CURDIR)/.build/release/wake $(SWIFT) test --skip-build --filter 'DryRunTimeZone|SourceLevel|SampleExact'

bench: deps-bench
	python3 Benchmarks/run.py

# The whole test suite under AddressSanitizer, built apart in .build-asan (a debug build, so
# the fault-injection tests run too). detect_leaks=0: LeakSanitizer reports the Swift runtime's
# and libraries' one-time allocations, which are not wake's.
asan: deps-test
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan

# The long reliability tests, which `make test` skips: a million loop seams checked frame by
# frame, memory over a long unpaced ring, descriptors over 10,000 arm/cancel cycles.
# WAKE_CLOCK_STEP=1 (root only) adds the end-to-end clock-step tests, which step this machine's
# real-time clock back and forth (and restore it): `WAKE_CLOCK_STEP=1 make stress`.
stress: deps-test
	$(SWIFT) build --build-tests
	WAKE_STRESS=1 $(SWIFT) test --skip-build --filter 'LongRunTests|ClockStepEndToEndTests'

# Re-makes Resources/alarm.flac and its embedded copy from the synthesis script.
sound:
	python3 scripts/make-alarm-sound

clean:
	rm -rf .build .build-asan .build-bench
