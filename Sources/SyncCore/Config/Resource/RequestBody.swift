/// A request body and its media type.
package struct RequestBody: Sendable, Hashable {
    /// The bytes sent, as text.
    package var text: String
    /// The `Content-Type` sent unless the headers set one.
    package var contentType: String
}
