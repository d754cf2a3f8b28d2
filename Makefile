# Storefront — the two commands people need are `make run` and `make test`.
SWIFT      ?= swift
CATALOG    ?= Catalogs/Demo.storekit
BUILD_ARGS ?=
# The storefront people run and time: optimized, with the Swift runtime and Foundation linked
# in (far fewer shared libraries to load and symbols to relocate), linked by lld (gold warns
# about the `mktemp` inside the static Foundation). See Docs/decisions/0007-static-stdlib-release-build.md.
# No autolinked `-lcurl` (the static FoundationNetworking's): libcurl, like libmicrohttpd, is
# opened on its first call by LazyLibraries, not loaded at every start
# (Docs/decisions/0146-libraries-loaded-on-first-use.md). Not position-independent: the loader
# relocates none of the executable's own pointers (Docs/decisions/0147-release-executables-are-not-position-independent.md).
# C compiled with DWARF 4 debug information, as Swift's is: valgrind 3.19 (the bench's callgrind)
# gives up on a binary holding DWARF 5 units. Concrete generic types' metadata reached through
# accessors, not mangled names, so a first use looks up no conformance at run time
# (Docs/decisions/0096-metadata-accessors-not-mangled-names.md).
RELEASE_ARGS ?= -c release --static-swift-stdlib -Xswiftc -use-ld=lld \
	-Xswiftc -Xfrontend -Xswiftc -disable-autolink-library -Xswiftc -Xfrontend -Xswiftc curl -Xlinker -no-pie \
	-Xcc -gdwarf-4 -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors

.PHONY: run test lint docs bench coverage fuzz fuzz-long fuzz-package-targets fuzz-seeds fuzz-file-seeds fuzz-file-stores fuzz-receipts-binary fuzz-catalog-binary fuzz-vault-binary fuzz-typecheck deps build clean content venv python-suite

# Install the system libraries (OpenSSL libcrypto, ncursesw) and tools the build and
# tests use, only when they are missing. Needs root or sudo on a fresh machine.
deps:
	@./scripts/install-deps

# Generate the Demo catalog's hosted content (deterministic; skipped when up to date).
content:
	@./scripts/make-content

build: deps
	$(SWIFT) build $(BUILD_ARGS)

run: deps content
	$(SWIFT) build $(RELEASE_ARGS) $(BUILD_ARGS) --product storefront
	./.build/release/storefront --catalog $(CATALOG)

# Apple's app-store-server-library in .build/venv (scripts/python-venv; idempotent).
venv:
	@./scripts/python-venv >/dev/null

# The Python suite (Tests/Python) runs inside `swift test`, as EndToEndTests.PythonSuiteTests.
test: deps content venv lint
	$(SWIFT) test $(BUILD_ARGS)

# Layout is the toolchain's `swift format` with the repository's .swift-format; any finding fails.
lint:
	$(SWIFT) format lint --strict --parallel --recursive Package.swift Sources Tests Examples Fuzz

# The StoreCore guide (Sources/StoreCore/StoreCore.docc) as a DocC archive in .build/docs, built by
# the toolchain's docc from the compiler's symbol graphs; a docc warning fails it (DocCTests runs
# the same script in `make test`).
docs:
	$(SWIFT) build $(BUILD_ARGS) --target StoreCore
	./scripts/make-docs "$$($(SWIFT) build $(BUILD_ARGS) --show-bin-path)/Modules" .build/docs/StoreCore.doccarchive

# The Python suite alone: Apple's Python library judging what the built `storefront` signs and
# serves, and the server guide's commands (Docs/server.md) run as written.
python-suite: venv
	$(SWIFT) build $(BUILD_ARGS) --product storefront
	STOREFRONT_BIN=$(CURDIR)/.build/debug/storefront .build/venv/bin/python Tests/Python/run.py

# Every section (BENCH_SECTIONS="history ui" runs those); the figures table of Docs/performance.md
# is rewritten with the rows of the sections that ran.
BENCH_SECTIONS ?=
bench: deps
	$(SWIFT) build $(RELEASE_ARGS) $(BUILD_ARGS) --product storefront-bench
	$(SWIFT) build $(RELEASE_ARGS) $(BUILD_ARGS) --product storefront
	$(SWIFT) build $(RELEASE_ARGS) $(BUILD_ARGS) --product launch-floor
	./.build/release/storefront-bench --table Docs/performance.md $(BENCH_SECTIONS)

coverage: deps
	$(SWIFT) test --enable-code-coverage $(BUILD_ARGS)
	./scripts/coverage-report

clean:
	rm -rf .build

# Fuzz, with libFuzzer for a fixed number of runs each: the BER reader, the receipt decoder and JWS
# parsing; the catalog JSON parser and decoder; the vault record decoder; the store journal reader;
# the App Store Server's request handling; JWS verification and the API's bearer JWT; the journal's
# archives (history.dat, outbox.dat and their indexes) and the vault's index and file, as files of a
# real store and vault. Seeded from the conformance receipts and Fuzz/seeds. Any crash fails the target. `make fuzz-long` runs one
# target longer: FUZZ_TARGET=journal FUZZ_LONG_RUNS=10000000 (Docs/decisions/0049-fuzzing.md).
FUZZ_RUNS ?= 50000
FUZZ_DIR  := .build/fuzz
# A fatalError is the fuzzer's crash to report: Swift's own backtracer would only get in its way.
fuzz fuzz-long: export SWIFT_BACKTRACE = enable=no
FUZZ_PACKAGE_RUNS ?= 5000
# The archive and vault-file targets: inputs are whole files of a real store (up to FUZZ_ARCHIVE_MAX_LEN),
# and an allocation over FUZZ_MALLOC_LIMIT_MB is a finding (a reader sized by what a file claims).
FUZZ_ARCHIVE_RUNS    ?= 2000
FUZZ_ARCHIVE_MAX_LEN ?= 262144
FUZZ_MALLOC_LIMIT_MB ?= 256
FUZZ_MAX_LEN_archive   := $(FUZZ_ARCHIVE_MAX_LEN)
FUZZ_MAX_LEN_vaultfile := $(FUZZ_ARCHIVE_MAX_LEN)
FUZZ_OPTS_archive      := -malloc_limit_mb=$(FUZZ_MALLOC_LIMIT_MB)
FUZZ_OPTS_vaultfile    := -malloc_limit_mb=$(FUZZ_MALLOC_LIMIT_MB)
# The HTTP target runs without LeakSanitizer: the server's answer cache keeps `Data` whose storage
# pointer carries an enum's tag bits, which LSan cannot see, so it reports the cache as leaked.
# `make fuzz` builds with AddressSanitizer into FUZZ_DIR; `make fuzz-long` builds the one target
# with the coverage instrumentation alone into FUZZ_DIR/long-bin (4-5 times the executions a
# second; Swift's own bounds and overflow checks still trap: Docs/decisions/0049-fuzzing.md, the trade).
# One `-sanitize=` list: given as two flags, the second replaces the first (no coverage at all).
FUZZ_SAN ?= fuzzer,address
FUZZ_BIN ?= $(FUZZ_DIR)
# The static libraries the catalog and vault targets link are not instrumented for coverage.
FUZZ_LIB_SAN = $(if $(findstring address,$(FUZZ_SAN)),-sanitize=address)
# The journal, HTTP and JWS targets need the package's modules (OpenSSL, libmicrohttpd): SwiftPM
# builds them instrumented (and testable, for the journal's internal reader) in their own build path.
FUZZ_SPM     := $(FUZZ_BIN)/spm
FUZZ_SPM_OUT  = $(FUZZ_SPM)/release
FUZZ_MODULES := Crypto SystemIO StoreKitValues StoreTesting Catalog Receipts Vault StoreCore LocalAppStore AppStoreServer
FUZZ_LINK     = swiftc -O -sanitize=$(FUZZ_SAN) -use-ld=lld -I $(FUZZ_SPM_OUT)/Modules \
	$(foreach m,$(FUZZ_MODULES),$(call fuzz-module-objects,$(m))) -lcrypto -lmicrohttpd
# A module's objects: those of the sources SwiftPM builds it from now (its `sources` list), not
# every `.o` in its build directory (a moved or removed file's object stays there, and linking it
# fails on the symbols it alone defined).
fuzz-module-objects = $$(sed -e 's|.*/||' -e 's|$$|.o|' -e 's|^|$(FUZZ_SPM_OUT)/$(1).build/|' $(FUZZ_SPM_OUT)/$(1).build/sources)
FUZZ_TARGET    ?= journal
FUZZ_LONG_RUNS ?= 10000000
FUZZ_LONG_TIME ?= 0
FUZZ_SEEDS_receipts := $(FUZZ_DIR)/seeds
FUZZ_SEEDS_catalog  := $(FUZZ_DIR)/catalog-seeds
FUZZ_SEEDS_vault    := Fuzz/seeds/vault
FUZZ_SEEDS_journal  := Fuzz/seeds/journal
FUZZ_SEEDS_http     := Fuzz/seeds/http
FUZZ_SEEDS_jws      := Fuzz/seeds/jws
FUZZ_SEEDS_archive  := $(FUZZ_DIR)/archive-seeds
FUZZ_SEEDS_vaultfile := $(FUZZ_DIR)/vaultfile-seeds
FUZZ_BUILD_receipts := fuzz-receipts-binary
FUZZ_BUILD_catalog  := fuzz-catalog-binary
FUZZ_BUILD_vault    := fuzz-vault-binary
FUZZ_BUILD_journal  := fuzz-package-targets
FUZZ_BUILD_http     := fuzz-package-targets
FUZZ_BUILD_jws      := fuzz-package-targets
FUZZ_BUILD_archive  := fuzz-package-targets fuzz-file-seeds
FUZZ_BUILD_vaultfile := fuzz-package-targets fuzz-file-seeds
# The receipt model and its errors are StoreKitValues', linked as a static library.
RECEIPTS_FUZZ_SOURCES := $(wildcard Sources/Receipts/BER/*.swift Sources/Receipts/Model/*.swift \
	Sources/Receipts/Decoding/*.swift) Sources/Receipts/Encoding/ReceiptEncoder.swift \
	$(filter-out Sources/Receipts/JWS/JWSSigner.swift Sources/Receipts/JWS/JWSHeaderPrefix.swift Sources/Receipts/JWS/JWSVerifier.swift Sources/Receipts/JWS/JWSVerifier+Unverified.swift, \
	$(wildcard Sources/Receipts/JWS/*.swift))
CATALOG_FUZZ_SOURCES := $(shell find Sources/Catalog -name '*.swift')
# The vault's record payload decoder, with SystemIO (which VaultError names) as a static library.
VAULT_FUZZ_SOURCES := Sources/Vault/Format/ByteReader.swift Sources/Vault/Format/ByteWriter.swift \
	Sources/Vault/Format/PayloadLayout.swift Sources/Vault/Model/VaultItemView.swift Sources/Vault/Format/RecordPayload.swift Sources/Vault/Format/VaultFormat.swift Sources/Vault/Model/VaultItem.swift \
	Sources/Vault/Model/VaultItemContent.swift Sources/Vault/VaultError.swift
fuzz: fuzz-receipts-binary fuzz-catalog-binary fuzz-vault-binary fuzz-package-targets fuzz-file-seeds
	rm -rf $(FUZZ_DIR)/work $(FUZZ_DIR)/catalog-work $(FUZZ_DIR)/vault-work && \
		mkdir -p $(FUZZ_DIR)/work $(FUZZ_DIR)/catalog-work $(FUZZ_DIR)/vault-work
	$(FUZZ_DIR)/receipts-fuzz -runs=$(FUZZ_RUNS) -seed=1 -max_len=16384 -print_final_stats=1 \
		$(FUZZ_DIR)/work $(FUZZ_DIR)/seeds
	$(FUZZ_DIR)/catalog-fuzz -runs=$(FUZZ_RUNS) -seed=1 -max_len=65536 -print_final_stats=1 \
		$(FUZZ_DIR)/catalog-work $(FUZZ_DIR)/catalog-seeds
	$(FUZZ_DIR)/vault-fuzz -runs=$(FUZZ_RUNS) -seed=1 -max_len=4096 -print_final_stats=1 \
		$(FUZZ_DIR)/vault-work Fuzz/seeds/vault
	for t in journal http jws; do rm -rf $(FUZZ_DIR)/$$t-work && mkdir -p $(FUZZ_DIR)/$$t-work && \
		leaks=1 && if [ $$t = http ]; then leaks=0; fi && ASAN_OPTIONS=detect_leaks=$$leaks \
		$(FUZZ_DIR)/$$t-fuzz -runs=$(FUZZ_PACKAGE_RUNS) -seed=1 -max_len=16384 -print_final_stats=1 \
			$(FUZZ_DIR)/$$t-work Fuzz/seeds/$$t || exit 1; done
	for t in archive vaultfile; do rm -rf $(FUZZ_DIR)/$$t-work && mkdir -p $(FUZZ_DIR)/$$t-work && \
		$(FUZZ_DIR)/$$t-fuzz -runs=$(FUZZ_ARCHIVE_RUNS) -seed=1 -max_len=$(FUZZ_ARCHIVE_MAX_LEN) -malloc_limit_mb=$(FUZZ_MALLOC_LIMIT_MB) \
			-print_final_stats=1 $(FUZZ_DIR)/$$t-work $(FUZZ_DIR)/$$t-seeds || exit 1; done

# The seeds: the conformance receipts (base64 and DER) with Fuzz/seeds' own, and the catalogs.
fuzz-seeds:
	mkdir -p $(FUZZ_DIR)/seeds $(FUZZ_DIR)/catalog-seeds
	for f in Tests/ReceiptsTests/Fixtures/*.b64; do \
		cp $$f $(FUZZ_DIR)/seeds/ && base64 -d $$f > $(FUZZ_DIR)/seeds/$$(basename $$f .b64).der; done
	find Fuzz/seeds -maxdepth 1 -type f -exec cp {} $(FUZZ_DIR)/seeds/ \;
	find Fuzz/seeds/catalog -type f ! -name '*.md' -exec cp {} $(FUZZ_DIR)/catalog-seeds/ \;

# The archive and vault-file targets' inputs: each file of the seed stores (Fuzz/seeds/archive,
# journal version 5, and Fuzz/seeds/archive-v6) and
# vault (Fuzz/seeds/vault-file), see their PROVENANCE.md, behind each selector it is fuzzed with
# (scripts/fuzz-file-seeds), and the inputs they found (Fuzz/seeds/*-found).
fuzz-file-seeds:
	rm -rf $(FUZZ_DIR)/archive-seeds $(FUZZ_DIR)/vaultfile-seeds && mkdir -p $(FUZZ_DIR)/archive-seeds $(FUZZ_DIR)/vaultfile-seeds
	./scripts/fuzz-file-seeds Fuzz/seeds/archive $(FUZZ_DIR)/archive-seeds Fuzz/seeds/vault-file $(FUZZ_DIR)/vaultfile-seeds \
		Fuzz/seeds/archive-v6
	find Fuzz/seeds/archive-found -type f ! -name '*.md' -exec cp {} $(FUZZ_DIR)/archive-seeds/ \;
	find Fuzz/seeds/vault-file-found -type f ! -name '*.md' -exec cp {} $(FUZZ_DIR)/vaultfile-seeds/ \; 2>/dev/null || true

# The seed store and vault made again by the real code (the targets' makers, ArchiveStoreMaker and
# VaultFileMaker): replaces Fuzz/seeds/archive-v6's and Fuzz/seeds/vault-file's files (commit them, and
# say so in their PROVENANCE.md). Fuzz/seeds/archive stays as the last build of journal version 5 made it.
fuzz-file-stores: fuzz-package-targets
	ARCHIVE_FUZZ_MAKE_STORE=$(CURDIR)/Fuzz/seeds/archive-v6 $(FUZZ_DIR)/archive-fuzz
	VAULT_FUZZ_MAKE_STORE=$(CURDIR)/Fuzz/seeds/vault-file $(FUZZ_DIR)/vaultfile-fuzz

# What each target compiles, one place for its binary above and for `fuzz-typecheck` below: the
# receipts, catalog and vault targets with their module's sources, the package targets (linked by
# FUZZ_LINK, over the modules SwiftPM builds) with the C modules they see through the package's.
FUZZ_SOURCES ?= Fuzz
FUZZ_SWIFTC_receipts := -parse-as-library -package-name storefront -module-name ReceiptsFuzz \
	$(FUZZ_SOURCES)/ReceiptsFuzz.swift $(RECEIPTS_FUZZ_SOURCES)
FUZZ_SWIFTC_catalog  := -wmo -parse-as-library -package-name storefront -module-name Catalog $(FUZZ_SOURCES)/CatalogFuzz.swift $(CATALOG_FUZZ_SOURCES)
FUZZ_SWIFTC_vault    := -wmo -parse-as-library -package-name storefront -module-name Vault $(FUZZ_SOURCES)/VaultRecordFuzz.swift $(VAULT_FUZZ_SOURCES)
# The package's modules each of them imports, compiled apart (`fuzz-static-module`).
FUZZ_IMPORTS_receipts := StoreKitValues
FUZZ_IMPORTS_catalog  := StoreKitValues SystemIO
FUZZ_IMPORTS_vault    := SystemIO
FUZZ_PACKAGE_TARGETS := journal http jws archive vaultfile
FUZZ_C_MODULES := -Xcc -fmodule-map-file=$(CURDIR)/Sources/COpenSSL/module.modulemap \
	-Xcc -fmodule-map-file=$(CURDIR)/Sources/CMicroHTTPD/module.modulemap
FUZZ_PACKAGE_SWIFTC   = -parse-as-library $(FUZZ_C_MODULES) -module-name $(1) $(addprefix $(FUZZ_SOURCES)/,$(2))
FUZZ_SWIFTC_journal   = $(call FUZZ_PACKAGE_SWIFTC,JournalFuzz,JournalFuzz.swift)
FUZZ_SWIFTC_http      = $(call FUZZ_PACKAGE_SWIFTC,HTTPFuzz,HTTPFuzz.swift Shared/FuzzStore.swift)
FUZZ_SWIFTC_jws       = $(call FUZZ_PACKAGE_SWIFTC,JWSFuzz,JWSFuzz.swift)
FUZZ_SWIFTC_archive   = $(call FUZZ_PACKAGE_SWIFTC,ArchiveFuzz,ArchiveFuzz.swift Shared/FuzzStore.swift)
FUZZ_SWIFTC_vaultfile = $(call FUZZ_PACKAGE_SWIFTC,VaultFileFuzz,VaultFileFuzz.swift)

# Every fuzz target type-checked, not built: `make test` runs it (FuzzTargetsTests), so a change
# that breaks a target fails there rather than at the next `make fuzz`
# (Docs/decisions/0148-make-test-type-checks-the-fuzz-targets.md). The package targets against the
# modules of the debug build (FUZZ_CHECK_MODULES, testable as `swift build` makes them), the others
# against the interfaces of the modules they import, emitted into FUZZ_CHECK_DIR with the flags of
# `fuzz-static-module`. FUZZ_CHECK_TARGETS narrows it; FUZZ_SOURCES checks another copy of Fuzz/.
FUZZ_CHECK_MODULES ?= .build/debug/Modules
FUZZ_CHECK_DIR     ?= $(FUZZ_DIR)/typecheck
FUZZ_CHECK_TARGETS ?= receipts catalog vault $(FUZZ_PACKAGE_TARGETS)
fuzz-typecheck:
	mkdir -p $(FUZZ_CHECK_DIR)
	$(foreach m,$(sort $(foreach t,$(FUZZ_CHECK_TARGETS),$(FUZZ_IMPORTS_$(t)))), \
		swiftc -parse-as-library -package-name storefront -emit-module -module-name $(m) \
		$$(find Sources/$(m) -name '*.swift') -emit-module-path $(FUZZ_CHECK_DIR)/$(m).swiftmodule &&) true
	$(foreach t,$(FUZZ_CHECK_TARGETS),echo "fuzz-typecheck: $(t)" && swiftc -typecheck \
		-I $(if $(FUZZ_IMPORTS_$(t)),$(FUZZ_CHECK_DIR),$(FUZZ_CHECK_MODULES)) $(FUZZ_SWIFTC_$(t)) &&) true

# $(call fuzz-static-module,NAME): Sources/NAME as a static library and its module in FUZZ_BIN,
# for a fuzz target built with swiftc that imports it.
# (One package name for them all: the modules declare `package` members.)
fuzz-static-module = swiftc -O -parse-as-library -package-name storefront $(FUZZ_LIB_SAN) -emit-library -static \
	-emit-module -module-name $(1) $$(find Sources/$(1) -name '*.swift') \
	-emit-module-path $(FUZZ_BIN)/$(1).swiftmodule -o $(FUZZ_BIN)/lib$(1).a
# $(call fuzz-binary,TARGET): a target compiled with its module's sources, linked with the static
# libraries of the modules it imports (FUZZ_IMPORTS_TARGET), as FUZZ_BIN/TARGET-fuzz.
fuzz-binary = mkdir -p $(FUZZ_BIN) && $(foreach m,$(FUZZ_IMPORTS_$(1)),$(call fuzz-static-module,$(m)) &&) \
	swiftc -O -sanitize=$(FUZZ_SAN) -use-ld=lld -I $(FUZZ_BIN) $(FUZZ_SWIFTC_$(1)) \
	$(foreach m,$(FUZZ_IMPORTS_$(1)),$(FUZZ_BIN)/lib$(m).a) -o $(FUZZ_BIN)/$(1)-fuzz

fuzz-receipts-binary: fuzz-seeds
	$(call fuzz-binary,receipts)

fuzz-catalog-binary: fuzz-seeds
	$(call fuzz-binary,catalog)

fuzz-vault-binary:
	$(call fuzz-binary,vault)

# One long campaign of one target, built without AddressSanitizer (FUZZ_DIR/long-bin; with it,
# FUZZ_LONG_SAN=fuzzer,address, in FUZZ_DIR/long-bin-asan: the catalog parser reads libFuzzer's
# buffer through pointers), at the lowest priority, its corpus kept in .build/fuzz/long-TARGET;
# FUZZ_LONG_TIME (seconds, 0: none) bounds it in time.
FUZZ_LONG_SAN ?= fuzzer
fuzz-long:
	$(MAKE) --no-print-directory $(FUZZ_BUILD_$(FUZZ_TARGET)) FUZZ_SAN=$(FUZZ_LONG_SAN) FUZZ_BIN=$(FUZZ_DIR)/long-bin$(if $(findstring address,$(FUZZ_LONG_SAN)),-asan)
	mkdir -p $(FUZZ_DIR)/long-$(FUZZ_TARGET)
	nice -n 19 $(FUZZ_DIR)/long-bin$(if $(findstring address,$(FUZZ_LONG_SAN)),-asan)/$(FUZZ_TARGET)-fuzz -runs=$(FUZZ_LONG_RUNS) -max_total_time=$(FUZZ_LONG_TIME) -seed=1 \
		-artifact_prefix=$(FUZZ_DIR)/long-$(FUZZ_TARGET)- \
		-max_len=$(or $(FUZZ_MAX_LEN_$(FUZZ_TARGET)),16384) $(FUZZ_OPTS_$(FUZZ_TARGET)) -print_final_stats=1 \
		$(FUZZ_DIR)/long-$(FUZZ_TARGET) $(FUZZ_SEEDS_$(FUZZ_TARGET))

# The targets over the package's modules (built once, then only what changed).
fuzz-package-targets:
	$(SWIFT) build -c release --build-path $(FUZZ_SPM) -Xswiftc -sanitize=$(FUZZ_SAN) -Xswiftc -enable-testing \
		--target AppStoreServer
	$(SWIFT) build -c release --build-path $(FUZZ_SPM) -Xswiftc -sanitize=$(FUZZ_SAN) -Xswiftc -enable-testing \
		--target StoreTesting
	$(foreach t,$(FUZZ_PACKAGE_TARGETS),$(FUZZ_LINK) $(FUZZ_SWIFTC_$(t)) -o $(FUZZ_BIN)/$(t)-fuzz &&) true
