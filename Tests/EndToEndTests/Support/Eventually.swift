import Foundation

/// Waits until `condition` holds, checking every 10 ms, for at most `timeout`
/// (times ``Sanitizer/slowdown``).
/// End-to-end tests wait on what they can observe (a request seen, a row
/// written), never on a fixed sleep.
func eventually(timeout: Duration = .seconds(30), _ condition: () throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout * Sanitizer.slowdown
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return try condition()
}
