# Storefront — the two commands people need are `make run` and `make test`.
SWIFT      ?= swift
CATALOG    ?= Catalogs/Demo.storekit
BUILD_ARGS ?=
# The storefront people run and time: optimized, with the Swift runtime and Foundation linked
# in (a launch loads 37 shared libraries instead of 54 and relocates far fewer symbols), linked
# by lld (gold warns about the `mktemp` inside the static Foundation). See ARCHITECTURE.md.
RELEASE_ARGS ?= -c release --static-swift-stdlib -Xswiftc -use-ld=lld

.PHONY: run test bench coverage fuzz deps build clean content venv python-suite

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
test: deps content venv
	$(SWIFT) test $(BUILD_ARGS)

# The Python suite alone: Apple's Python library judging what the built `storefront` signs and
# serves, and the README's "Testing your server" commands run as written.
python-suite: venv
	$(SWIFT) build $(BUILD_ARGS) --product storefront
	STOREFRONT_BIN=$(CURDIR)/.build/debug/storefront .build/venv/bin/python Tests/Python/run.py

bench: deps
	$(SWIFT) build $(RELEASE_ARGS) $(BUILD_ARGS) --product storefront-bench
	$(SWIFT) build $(RELEASE_ARGS) $(BUILD_ARGS) --product storefront
	./.build/release/storefront-bench

coverage: deps
	$(SWIFT) test --enable-code-coverage $(BUILD_ARGS)
	./scripts/coverage-report

clean:
	rm -rf .build

# Fuzz the BER reader, the receipt decoder and JWS parsing, and the catalog JSON parser and decoder, with
# libFuzzer for a fixed number of runs each, seeded with the conformance receipts and the catalogs in
# Fuzz/seeds/catalog. Any crash fails the target.
FUZZ_RUNS ?= 50000
FUZZ_DIR  := .build/fuzz
RECEIPTS_FUZZ_SOURCES := $(wildcard Sources/Receipts/BER/*.swift Sources/Receipts/Model/*.swift \
	Sources/Receipts/Decoding/*.swift) Sources/Receipts/Encoding/ReceiptEncoder.swift Sources/Receipts/ReceiptError.swift \
	$(filter-out Sources/Receipts/JWS/JWSSigner.swift Sources/Receipts/JWS/JWSVerifier.swift, $(wildcard Sources/Receipts/JWS/*.swift))
CATALOG_FUZZ_SOURCES := $(shell find Sources/Catalog -name '*.swift')
# The vault's record payload decoder, with SystemIO (which VaultError names) as a static library.
VAULT_FUZZ_SOURCES := Sources/Vault/Format/ByteReader.swift Sources/Vault/Format/ByteWriter.swift \
	Sources/Vault/Format/RecordPayload.swift Sources/Vault/Format/VaultFormat.swift Sources/Vault/Model/VaultItem.swift \
	Sources/Vault/Model/VaultItemContent.swift Sources/Vault/VaultError.swift
fuzz:
	rm -rf $(FUZZ_DIR)/work $(FUZZ_DIR)/catalog-work && mkdir -p $(FUZZ_DIR)/work $(FUZZ_DIR)/seeds $(FUZZ_DIR)/catalog-work \
		$(FUZZ_DIR)/catalog-seeds
	for f in Tests/ReceiptsTests/Fixtures/*.b64; do \
		cp $$f $(FUZZ_DIR)/seeds/ && base64 -d $$f > $(FUZZ_DIR)/seeds/$$(basename $$f .b64).der; done
	find Fuzz/seeds -maxdepth 1 -type f -exec cp {} $(FUZZ_DIR)/seeds/ \;
	find Fuzz/seeds/catalog -type f ! -name '*.md' -exec cp {} $(FUZZ_DIR)/catalog-seeds/ \;
	swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name ReceiptsFuzz \
		Fuzz/ReceiptsFuzz.swift $(RECEIPTS_FUZZ_SOURCES) -o $(FUZZ_DIR)/receipts-fuzz
	$(FUZZ_DIR)/receipts-fuzz -runs=$(FUZZ_RUNS) -seed=1 -max_len=16384 -print_final_stats=1 \
		$(FUZZ_DIR)/work $(FUZZ_DIR)/seeds
	swiftc -O -wmo -sanitize=fuzzer,address -parse-as-library -module-name Catalog \
		Fuzz/CatalogFuzz.swift $(CATALOG_FUZZ_SOURCES) -o $(FUZZ_DIR)/catalog-fuzz
	$(FUZZ_DIR)/catalog-fuzz -runs=$(FUZZ_RUNS) -seed=1 -max_len=65536 -print_final_stats=1 \
		$(FUZZ_DIR)/catalog-work $(FUZZ_DIR)/catalog-seeds
	rm -rf $(FUZZ_DIR)/vault-work && mkdir -p $(FUZZ_DIR)/vault-work
	swiftc -O -parse-as-library -sanitize=address -emit-library -static -emit-module -module-name SystemIO \
		$$(find Sources/SystemIO -name '*.swift') -emit-module-path $(FUZZ_DIR)/SystemIO.swiftmodule -o $(FUZZ_DIR)/libSystemIO.a
	swiftc -O -wmo -sanitize=fuzzer,address -parse-as-library -module-name Vault -I $(FUZZ_DIR) \
		Fuzz/VaultRecordFuzz.swift $(VAULT_FUZZ_SOURCES) $(FUZZ_DIR)/libSystemIO.a -o $(FUZZ_DIR)/vault-fuzz
	$(FUZZ_DIR)/vault-fuzz -runs=$(FUZZ_RUNS) -seed=1 -max_len=4096 -print_final_stats=1 \
		$(FUZZ_DIR)/vault-work Fuzz/seeds/vault
