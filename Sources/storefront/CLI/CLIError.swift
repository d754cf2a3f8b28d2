import LocalAppStore

/// Why a command line could not run, with the exit status it leads to.
enum CLIError: Error, Equatable {
    /// The command line itself is wrong (unknown command or option, missing value): exit 2.
    case usage(String)
    /// The command line is fine but running failed (e.g. a bad catalog): exit 1.
    case runtime(String)

    /// The process exit status for this error.
    var exitStatus: Int32 {
        switch self {
        case .usage: 2
        case .runtime: 1
        }
    }

    /// The message for standard error.
    var message: String {
        switch self {
        case .usage(let text), .runtime(let text): text
        }
    }

    /// A command's failure as the CLI reports it: a `CLIError` as it is, the local store's
    /// errors in their own words, anything else described (exit 1).
    init(_ error: any Error) {
        switch error {
        case let error as CLIError: self = error
        case let error as LocalAppStoreError: self = .runtime(error.description)
        default: self = .runtime("\(error)")
        }
    }
}
