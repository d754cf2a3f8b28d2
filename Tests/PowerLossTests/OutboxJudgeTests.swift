import Foundation
import LocalAppStore
import TestSupport
import Testing

/// The outbox rules catch what they are for: a judge that passes everything explores nothing.
@Suite struct OutboxJudgeTests {
    static func fact(
        _ uuid: String, _ transactionID: String, attempts: [String] = [], due: Bool = true
    ) -> CrashCheckReport.NotificationFacts {
        CrashCheckReport.NotificationFacts(
            uuid: uuid, kind: "ONE_TIME_CHARGE", transactionID: transactionID, attempts: attempts, due: due,
            delivered: attempts.contains("SUCCESS"))
    }

    static func judge(
        charged: [String], _ notifications: [CrashCheckReport.NotificationFacts], marks: Set<String>
    ) -> [String] {
        var facts = CrashCheckReport.RunFacts()
        facts.charged = ["pro"] + charged
        facts.notifications = notifications
        return PowerLossTests.judgeOutbox(
            CrashScenario.Judgement(
                facts: facts, marks: marks,
                baseline: CrashScenario.Baseline(ledger: [], charged: ["pro"], balances: [:])))
    }

    @Test func aStateThatKeepsTheRulesPasses() {
        let marks: Set<String> = [
            Marks.notified("u1", "t1"), Marks.sending("u1", 1, .timedOut), Marks.synced("u1", 1),
            Marks.sending("u1", 2, .success),
        ]
        #expect(Self.judge(charged: ["t1"], [Self.fact("u1", "t1", attempts: ["TIMED_OUT"])], marks: marks) == [])
        #expect(
            Self.judge(
                charged: ["t1"], [Self.fact("u1", "t1", attempts: ["TIMED_OUT", "SUCCESS"], due: false)], marks: marks)
                == [])
    }

    @Test func eachBrokenRuleIsNamed() {
        let notified: Set<String> = [Marks.notified("u1", "t1")]
        let cases: [([String], [CrashCheckReport.NotificationFacts], Set<String>, String)] = [
            (["t1"], [], [], "charge t1 has notifications [], not one ONE_TIME_CHARGE"),
            (["t1"], [Self.fact("u1", "t1"), Self.fact("u2", "t1")], [], "not one ONE_TIME_CHARGE"),
            ([], [Self.fact("u1", "t1")], [], "which the store did not charge"),
            (["t1"], [Self.fact("u9", "t1")], notified, "was notified as u1 and now has [\"u9\"]"),
            (
                ["t1"], [Self.fact("u1", "t1")],
                notified.union([Marks.sending("u1", 1, .timedOut), Marks.synced("u1", 1)]),
                "u1: 0 attempts after 1 were synced"
            ),
            (
                ["t1"], [Self.fact("u1", "t1", attempts: ["TIMED_OUT", "TIMED_OUT"])],
                notified.union([Marks.sending("u1", 1, .timedOut)]),
                "u1: attempts [\"TIMED_OUT\", \"TIMED_OUT\"], but those begun were [\"TIMED_OUT\"]"
            ),
            (
                ["t1"], [Self.fact("u1", "t1", attempts: ["SUCCESS"])],
                notified.union([Marks.sending("u1", 1, .timedOut)]),
                "but those begun were [\"TIMED_OUT\"]"
            ),
            (["t1"], [Self.fact("u1", "t1", due: false)], notified, "u1 is neither delivered nor due"),
        ]
        for (charged, notifications, marks, expected) in cases {
            let failures = Self.judge(charged: charged, notifications, marks: marks)
            #expect(failures.contains { $0.contains(expected) }, "\(expected): \(failures)")
        }
    }
}
