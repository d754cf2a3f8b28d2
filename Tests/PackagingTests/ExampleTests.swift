import Foundation
import TestSupport
import Testing

/// The packages in `Examples/`, each a separate SwiftPM package that depends on this one by
/// path and imports only its products: built (one shared scratch path, so the libraries compile
/// once), run against a local App Store in a temporary directory, and their output checked
/// against `expected-output.txt` beside each.
@Suite(.waitsOnProcesses, .serialized, .timeLimit(.minutes(20)))
struct ExampleTests {
    static let examples = ["ReadmeApp", "RMStoreStyle", "StoreKit2Style"]

    /// Builds `name` and runs it from the repository's root (where `Catalogs/Demo.storekit` is).
    static func buildAndRun(_ name: String) async throws -> (build: ChildProcess.Result, run: ChildProcess.Result) {
        let swift = try require(Repository.tool("swift"), "no `swift` on PATH")
        let package = Repository.root.appendingPathComponent("Examples/\(name)")
        let build = try ChildProcess.run(
            swift,
            [
                "build", "--package-path", package.path, "--scratch-path", Repository.examplesBuild.path,
                "--product", name,
            ], timeout: .seconds(3600))
        guard build.status == 0 else { throw ChildProcess.Failure("swift build of Examples/\(name)", build) }
        let executable = Repository.examplesBuild.appendingPathComponent("debug/\(name)")
        let run = try ChildProcess.run(executable, [], currentDirectory: Repository.root)
        return (build, run)
    }

    /// The Demo catalog's hosted content, which the examples download (made as `make test` makes it).
    static func makeContent() async throws {
        let script = Repository.root.appendingPathComponent("scripts/make-content")
        let result = try ChildProcess.run(script, [], currentDirectory: Repository.root)
        guard result.status == 0 else { throw ChildProcess.Failure("scripts/make-content", result) }
    }

    @Test(arguments: examples)
    func theExampleBuildsWithoutWarningsRunsAndPrintsWhatItShould(_ name: String) async throws {
        try await Self.makeContent()
        let (build, run) = try await Self.buildAndRun(name)
        let ours = (build.stdout + build.stderr).split(separator: "\n")
            .filter { $0.contains("/Examples/") && ($0.contains("warning:") || $0.contains("error:")) }
        #expect(ours.isEmpty, "Examples/\(name) builds with diagnostics:\n\(ours.joined(separator: "\n"))")
        #expect(run.status == 0 && !run.signaled, "Examples/\(name) exited with \(run.status):\n\(run.stderr)")
        let expected = try String(
            contentsOf: Repository.root.appendingPathComponent("Examples/\(name)/expected-output.txt"), encoding: .utf8)
        #expect(run.stdout == expected, "Examples/\(name) printed:\n\(run.stdout)\nstderr:\n\(run.stderr)")
    }

    @Test(arguments: examples)
    func theExampleIsASeparatePackageThatImportsOnlyProducts(_ name: String) async throws {
        let package = Repository.root.appendingPathComponent("Examples/\(name)")
        let manifest = try String(contentsOf: package.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains(#".package(name: "Storefront", path: "../..")"#), "depends on the project by path")
        let products = try Repository.libraryProducts()
        let sources = package.appendingPathComponent("Sources/\(name)")
        for file in try FileManager.default.contentsOfDirectory(atPath: sources.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("@testable"), "\(name)/\(file) uses @testable")
            for line in text.split(separator: "\n") where line.hasPrefix("import ") {
                let module = String(line.dropFirst("import ".count))
                #expect(
                    products.contains(module) || ["Foundation", "Dispatch"].contains(module),
                    "\(name)/\(file) imports \(module), which is no product of the package (\(products.sorted()))")
            }
        }
    }

    /// Synchronization's `Mutex` and `Atomic`, which the libraries use, need macOS 15 and
    /// iOS 18; an app's manifest must declare at least what the package does, so the README's,
    /// the guide's and the examples' say the same.
    @Test func theExamplesDeclareThePlatformsThePackageNeeds() throws {
        let declared = Repository.platforms(of: try Repository.manifest())
        #expect(declared["macos"] == "15.0" && declared["ios"] == "18.0", "Package.swift declares \(declared)")
        for name in Self.examples {
            let example = Repository.root.appendingPathComponent("Examples/\(name)")
            #expect(Repository.platforms(of: try Repository.manifest(of: example)) == declared, "Examples/\(name)")
        }
    }

    @Test func theConsumerCheckImportsEveryProductTogether() async throws {
        let products = try Repository.libraryProducts()
        let source = try String(
            contentsOf: Repository.root.appendingPathComponent(
                "Examples/StoreKit2Style/Sources/StoreKit2Style/main.swift"),
            encoding: .utf8)
        for product in products {
            #expect(source.contains("\nimport \(product)\n"), "the StoreKit 2 example does not import \(product)")
        }
    }
}
