import Foundation
import TestServers
import Testing

@Suite struct PostgresClusterTests {
    @Test func aClusterAnswersQueriesAndComesBackAfterARestart() async throws {
        // A cluster of its own: restarting the shared one would cut off every other suite's connections.
        let cluster = try await PostgresCluster.start()
        defer { cluster.shutdown() }
        let database = try cluster.createDatabase()
        try cluster.psql("CREATE TABLE t (n int); INSERT INTO t VALUES (41), (1)", database: database)
        #expect(try cluster.psql("SELECT sum(n) FROM t", database: database) == "42\n")
        try await cluster.restart()
        #expect(try cluster.psql("SELECT sum(n) FROM t", database: database) == "42\n")
    }
}
