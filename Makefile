# wake: the two commands of the README's quick start, and their helpers.
#   make run ARGS='07:00'   installs what is missing, builds, and runs wake
#   make test               installs what is missing and runs the test suite
#   make install            installs the release binary, man page, completions and user unit
#                           (PREFIX=/usr/local, DESTDIR for staging); make uninstall removes them
#   make deb                builds wake_<version>-<revision>_<arch>.deb and checks it with lintian

# Debian packages: C libraries wake links, and the real peers its tests run against
# (a dbus-daemon with python-dbusmock's logind template and busctl to drive it, sox to make
# test sounds, strace to watch the inhibitor lock close, setpriv to run as an unprivileged user,
# a private PulseAudio server with pactl/parec and ALSA's pulse plugin to ring through a sound
# server and to freeze it; and what make deb needs, since the tests build and check the package).
# make deb: dpkg-shlibdeps (dpkg-dev; binutils' strip and readelf), lintian, and man-db and
# groff-base for the man page checks (lintian's and the tests'); desktop-file-utils validates the
# installed desktop entry.
# gcc and libc6-dev build wake-alarm-timer, the C helper that holds CAP_WAKE_ALARM; libcap2-bin
# has setcap and getcap, which make install, the package's postinst and the tests run. libpulse's
# headers (libpulse-dev) are read at build time only: wake opens libpulse with dlopen when it rings
# through a sound server. pipewire, wireplumber and pipewire-pulse are the desktop the tests ring on.
# python3-holidays is what `wake holidays import` runs (the package only suggests it); the tests run the real one.
# libstdc++-12-dev has the static libstdc++ the release binary links (packaging/link).
# libespeak-ng-dev's headers are read at build time only: wake opens libespeak-ng with dlopen when
# an alarm with --say on is set (the package only recommends libespeak-ng1); the tests speak with
# the real one (libespeak-ng1, its data, and the espeak-ng command the cost is measured against).
# dconf-cli compiles the GNOME settings database whose clock-format the tests read.
# mosquitto, mosquitto-clients and curl: the hook examples (examples/hooks) run against a real
# broker and a local webhook in the tests; a user installs what the example they copy needs.
# gettext's msgfmt compiles the translations (po/) that the build puts down beside the binary.
BUILD_PACKAGES   := pkg-config libasound2-dev libsndfile1-dev libsystemd-dev libpulse-dev libespeak-ng-dev gcc libc6-dev libstdc++-12-dev \
                    gettext
PACKAGE_PACKAGES := $(BUILD_PACKAGES) dpkg-dev binutils lintian man-db groff-base libcap2-bin
TEST_PACKAGES    := $(PACKAGE_PACKAGES) alsa-utils dbus-daemon dbus-bin python3 python3-dbusmock systemd \
                    sox flac strace util-linux pulseaudio pulseaudio-utils libasound2-plugins libcap2-bin \
                    pipewire wireplumber pipewire-pulse python3-holidays playerctl desktop-file-utils \
                    espeak-ng libespeak-ng1 espeak-ng-data mosquitto mosquitto-clients curl appstream locales dconf-cli
BENCH_PACKAGES   := $(TEST_PACKAGES) mpv hyperfine strace time procps pulseaudio pulseaudio-utils libasound2-plugins libsox-fmt-pulse \
                    pipewire-bin python3-matplotlib cron at

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SWIFT ?= swift
ARGS ?= --help

.PHONY: run test build release helper translations po deps-build deps-test deps-bench deps-package bench sound symbol-order asan asan-build asan-all stress clean \
        install install-strip uninstall deb

# The locales the tests read a clock in (12-hour en_US, 24-hour en_GB, de_DE, fr_FR): each made
# by locale-gen only when `locale -a` lacks it, so a second run costs nothing.
TEST_LOCALES := en_US en_GB de_DE fr_FR
define generate_locales
	@missing=""; for l in $(TEST_LOCALES); do locale -a | grep -qx "$$l.utf8" || missing="$$missing $$l"; done; \
	if [ -n "$$missing" ]; then \
	  echo "generating locales:$$missing"; \
	  for l in $$missing; do \
	    grep -q "^$$l.UTF-8 UTF-8" /etc/locale.gen || echo "$$l.UTF-8 UTF-8" | $(SUDO) tee -a /etc/locale.gen >/dev/null; \
	  done; \
	  $(SUDO) locale-gen >/dev/null; \
	fi
endef

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
	$(generate_locales)

deps-bench:
	$(call apt_install,$(BENCH_PACKAGES))

deps-package:
	$(call apt_install,$(PACKAGE_PACKAGES))

# The binary that ships links the Swift runtime statically: 3 MB less resident memory and a
# quarter less start-up time than the shared runtime (BENCHMARKS.md). wake reads time zones
# itself, so the static Foundation's TimeZone ignoring TZ does not touch it; `make test` checks
# this very binary under several TZ values. (The linker's note that FoundationEssentials uses
# mktemp comes from the toolchain's static library, not from wake.)
#
# It is also the binary `make install` and `make deb` ship, so it is hardened as Debian builds
# are: `-z now` (every symbol bound at start-up, then the GOT read-only: BIND_NOW), and no
# RUNPATH ($ORIGIN, which SwiftPM adds for libraries next to the binary; wake has none, and
# lintian refuses a custom search path).
# Built in a scratch path of its own: a plain `swift build -c release` (or any other build) never
# replaces it with a binary that lacks these flags, and `swift test`'s lock on .build never blocks it.
#
# What a start costs is mostly loading, so the link keeps it small (BENCHMARKS.md, start-up):
# libstdc++ and libgcc, which the Swift runtime needs, are linked statically too (the linker
# script packaging/link/libstdc++.so points `-lstdc++` at GCC's libstdc++.a), so no start loads,
# relocates and binds the shared ones; and lld packs the 42,000 relative relocations of a PIE
# this size into 8 KB (`-z pack-relative-relocs`, DT_RELR: glibc 2.36, Debian 12). And the
# functions everyday commands and a ring run are laid out together, first in the text
# (packaging/link/symbol-order.txt, written by `make symbol-order`): the kernel maps code in 64 KB
# windows around each page touched, and scattered, they made nearly the whole text resident.
# swiftc gives a section of its own only to a public function, so the rest of a module (its
# closures, thunks, specialisations) is one section the order can only move whole: wake's
# modules and its packages are compiled with -function-sections (`wake list` peak 6.8 -> 6.2 MB;
# the static runtime's archives keep their large sections).
# A concrete generic type (a [String: String], a Set<String>) is asked for through its metadata
# accessor, not by a mangled name the runtime decodes: decoding one checks the type's generic
# requirements, and the first check of each conformance scans all 4,100 conformance records of
# this static binary (-disable-concrete-type-metadata-mangled-name-accessors). Measured under
# callgrind: `wake list` with 20 alarms 6.33 -> 5.69 M instructions, `next` 5.45 -> 4.82 M,
# a dry run 44.2 -> 40.6 M; its peak memory unchanged once the symbol order is rewritten.
# The swift driver links an executable with --export-dynamic: every public symbol of wake's
# modules and packages (5,460) went into its dynamic symbol table, which nothing loaded into
# wake looks up, and which the runtime's one dladdr() at start walks whole: --no-export-dynamic
# leaves 380 (callgrind: --version 1.07 -> 0.93 M instructions, list with 20 alarms 4.64 ->
# 4.51 M; the stripped binary 470 KB smaller).
RELEASE_SCRATCH := .build-release
RELEASE_FLAGS := -c release --product wake -Xswiftc -static-stdlib -Xlinker -z -Xlinker now --disable-local-rpath \
                 -Xswiftc -L -Xswiftc packaging/link -Xswiftc -Xclang-linker -Xswiftc -static-libgcc \
                 -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
                 -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections \
                 -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
                 -Xlinker --symbol-ordering-file=packaging/link/symbol-order.txt -Xlinker --no-warn-symbol-ordering \
                 -Xlinker --no-export-dynamic --scratch-path $(RELEASE_SCRATCH)
RELEASE_BIN   := $(RELEASE_SCRATCH)/release/wake
# What the release binary is built from (the Makefile holds its flags): make rebuilds it only
# when one of these is newer.
RELEASE_SOURCES := Makefile Package.swift packaging/link/libstdc++.so packaging/link/symbol-order.txt $(shell find Sources -type f -not -path 'Sources/wake-alarm-timer/*' 2>/dev/null)

# wake-alarm-timer: the one file that gets a capability (CAP_WAKE_ALARM, set by make install
# and the package's postinst), so wake itself runs unprivileged. Plain C built by cc, not by
# SwiftPM: SwiftPM links every executable with the Swift runtime and a RUNPATH with $ORIGIN,
# which a capability-holding file must not carry. Hardened as Debian builds are.
HELPER_SOURCE  := Sources/wake-alarm-timer/main.c
# Apart from SwiftPM's directories: a directory made here where SwiftPM later puts a symlink
# (.build-release/release) would break a build from a clean clone.
RELEASE_HELPER := .build-helper/wake-alarm-timer
HELPER_CFLAGS  ?= -std=c11 -O2 -Wall -Wextra -Werror -fstack-protector-strong -D_FORTIFY_SOURCE=2 -fPIE
HELPER_LDFLAGS ?= -pie -Wl,-z,relro -Wl,-z,now

$(RELEASE_HELPER): $(HELPER_SOURCE) Sources/CLinux/descriptor_passing.h Makefile
	@mkdir -p $(@D)
	$(CC) $(HELPER_CFLAGS) -o $@ $(HELPER_SOURCE) $(HELPER_LDFLAGS)

helper: $(RELEASE_HELPER)

# (touched, so that a build with nothing to do still counts as fresh for the rule below)
# SwiftPM relinks for its own inputs only: a link input or flag newer than the binary (the
# Makefile, packaging/link) removes the binary first, so the link runs again. Nor does it
# recompile when only -Xswiftc or -Xcc flags change: the flags of the last build are kept in
# $(RELEASE_SCRATCH)/flags, and other flags start the build afresh.
define build-release
	@if [ -e $(RELEASE_SCRATCH)/flags ] && [ "$$(cat $(RELEASE_SCRATCH)/flags)" != '$(RELEASE_FLAGS)' ]; then \
		echo "the release flags changed: building $(RELEASE_SCRATCH) afresh"; rm -rf $(RELEASE_SCRATCH); fi
	@if [ -e $(RELEASE_BIN) ] && [ -n "$$(find Makefile packaging/link -newer $(RELEASE_BIN) 2>/dev/null)" ]; then rm -f $(RELEASE_BIN); fi
	$(SWIFT) build $(RELEASE_FLAGS) && touch $(RELEASE_BIN) && printf '%s\n' '$(RELEASE_FLAGS)' > $(RELEASE_SCRATCH)/flags
endef

release: deps-build $(RELEASE_HELPER) translations
	$(build-release)

# The translations (po/LANG.po, one per language of po/LINGUAS), compiled by msgfmt --check (a
# translation that drops a value's {name}, or a broken entry, stops the build). The binary reads
# them from share/locale beside its bin (an installed /usr/bin/wake: /usr/share/locale), or from
# WAKE_LOCALEDIR, as `make run` gives it this directory.
LANGUAGES  := $(shell sed 's/\#.*//' po/LINGUAS)
LOCALE_BUILD := .build-locale
CATALOGUES := $(foreach l,$(LANGUAGES),$(LOCALE_BUILD)/$(l)/LC_MESSAGES/wake.mo)

$(LOCALE_BUILD)/%/LC_MESSAGES/wake.mo: po/%.po
	@mkdir -p $(@D)
	msgfmt --check -o $@ $<

translations: $(CATALOGUES)

# After a message changed in the code (and po/wake.pot was remade: see po/wake.pot's head),
# each catalogue gets the template's messages, new ones untranslated, for its translator.
po:
	for l in $(LANGUAGES); do msgmerge --quiet --update --backup=none --no-fuzzy-matching po/$$l.po po/wake.pot; done

# The binary as a file: built when missing or older than a source, else left alone (a no-op
# `swift build` still costs seconds, and `sudo make install` may have no toolchain on its PATH).
# NO_BUILD=1 makes a stale binary an error instead: the tests pass it, because `swift test`
# holds SwiftPM's lock on .build while they run and a `swift build` under it would wait forever.
$(RELEASE_BIN): $(RELEASE_SOURCES)
ifeq ($(NO_BUILD),1)
	@echo "$@ is missing or older than its sources ($(firstword $(shell find $(RELEASE_SOURCES) -newer $@ 2>/dev/null))); run 'make release' first" >&2; exit 1
else
	$(MAKE) --no-print-directory release
endif

run: release
	WAKE_LOCALEDIR=$(CURDIR)/$(LOCALE_BUILD) ./$(RELEASE_BIN) $(ARGS)

build: deps-build
	$(SWIFT) build

# The release binary first: InstallTests install and package it, and reuse it when it is fresh.
# The in-process targets first, then the rest (the binary end to end): run together, the pure
# core's heavy synchronous property tests held both threads of the 2-core pool for a minute at
# a time (gdb stack dumps of the test process), and the end-to-end tests that time what they
# see (a stall noticed within 10 s) waited for them.
# The end-to-end tests eight at a time (Swift Testing's own limit, by its environment variable):
# all at once, the first minute started some hundred wakes, daemons and sound servers on two
# cores, and a daemon armed 30 s after it was started (CI of aa3aa9f, 2026-11-28: four timing
# tests missed). Eight at a time the run took 269 s instead of 180, and nothing missed.
IN_PROCESS_TESTS := WakeCoreTests|WakeRuntimeTests|WakeSystemTests|WakeCommandLineTests
E2E_WIDTH := SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=8
test: deps-test $(RELEASE_HELPER)
	$(build-release)
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter '$(IN_PROCESS_TESTS)'
	$(E2E_WIDTH) $(SWIFT) test --skip-build --skip '$(IN_PROCESS_TESTS)'
	WAKE_BINARY=$(CURDIR)/$(RELEASE_BIN) $(SWIFT) test --skip-build --filter 'DryRunTimeZone|SourceLevel|SampleExact'

bench: deps-bench
	python3 Benchmarks/run.py

# The suite under AddressSanitizer, built apart in .build-asan (a debug build, so the
# fault-injection tests run too). detect_leaks=0: LeakSanitizer reports the Swift runtime's and
# libraries' one-time allocations, which are not wake's.
# The in-process targets, the reliability target and the end-to-end tests (WakeTests) apart, as
# in `make test`: together, the core's property tests held both threads for 150 s and a 1 s ring
# of the reliability target wrote no frame (CI, 2026-11-27). The reliability and end-to-end
# tests one at a time: under ASan's slowdown, a hundred wakes, sound servers and daemons at once
# on two cores miss the timing bounds those tests rightly hold (54 bad options refused at once,
# beside two 10-minute FLACs decoding, took over 26 s each; one at a time, the target takes 4 min).
# Of the end-to-end tests, those where the binary itself crosses a C library the in-process
# targets do not reach the same way (issue 50): the loop on ALSA's file PCM and libsndfile,
# libpulse on a real server, sd-bus as a media player and the D-Bus API, espeak-ng, the
# alarm-timer helper's client, the terminal on a pty, hostile input and descriptors, and the
# doctor, which touches all of them. The in-process targets already run the output workers,
# ALSA, libsndfile, sd-bus and espeak-ng under ASan. Every end-to-end test: `make asan-all`
# (one at a time, 1,499 s of CI of 1ea6977; this selection took a third of that).
empty :=
space := $(empty) $(empty)
ASAN_TEST := ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan
ASAN_E2E  := SampleExactLoopTests|SoundListEndToEndTests|StreamGuardTests|SilentRetryTests|MixerGuardTests|RuntimeFrozenServerTests|\
             CrescendoResumeTests|MixerOffStreamTests|MediaPlayerTests|BusAPIEndToEndTests|SpeechEndToEndTests|\
             WakeSystemEndToEndTests|TerminalKeyTests|ChallengeEndToEndTests|HardeningEndToEndTests|DoctorEndToEndTests
asan-build: deps-test
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan

# One run, five tests at a time: the in-process targets, the reliability target and the
# end-to-end tests that cross a C library side by side. Most of the end-to-end tests' time is
# waiting (a ring, a server, a timer), which the in-process tests fill. On this 2-core machine the
# reliability and end-to-end parts took 846 s one at a time (issue 49); the in-process run, then
# the rest three at a time, 503 s; this one run 417 s.
ASAN_WIDTH := SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=5
asan: asan-build
	$(ASAN_WIDTH) $(ASAN_TEST) --filter '$(IN_PROCESS_TESTS)|WakeReliabilityTests|WakeTests\.($(subst $(space),,$(strip $(ASAN_E2E))))/'

asan-all: asan-build
	$(ASAN_TEST) --filter '$(IN_PROCESS_TESTS)'
	$(ASAN_TEST) --filter WakeReliabilityTests --no-parallel
	$(ASAN_TEST) --filter WakeTests --no-parallel

# The reliability target's suites that WAKE_STRESS=1 changes (Tests/WakeReliabilityTests, R4):
# a million loop seams checked frame by frame, memory over a long unpaced ring, descriptors over
# 10,000 arm/cancel cycles. The hostile runs (bad input, injected faults, signal storms, the
# engine across clock steps) are the same with or without it, and run once, in make test.
# WAKE_CLOCK_STEP=1 (root only) adds the end-to-end clock-step tests (R5), which step this
# machine's real-time clock back and forth (and restore it): `WAKE_CLOCK_STEP=1 make stress`.
stress: deps-test
	$(SWIFT) build --build-tests
	WAKE_STRESS=1 $(SWIFT) test --skip-build --filter 'WakeReliabilityTests\.(LongRunTests|ClockStepEndToEndTests)'

# Re-writes packaging/link/symbol-order.txt from the release binary run under callgrind (see the
# script); then `make release` links with it.
symbol-order: $(RELEASE_BIN)
	$(call apt_install,valgrind)
	python3 scripts/make-symbol-order $(RELEASE_BIN)

# Re-makes Resources/alarm.flac and its embedded copy from the synthesis script.
sound:
	python3 scripts/make-alarm-sound

clean:
	rm -rf .build .build-release .build-helper .build-asan .build-bench .build-locale wake_*.deb

# ---- Installation, GNU style -----------------------------------------------------------------
# PREFIX and the directories below may be set on the command line; DESTDIR is prepended only to
# where files are written (a staging root), never to what is written into them (the unit's
# ExecStart names $(BINDIR)/wake). Nothing is built as root when the binary is fresh:
#   make release && sudo make install
PREFIX      ?= /usr/local
EXEC_PREFIX ?= $(PREFIX)
BINDIR      ?= $(EXEC_PREFIX)/bin
LIBDIR      ?= $(EXEC_PREFIX)/lib
LIBEXECDIR  ?= $(EXEC_PREFIX)/libexec
DATAROOTDIR ?= $(PREFIX)/share
MANDIR      ?= $(DATAROOTDIR)/man
MAN1DIR     ?= $(MANDIR)/man1
DOCDIR      ?= $(DATAROOTDIR)/doc/wake
# Where each shell and systemd look without being told: bash-completion and fish search every
# $XDG_DATA_DIRS (/usr/local/share and /usr/share); Debian's zsh has vendor-completions in its
# fpath for packages, but under /usr/local only site-functions; systemd --user reads both
# /usr/lib/systemd/user and /usr/local/lib/systemd/user.
BASHCOMPDIR ?= $(DATAROOTDIR)/bash-completion/completions
ZSHCOMPDIR  ?= $(DATAROOTDIR)/zsh/$(if $(filter /usr,$(PREFIX)),vendor-completions,site-functions)
FISHCOMPDIR ?= $(DATAROOTDIR)/fish/vendor_completions.d
# The desktop entry and icon: where notifications and media widgets find wake's name and icon
# (its DesktopEntry "wake"), under $XDG_DATA_DIRS as the freedesktop specs look.
APPLICATIONSDIR ?= $(DATAROOTDIR)/applications
ICONDIR     ?= $(DATAROOTDIR)/icons/hicolor/scalable/apps
USERUNITDIR ?= $(LIBDIR)/systemd/user
# dbus-daemon reads session services and tools read interface descriptions from
# $XDG_DATA_DIRS/dbus-1/{services,interfaces} (/usr/local/share and /usr/share).
DBUSSERVICEDIR   ?= $(DATAROOTDIR)/dbus-1/services
DBUSINTERFACEDIR ?= $(DATAROOTDIR)/dbus-1/interfaces
METAINFODIR ?= $(DATAROOTDIR)/metainfo
# Not a setting: the binary looks in share/locale beside its own bin (GettextCatalogue).
LOCALEDIR   := $(patsubst %/,%,$(dir $(BINDIR)))/share/locale

INSTALL         ?= install
INSTALL_PROGRAM ?= $(INSTALL) -m 0755
INSTALL_DATA    ?= $(INSTALL) -m 0644
SETCAP          ?= /usr/sbin/setcap

# wake looks for its helper beside itself, then in ../libexec/wake/ of its own directory (so
# BINDIR and LIBEXECDIR must share a prefix, as they do by default), then in /usr/local/libexec/wake
# and /usr/libexec/wake (Sources/WakeSystem/AlarmTimerHelper.swift).
HELPERDIR   ?= $(LIBEXECDIR)/wake
HELPER      := $(HELPERDIR)/wake-alarm-timer

# The hook examples, installed executable as a user copies them into ~/.config/wake/hooks.d/
# (Debian keeps executable examples under /usr/share/doc/PACKAGE/examples).
HOOK_EXAMPLES = 50-home-assistant 50-lamp 50-mqtt-next-alarm 50-music-after-stop
HOOKEXAMPLEDIR = $(DOCDIR)/examples/hooks

# Every file install puts down, as uninstall removes it (one list, so the two cannot drift).
INSTALLED_FILES = $(BINDIR)/wake $(HELPER) $(MAN1DIR)/wake.1.gz $(DOCDIR)/README.md $(DOCDIR)/docs/guide.md $(DOCDIR)/docs/packaging.md \
                  $(addprefix $(HOOKEXAMPLEDIR)/,$(HOOK_EXAMPLES)) \
                  $(BASHCOMPDIR)/wake $(ZSHCOMPDIR)/_wake $(FISHCOMPDIR)/wake.fish $(USERUNITDIR)/wake.service \
                  $(APPLICATIONSDIR)/wake.desktop $(ICONDIR)/wake.svg \
                  $(DBUSSERVICEDIR)/io.github.wakeclock.Wake1.service $(DBUSINTERFACEDIR)/io.github.wakeclock.Wake1.xml \
                  $(METAINFODIR)/io.github.wakeclock.wake.metainfo.xml \
                  $(foreach l,$(LANGUAGES),$(LOCALEDIR)/$(l)/LC_MESSAGES/wake.mo)

# The man page is gzipped -9n (no name, no time stamp: the same bytes every time), as Debian
# wants it; the completion scripts come from the binary's own parser (bash's without the #!
# line ArgumentParser gives it: bash-completion sources the file, it is not run); the unit's
# ExecStart is rewritten to the installed binary.
#
# The helper gets CAP_WAKE_ALARM (setting wake-up alarms, nothing else) as a file capability when
# installing for real (no DESTDIR, as root); a staged install leaves that to the packaging
# (the Debian package's postinst). `getcap $(HELPER)` shows it. It stays 0755 and root's, in no
# group: its policy is inside it (a timer only for a user logged in at the machine's seat).
install: $(RELEASE_BIN) $(RELEASE_HELPER) $(CATALOGUES)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(HELPERDIR) $(DESTDIR)$(MAN1DIR) $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(BASHCOMPDIR) \
	  $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR) $(DESTDIR)$(USERUNITDIR) $(DESTDIR)$(APPLICATIONSDIR) $(DESTDIR)$(ICONDIR) \
	  $(DESTDIR)$(DBUSSERVICEDIR) $(DESTDIR)$(DBUSINTERFACEDIR) $(DESTDIR)$(HOOKEXAMPLEDIR) $(DESTDIR)$(METAINFODIR)
	$(INSTALL_PROGRAM) $(RELEASE_BIN) $(DESTDIR)$(BINDIR)/wake
	$(INSTALL_PROGRAM) $(RELEASE_HELPER) $(DESTDIR)$(HELPER)
	gzip -9n < Resources/wake.1 > $(DESTDIR)$(MAN1DIR)/wake.1.gz && chmod 0644 $(DESTDIR)$(MAN1DIR)/wake.1.gz
	$(INSTALL_DATA) README.md $(DESTDIR)$(DOCDIR)/README.md
	$(INSTALL_DATA) docs/guide.md docs/packaging.md $(DESTDIR)$(DOCDIR)/docs/
	$(INSTALL_PROGRAM) $(addprefix examples/hooks/,$(HOOK_EXAMPLES)) $(DESTDIR)$(HOOKEXAMPLEDIR)/
	$(INSTALL_DATA) Resources/wake.desktop $(DESTDIR)$(APPLICATIONSDIR)/wake.desktop
	$(INSTALL_DATA) Resources/wake.svg $(DESTDIR)$(ICONDIR)/wake.svg
	$(RELEASE_BIN) --generate-completion-script bash | sed '1{/^#!/d}' > $(DESTDIR)$(BASHCOMPDIR)/wake
	$(RELEASE_BIN) --generate-completion-script zsh > $(DESTDIR)$(ZSHCOMPDIR)/_wake
	$(RELEASE_BIN) --generate-completion-script fish > $(DESTDIR)$(FISHCOMPDIR)/wake.fish
	chmod 0644 $(DESTDIR)$(BASHCOMPDIR)/wake $(DESTDIR)$(ZSHCOMPDIR)/_wake $(DESTDIR)$(FISHCOMPDIR)/wake.fish
	sed 's|^ExecStart=[^ ]*/wake |ExecStart=$(BINDIR)/wake |' Resources/wake.service > $(DESTDIR)$(USERUNITDIR)/wake.service
	chmod 0644 $(DESTDIR)$(USERUNITDIR)/wake.service
	grep -qx 'ExecStart=$(BINDIR)/wake daemon' $(DESTDIR)$(USERUNITDIR)/wake.service \
	  || { echo "Resources/wake.service has no 'ExecStart=.../wake daemon' line; fix it" >&2; exit 1; }
	sed 's|^Exec=[^ ]*/wake |Exec=$(BINDIR)/wake |' Resources/io.github.wakeclock.Wake1.service > $(DESTDIR)$(DBUSSERVICEDIR)/io.github.wakeclock.Wake1.service
	chmod 0644 $(DESTDIR)$(DBUSSERVICEDIR)/io.github.wakeclock.Wake1.service
	grep -qx 'Exec=$(BINDIR)/wake daemon' $(DESTDIR)$(DBUSSERVICEDIR)/io.github.wakeclock.Wake1.service \
	  || { echo "Resources/io.github.wakeclock.Wake1.service has no 'Exec=.../wake daemon' line; fix it" >&2; exit 1; }
	$(INSTALL_DATA) Resources/io.github.wakeclock.Wake1.xml $(DESTDIR)$(DBUSINTERFACEDIR)/io.github.wakeclock.Wake1.xml
	$(INSTALL_DATA) Resources/io.github.wakeclock.wake.metainfo.xml $(DESTDIR)$(METAINFODIR)/io.github.wakeclock.wake.metainfo.xml
	for l in $(LANGUAGES); do \
	  $(INSTALL) -d $(DESTDIR)$(LOCALEDIR)/$$l/LC_MESSAGES && \
	  $(INSTALL_DATA) $(LOCALE_BUILD)/$$l/LC_MESSAGES/wake.mo $(DESTDIR)$(LOCALEDIR)/$$l/LC_MESSAGES/wake.mo || exit 1; \
	done
ifeq ($(DESTDIR),)
	@test -x $(SETCAP) || { echo "$(SETCAP) is missing, so $(HELPER) cannot get CAP_WAKE_ALARM; install libcap2-bin and run make install again" >&2; exit 1; }
	$(SETCAP) cap_wake_alarm+ep $(HELPER) \
	  || { echo "setcap failed: run make install as root (sudo make install) on a file system with extended attributes" >&2; exit 1; }
endif

# GNU's install-strip: the same, with the binary stripped as Debian's dh_strip does.
install-strip: install
	strip --remove-section=.comment --remove-section=.note --strip-unneeded $(DESTDIR)$(BINDIR)/wake
	strip --remove-section=.comment --remove-section=.note --strip-unneeded $(DESTDIR)$(HELPER)
ifeq ($(DESTDIR),)
	$(SETCAP) cap_wake_alarm+ep $(HELPER)
endif

# Removes the files install put there (the helper's capability goes with its file) and wake's own
# doc and libexec directories if they are then empty; shared directories (bin, man1,
# completions) stay.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED_FILES))
	rmdir $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(HOOKEXAMPLEDIR) $(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(DOCDIR) $(DESTDIR)$(HELPERDIR) \
	  2>/dev/null || true

# ---- Debian package ---------------------------------------------------------------------------
# The version is WakeVersion's (Sources/WakeCommandLine/Commands/WakeCommand.swift); the Debian revision is ours.
VERSION      := $(shell sed -n 's/^ *static let string = "wake \([0-9][^"]*\)".*/\1/p' Sources/WakeCommandLine/Commands/WakeCommand.swift)
DEB_REVISION ?= 1
DEB_VERSION  := $(VERSION)-$(DEB_REVISION)
DEB_ARCH     := $(shell dpkg --print-architecture 2>/dev/null)
# Where the package is written, and where it is put together (the tests use directories of
# their own).
DEBDIR       ?= .
DEB_WORK     ?= .build/deb
DEB          := $(DEBDIR)/wake_$(DEB_VERSION)_$(DEB_ARCH).deb
DEB_ROOT     := $(abspath $(DEB_WORK))/root
# The changelog's date: the last commit's, so the same tree makes the same package.
DEB_DATE     := $(shell git log -1 --format=%aD 2>/dev/null || date -R)

# Staged with `make install-strip PREFIX=/usr`; Depends from dpkg-shlibdeps (it reads the
# binary's NEEDED libraries and the shlibs files of the packages that provide them; it wants a
# debian/control in its working directory, so it gets a minimal one); md5sums of every file;
# files owned by root without fakeroot (--root-owner-group). lintian fails the build on an error.
deb: deps-package $(RELEASE_BIN) $(RELEASE_HELPER)
	@test -n "$(VERSION)" || { echo "no 'static let string = \"wake X.Y.Z\"' in Sources/WakeCommandLine/Commands/WakeCommand.swift; restore WakeVersion.string" >&2; exit 1; }
	rm -rf $(DEB_WORK) && mkdir -p $(DEB_ROOT)/DEBIAN $(DEB_WORK)/debian $(DEBDIR)
	$(MAKE) --no-print-directory install-strip PREFIX=/usr DESTDIR=$(DEB_ROOT)
	sed -e 's/@VERSION@/$(DEB_VERSION)/' -e 's/@DATE@/$(DEB_DATE)/' packaging/changelog.in \
	  | gzip -9n > $(DEB_ROOT)/usr/share/doc/wake/changelog.Debian.gz
	$(INSTALL_DATA) packaging/copyright $(DEB_ROOT)/usr/share/doc/wake/copyright
	printf 'Source: wake\n\nPackage: wake\nArchitecture: any\n' > $(DEB_WORK)/debian/control
	cd $(DEB_WORK) && dpkg-shlibdeps -O root/usr/bin/wake root/usr/libexec/wake/wake-alarm-timer | sed -n 's/^shlibs:Depends=//p' > depends
	@test -s $(DEB_WORK)/depends || { echo "dpkg-shlibdeps found no dependencies; is dpkg-dev installed? see $(DEB_WORK)/depends" >&2; exit 1; }
	# dpkg-shlibdeps counts the symbols used, not the version a feature needs: the packed
	# relocations (DT_RELR, RELEASE_FLAGS) need glibc 2.36, so the libc6 it names is raised to that.
	if readelf -d $(DEB_ROOT)/usr/bin/wake | grep -q '(RELR)'; then \
	  sed -i -E 's/libc6 \(>= 2\.([0-9]|[12][0-9]|3[0-5])(\.[0-9]+)?\)/libc6 (>= 2.36)/' $(DEB_WORK)/depends; fi
	cd $(DEB_ROOT) && find usr -type f | LC_ALL=C sort | xargs md5sum > DEBIAN/md5sums
	sed -e 's/@VERSION@/$(DEB_VERSION)/' -e 's/@ARCH@/$(DEB_ARCH)/' \
	  -e "s/@DEPENDS@/$$(cat $(DEB_WORK)/depends)/" -e "s/@SIZE@/$$(du -sk --exclude=DEBIAN $(DEB_ROOT) | cut -f1)/" \
	  packaging/control.in > $(DEB_ROOT)/DEBIAN/control
	chmod 0644 $(DEB_ROOT)/DEBIAN/control $(DEB_ROOT)/DEBIAN/md5sums
	$(INSTALL_PROGRAM) packaging/postinst packaging/prerm $(DEB_ROOT)/DEBIAN/
	readelf -d $(DEB_ROOT)/usr/bin/wake | grep -Eq 'BIND_NOW|FLAGS.*NOW' || { echo "wake is not linked with -z now; run 'make release' (RELEASE_FLAGS adds it)" >&2; exit 1; }
	dpkg-deb --root-owner-group -Zxz --build $(DEB_ROOT) $(DEB)
	lintian --fail-on error $(DEB)
	@echo "built $(DEB); install it with: sudo apt install $(DEB)"
