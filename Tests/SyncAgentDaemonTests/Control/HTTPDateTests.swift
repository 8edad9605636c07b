import Foundation
import Testing

@testable import SyncAgentDaemon

struct HTTPDateTests {
    @Test(arguments: [
        (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
        (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (1_795_650_000, "Wed, 25 Nov 2026 23:40:00 GMT"),
        (951_825_599, "Tue, 29 Feb 2000 11:59:59 GMT"),
    ])
    func isAnIMFFixdate(seconds: Int, text: String) {
        #expect(HTTPDate.format(time_t(seconds)) == text)
    }

    @Test func nowIsTheCurrentSecond() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = try #require(formatter.date(from: HTTPDate.now()))
        #expect(abs(date.timeIntervalSinceNow) < 2)
    }
}
