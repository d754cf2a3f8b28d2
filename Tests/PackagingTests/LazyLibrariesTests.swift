import Foundation
import TestSupport
import Testing

/// `LazyLibraries` stands in for every libcurl and libmicrohttpd function the programs call, so
/// neither library is loaded at a release build's start
/// (Docs/decisions/0146-libraries-loaded-on-first-use.md). A call it lacks fails the release
/// link (or, for libmicrohttpd, every link); these tests name the call first.
@Suite(.waitsOnProcesses, .serialized)
struct LazyLibrariesTests {
    /// The functions `file` of `Sources/LazyLibraries` defines (`LAZY_DEFINITION … name(`).
    static func definitions(in file: String) throws -> Set<String> {
        let source = try String(
            contentsOf: Repository.root.appendingPathComponent("Sources/LazyLibraries/\(file)"), encoding: .utf8)
        var names = Set<String>()
        for declaration in source.components(separatedBy: "LAZY_DEFINITION ").dropFirst() {
            let head = declaration.prefix { $0 != "(" }
            if let name = head.split(whereSeparator: { $0 == " " || $0 == "*" || $0 == "\n" }).last {
                names.insert(String(name))
            }
        }
        return names
    }

    /// The symbols `nm` lists in `file` with one of `kinds` (`U` undefined, `t` local text…)
    /// whose names start with `prefix`.
    static func symbols(_ file: URL, kinds: Set<String>, prefix: String) throws -> Set<String> {
        let result = try ChildProcess.run(.tool("nm"), [file.path])
        #expect(result.status == 0, "nm \(file.path): \(result.stderr)")
        var names = Set<String>()
        for line in result.stdout.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, kinds.contains(String(fields[fields.count - 2])),
                let name = fields.last, name.hasPrefix(prefix)
            else { continue }
            names.insert(String(name))
        }
        return names
    }

    @Test func everyLibcurlFunctionTheStaticFoundationCallsIsOpenedOnFirstUse() throws {
        let swift = try require(Repository.tool("swift"), "no `swift` on PATH").resolvingSymlinksInPath()
        let archive = swift.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("lib/swift_static/linux/lib_CFURLSessionInterface.a")
        try #require(FileManager.default.fileExists(atPath: archive.path), "no \(archive.path)")
        let called = try Self.symbols(archive, kinds: ["U"], prefix: "curl_")
        #expect(called.count > 10, "nm found \(called.count) libcurl calls in \(archive.path)")
        let defined = try Self.definitions(in: "Curl.c")
        #expect(called.subtracting(defined).sorted() == [], "libcurl functions LazyLibraries/Curl.c lacks")
    }

    @Test func theStorefrontCallsLibmicrohttpdOnlyThroughItsFirstUseDefinitions() throws {
        let storefront = Repository.products.appendingPathComponent("storefront")
        try #require(FileManager.default.fileExists(atPath: storefront.path), "no \(storefront.path)")
        #expect(try Self.symbols(storefront, kinds: ["U"], prefix: "MHD_").sorted() == [])
        let local = try Self.symbols(storefront, kinds: ["t"], prefix: "MHD_")
        #expect(local == (try Self.definitions(in: "MicroHTTPD.c")))
        #expect(local.contains("MHD_start_daemon"))
    }

    /// A library or function that is missing ends the process as the dynamic loader would have at
    /// start: its message on standard error and status 127. The real `LazyLibrary.c`, compiled into
    /// a program that asks for a library no system has, then for a function libc lacks.
    @Test(arguments: [
        ("libstorefront-absent.so.1", "absent_function", "libstorefront-absent.so.1"),
        ("libc.so.6", "storefront_absent_function", "storefront_absent_function"),
    ])
    func aMissingLibraryOrFunctionEndsTheProcessAsTheLoaderWould(
        soname: String, function: String, named: String
    ) throws {
        let directory = try TemporaryDirectory(prefix: "lazy-libraries")
        let program = directory.url.appendingPathComponent("lazy-missing.c")
        try """
        #include "LazyLibrary.h"
        #include <stdio.h>
        void \(function)(void);
        static LazyLibrary library = {"\(soname)", NULL};
        int main(void) {
            LAZY_FUNCTION(library, \(function))();
            puts("returned");
            return 0;
        }
        """.write(to: program, atomically: true, encoding: .utf8)
        let sources = Repository.root.appendingPathComponent("Sources/LazyLibraries")
        let executable = directory.url.appendingPathComponent("lazy-missing")
        let compiled = try ChildProcess.run(
            .tool("cc"),
            [
                "-std=gnu11", "-I", sources.appendingPathComponent("include").path, program.path,
                sources.appendingPathComponent("LazyLibrary.c").path, "-ldl", "-o", executable.path,
            ])
        try #require(compiled.status == 0, "cc: \(compiled.output)")

        let result = try ChildProcess.run(executable)
        #expect(!result.signaled)
        #expect(result.status == 127)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("lazy-missing: error while loading shared libraries: "))
        #expect(result.stderr.contains(named), "\(result.stderr)")
    }
}
