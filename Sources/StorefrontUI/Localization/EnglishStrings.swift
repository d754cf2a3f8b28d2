/// English as the storefront says it where the shared English key says it otherwise (the
/// settings registry's labels and help are written for the CLI).
extension Strings {
    static let english: [String: String] = [
        "Download bandwidth (bytes/s)": "Download bandwidth",
        "purchases wait for 'store approve ID' or 'store decline ID'":
            "purchases wait until approved or declined (Transaction Manager: t, then a or d)",
        "purchases wait for 'store resolve ID', then complete":
            "purchases wait until resolved, then complete (Transaction Manager: t, then i)",
    ]
}
