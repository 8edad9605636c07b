/// The HTTP methods a resource may use.
package enum HTTPMethod: String, Sendable, Hashable {
    case get = "GET"
    case post = "POST"
}
