/// The Retention Messaging API's endpoints (all under `/inApps/v1/messaging`).
enum RetentionRoute: Hashable, Sendable {
    case uploadImage(String)
    case deleteImage(String)
    case imageList
    case uploadMessage(String)
    case deleteMessage(String)
    case messageList
    case configureDefaultMessage(productID: String, locale: String)
    case getDefaultMessage(productID: String, locale: String)
    case deleteDefaultMessage(productID: String, locale: String)
    case configureRealtimeURL
    case getRealtimeURL
    case deleteRealtimeURL
    case initiatePerformanceTest
    case performanceTestResult(String)

    /// The methods and routes a path's segments (`inApps`, `v1`, `messaging`, …) name.
    static func candidates(_ s: [String]) -> [(method: String, route: Route)] {
        func routes(_ list: [(String, RetentionRoute)]) -> [(method: String, route: Route)] {
            list.map { ($0.0, .retention($0.1)) }
        }
        switch s.count {
        case 4 where s[3] == "performanceTest":
            return routes([("POST", .initiatePerformanceTest)])
        case 5:
            switch s[3] {
            case "image" where s[4] == "list":
                return routes([("GET", .imageList), ("PUT", .uploadImage(s[4])), ("DELETE", .deleteImage(s[4]))])
            case "image": return routes([("PUT", .uploadImage(s[4])), ("DELETE", .deleteImage(s[4]))])
            case "message" where s[4] == "list":
                return routes([
                    ("GET", .messageList), ("PUT", .uploadMessage(s[4])), ("DELETE", .deleteMessage(s[4])),
                ])
            case "message": return routes([("PUT", .uploadMessage(s[4])), ("DELETE", .deleteMessage(s[4]))])
            case "realtime" where s[4] == "url":
                return routes([
                    ("PUT", .configureRealtimeURL), ("GET", .getRealtimeURL), ("DELETE", .deleteRealtimeURL),
                ])
            default: return []
            }
        case 6:
            switch s[3] {
            case "default":
                return routes([
                    ("PUT", .configureDefaultMessage(productID: s[4], locale: s[5])),
                    ("GET", .getDefaultMessage(productID: s[4], locale: s[5])),
                    ("DELETE", .deleteDefaultMessage(productID: s[4], locale: s[5])),
                ])
            case "performanceTest" where s[4] == "result": return routes([("GET", .performanceTestResult(s[5]))])
            default: return []
            }
        default: return []
        }
    }
}
