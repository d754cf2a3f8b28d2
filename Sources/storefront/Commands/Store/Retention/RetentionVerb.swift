import Foundation
import LocalAppStore

/// `storefront store retention`: what was uploaded through Apple's Retention Messaging API —
/// images, messages with their review state, default messages, realtime URLs, performance tests.
struct RetentionVerb: Verb {
    let name = "retention"
    let abstract = """
        retention messaging as uploaded through Apple's Retention Messaging API: images, messages (with \
        their review state), default messages by product and locale, realtime URLs and performance tests
        """

    func run(_ call: VerbCall) async throws(CLIError) {
        let (state, now) = try await call.store { ($0.retention, $0.configuration.clock.now) }
        let current: RetentionState
        do {
            current = try state.state()
        } catch {
            throw .runtime(error.description)
        }
        call.write(json: Self.json(current, now: now), lines: Self.lines(current, now: now))
    }

    /// Everything uploaded, as lines.
    static func lines(_ state: RetentionState, now: Date) -> [String] {
        var lines: [String] = []
        let images = state.imageList
        lines.append(images.isEmpty ? "No images." : "Images:")
        for image in images {
            lines.append("  \(text(image.identifier))  \(image.rawSize)  \(image.rawState)  \(image.dimensions)")
        }
        let messages = state.messageList
        lines.append(messages.isEmpty ? "No messages." : "Messages:")
        for message in messages {
            let content = message.content
            let extras =
                (content.image == nil ? "" : ", an image")
                + (content.bulletPoints.isEmpty ? "" : ", \(content.bulletPoints.count) bullet points")
            lines.append("  \(text(message.identifier))  \(message.rawState)  \"\(content.header)\"\(extras)")
        }
        lines.append(state.defaults.isEmpty ? "No default messages." : "Default messages:")
        for configured in state.defaults {
            lines.append("  \(configured.productID) \(configured.locale) → \(text(configured.messageIdentifier))")
        }
        lines.append(state.realtimeURLs.isEmpty ? "No realtime URL." : "Realtime URLs:")
        for (environment, url) in state.realtimeURLs.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(environment)  \(url)")
        }
        if !state.performanceTests.isEmpty { lines.append("Performance tests:") }
        for run in state.performanceTests {
            let rate = run.outcome.map { ", \($0.successRate)% in time" } ?? ""
            lines.append(
                "  \(text(run.requestID))  \(run.status(at: now).rawValue)\(rate)  "
                    + "\(TransactionOutput.date(run.started))  \(run.target)")
        }
        return lines
    }

    /// Everything uploaded, as JSON.
    static func json(_ state: RetentionState, now: Date) -> JSONText {
        .object([
            (
                "images",
                .array(
                    state.imageList.map {
                        .object([
                            ("imageIdentifier", .string(text($0.identifier))), ("imageSize", .string($0.rawSize)),
                            ("imageState", .string($0.rawState)), ("width", .number(String($0.width))),
                            ("height", .number(String($0.height))), ("bytes", .number(String($0.byteCount))),
                        ])
                    })
            ),
            ("messages", .array(state.messageList.map(RetentionOutput.json))),
            (
                "defaultMessages",
                .array(
                    state.defaults.map {
                        .object([
                            ("productID", .string($0.productID)), ("locale", .string($0.locale)),
                            ("messageIdentifier", .string(text($0.messageIdentifier))),
                        ])
                    })
            ),
            (
                "realtimeURLs",
                .object(state.realtimeURLs.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
            ),
            (
                "performanceTests",
                .array(
                    state.performanceTests.map {
                        .object([
                            ("requestId", .string(text($0.requestID))),
                            ("result", .string($0.status(at: now).rawValue)),
                            ("successRate", $0.outcome.map { .number(String($0.successRate)) } ?? .null),
                            ("target", .string($0.target)),
                        ])
                    })
            ),
        ])
    }

    private static func text(_ id: UUID) -> String { id.uuidString.lowercased() }
}
