extension AppStoreServer {
    func verifyReceipt(_ request: HTTPRequest) async -> HTTPResponse { .empty(501) }
}
