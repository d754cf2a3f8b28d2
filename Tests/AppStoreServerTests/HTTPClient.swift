import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Real HTTP requests to a server on 127.0.0.1 through URLSession.
struct HTTPClient {
    let base: URL
    private let session: URLSession

    init(port: UInt16) {
        base = URL(string: "http://127.0.0.1:\(port)")!
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        configuration.timeoutIntervalForResource = 60
        session = URLSession(configuration: configuration)
    }

    struct Answer {
        let status: Int
        let headers: [String: String]
        let body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        func json() throws -> [String: Any] {
            try #require(JSONSerialization.jsonObject(with: body) as? [String: Any])
        }
    }

    func send(_ method: String, _ pathAndQuery: String, headers: [String: String] = [:], body: Data? = nil) async throws -> Answer {
        var request = URLRequest(url: URL(string: base.absoluteString + pathAndQuery)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let (data, response) = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), Error>) in
            session.dataTask(with: request) { data, response, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: (data ?? Data(), response!)) }
            }.resume()
        }
        let http = response as! HTTPURLResponse
        var names: [String: String] = [:]
        for (key, value) in http.allHeaderFields { names[String(describing: key).lowercased()] = String(describing: value) }
        return Answer(status: http.statusCode, headers: names, body: data)
    }
}

import Testing
