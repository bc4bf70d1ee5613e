# relavoi-agent: `make demo` and `make test` do all the set-up (see README.md).
SHELL := /bin/bash
SWIFT ?= swift
PKG_SHIM := $(CURDIR)/.build/pkgconfig
export PKG_CONFIG_PATH := $(PKG_SHIM)$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))

.PHONY: all deps deps-demo deps-deb build translations pot release test example tools api-dump docs test-shell shell-extension demo bench install uninstall deb format format-check clean

all: build

deps:
	@scripts/install-deps.sh test
deps-demo:
	@scripts/install-deps.sh demo
deps-deb:
	@scripts/install-deps.sh deb

$(PKG_SHIM)/.stamp: scripts/pkgconfig-shim.sh
	@scripts/pkgconfig-shim.sh $(PKG_SHIM) && touch $@

build: $(PKG_SHIM)/.stamp translations
	$(SWIFT) build

# po/*.po → .build/locale/<lang>/LC_MESSAGES/relavoi-agent.mo, where an agent run
# from the build tree finds them.
translations:
	@scripts/compile-translations.sh --build-tree $(CURDIR)/.build/locale

# po/relavoi-agent.pot from the texts marked L("…")/LN(…) and the desktop entry, and the
# extension's desktop/gnome-shell/po/relavoi-shell.pot from its _('…')/ngettext(…).
pot:
	scripts/update-pot.sh
	scripts/update-pot.sh --shell
	scripts/update-pot.sh --plasma

# The static Swift runtime keeps ~6 MiB of shared-library pages out of the agent's resident memory.
release: $(PKG_SHIM)/.stamp
	$(SWIFT) build -c release --static-swift-stdlib -Xlinker --strip-all --product relavoi-agent
	$(SWIFT) build -c release --static-swift-stdlib --product relavoi-sandbox
	$(SWIFT) build -c release --static-swift-stdlib -Xlinker --strip-all --product relavoi-window

# A host app's own package that depends on this one by path (its own .build:
# about 25 s from scratch, as it compiles only the SDK's modules).
EXAMPLE := Examples/CallActivityHost
EXAMPLE_BIN := $(CURDIR)/$(EXAMPLE)/.build/debug/CallActivityHost

# RelavoiSDK's public API (swift-api-digester); make test fails when it changes without this.
api-dump: build
	scripts/api-dump.sh api/RelavoiSDK.json

# RelavoiSDK's DocC archive (.build/docs/RelavoiSDK.doccarchive), articles in docs/RelavoiSDK.docc.
docs: build
	scripts/docs.sh

# The plan is made anew each time (cheap): SwiftPM otherwise misses files added to
# this repository, the example's path dependency, since its last build.
example: $(PKG_SHIM)/.stamp
	rm -f $(EXAMPLE)/.build/debug.yaml
	$(SWIFT) build --package-path $(EXAMPLE)

# relavoi-bench and relavoi-soak (Tools/, targets of this package): make test builds
# them (debug) so a change that breaks them fails there.
tools: $(PKG_SHIM)/.stamp
	$(SWIFT) build --product relavoi-bench
	$(SWIFT) build --product relavoi-soak

# Under CI (CI=true, as .ci/run is started) the suite also runs under AddressSanitizer.
test: deps $(PKG_SHIM)/.stamp format-check translations
	Tests/i18n/check-po.sh
	$(SWIFT) build --build-tests
	scripts/api-dump.sh --check
	scripts/docs.sh
	$(MAKE) --no-print-directory example
	$(MAKE) --no-print-directory tools
	RELAVOI_CONSUMER_BIN=$(EXAMPLE_BIN) SWIFT=$(SWIFT) scripts/run-tests.sh
	Tests/install/check-install.sh
	Tests/install/check-autostart.sh
	Tests/unit/check-confined-agent.sh
	Tests/shell/run-unit-tests.sh
	Tests/shell/check-gnome-shell.sh
	Tests/shell/check-gnome-shell-a11y.sh
	Tests/plasma/run-tests.sh
	Tests/window/check-window.sh
	Tests/deb/check-deb.sh
	@if [ "$${CI:-}" = true ]; then $(MAKE) test-asan; fi

# The GNOME Shell extension only: gjs unit tests of both builds, then the headless shell
# with the debug agent on relavoi-sandbox.
test-shell: deps $(PKG_SHIM)/.stamp
	$(SWIFT) build --product relavoi-agent
	$(SWIFT) build --product relavoi-sandbox
	Tests/shell/run-unit-tests.sh
	Tests/shell/check-gnome-shell.sh
	Tests/shell/check-gnome-shell-a11y.sh

# Both builds of the GNOME Shell extension relavoi@relavoi.com and their zips (the form
# `gnome-extensions install` takes), in .build/shell-extension/.
shell-extension:
	scripts/build-shell-extension.sh --zip

demo: deps-demo $(PKG_SHIM)/.stamp translations
	$(SWIFT) build --product relavoi-agent
	$(SWIFT) build --product relavoi-sandbox
	@scripts/demo.sh $(CURDIR)/.build/debug/relavoi-agent

# Benchmarks (release build, private bus): prints a table, writes .build/bench/latest.json.
bench:
	scripts/bench.sh

# PREFIX (default /usr/local) and DESTDIR are honoured; see scripts/install.sh --help.
# The GNOME Shell extension that fits the installed gnome-shell comes along (SHELL_EXTENSION).
install: release
	AGENT_BIN=$(CURDIR)/.build/release/relavoi-agent scripts/install.sh install

uninstall:
	scripts/install.sh uninstall

# dist/relavoi-agent_<version>_<arch>.deb with debhelper (debian/), from the
# release build; the stamp goes so that a changed tree is built again.
deb: deps-deb $(PKG_SHIM)/.stamp
	rm -f debian/debhelper-build-stamp dist/relavoi-agent_*.deb
	debian/rules build
	fakeroot debian/rules binary
	@ls dist/relavoi-agent_*.deb

# One list of what swift format keeps formatted, for format and format-check.
SWIFT_FORMATTED := Package.swift Sources Tests Fuzz Tools $(wildcard Examples)

format:
	$(SWIFT) format --in-place --recursive $(SWIFT_FORMATTED)

# make test runs this first: a formatting slip fails the suite, not a later commit.
format-check:
	$(SWIFT) format lint --strict --recursive $(SWIFT_FORMATTED)

clean:
	rm -rf .build dist $(EXAMPLE)/.build
	rm -rf debian/relavoi-agent debian/.debhelper debian/files debian/*.substvars debian/debhelper-build-stamp

# Hardening (docs/hardening.md): libFuzzer targets, the suite under ASan/LSan
# and TSan, and a soak run of the release agent.
.PHONY: fuzz test-asan test-tsan soak

fuzz: deps $(PKG_SHIM)/.stamp
	scripts/fuzz.sh

test-asan: deps $(PKG_SHIM)/.stamp
	scripts/test-sanitized.sh address

test-tsan: deps $(PKG_SHIM)/.stamp
	scripts/test-sanitized.sh thread

soak: deps $(PKG_SHIM)/.stamp
	scripts/soak.sh
