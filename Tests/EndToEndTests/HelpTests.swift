import Foundation
import Testing

@Suite struct HelpTests {
    @Test func noArgumentsPrintsUsage() throws {
        let result = try StorefrontProcess.run([])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: storefront"))
    }
}
