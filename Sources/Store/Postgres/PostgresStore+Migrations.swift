import Foundation
import PostgresNIO

extension PostgresStore {
    /// The schema's migrations, numbered from 1 and append-only: never edit a
    /// shipped one, add a new one. Each is a list of statements, run in one
    /// transaction with the record that it ran.
    static let migrations: [(name: String, statements: [String])] = [
        (
            "Create the tables of the copy",
            [
                """
                CREATE TABLE records (
                    resource   text NOT NULL,
                    key        text NOT NULL,
                    data       jsonb NOT NULL,
                    updated_at timestamptz NOT NULL,
                    page       integer,
                    PRIMARY KEY (resource, key)
                )
                """,
                "CREATE INDEX records_by_update ON records (resource, updated_at)",
                """
                CREATE TABLE resources (
                    name              text PRIMARY KEY,
                    state             text NOT NULL DEFAULT 'idle'
                                      CHECK (state IN ('idle', 'syncing', 'retrying', 'waiting', 'offline', 'failed')),
                    last_success_at   timestamptz,
                    last_attempt_at   timestamptz,
                    last_error        text,
                    etag              text,
                    last_modified     text,
                    item_count        bigint NOT NULL DEFAULT 0,
                    last_error_kind   text,
                    last_error_status integer,
                    validators_scope  text,
                    since             timestamptz
                )
                """,
                """
                CREATE TABLE sync_runs (
                    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    resource     text NOT NULL,
                    trigger      text NOT NULL CHECK (trigger IN ('poll', 'refresh', 'startup', 'dependency')),
                    started_at   timestamptz NOT NULL,
                    finished_at  timestamptz NOT NULL,
                    outcome      text NOT NULL
                                 CHECK (outcome IN ('success', 'notModified', 'failed', 'gaveUp', 'rateLimited',
                                                    'offline', 'cancelled')),
                    attempts     integer NOT NULL,
                    pages        integer NOT NULL,
                    items        bigint NOT NULL,
                    bytes        bigint NOT NULL,
                    wire_bytes   bigint NOT NULL DEFAULT 0,
                    error        text,
                    error_kind   text,
                    error_status integer,
                    added        bigint NOT NULL DEFAULT 0,
                    changed      bigint NOT NULL DEFAULT 0,
                    removed      bigint NOT NULL DEFAULT 0,
                    since        timestamptz
                )
                """,
                "CREATE INDEX sync_runs_by_resource ON sync_runs (resource, id)",
                """
                CREATE TABLE pages (
                    resource      text NOT NULL,
                    number        integer NOT NULL,
                    request       text NOT NULL,
                    etag          text,
                    last_modified text,
                    next          text,
                    item_count    integer NOT NULL,
                    PRIMARY KEY (resource, number)
                )
                """,
                """
                CREATE TABLE oauth2_refresh_tokens (
                    auth          text PRIMARY KEY,
                    configured    text NOT NULL,
                    refresh_token text NOT NULL,
                    rotated_at    timestamptz NOT NULL
                )
                """,
                """
                CREATE TABLE changes (
                    seq      bigint PRIMARY KEY,
                    resource text NOT NULL,
                    key      text NOT NULL,
                    op       text NOT NULL CHECK (op IN ('insert', 'update', 'delete')),
                    sync_run bigint,
                    at       timestamptz NOT NULL
                )
                """,
                "CREATE INDEX changes_by_resource ON changes (resource, seq)",
                // The newest seq given: the one row whose lock orders the feed's writers.
                """
                CREATE TABLE feed_state (
                    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
                    last_seq bigint NOT NULL
                )
                """,
                "INSERT INTO feed_state (last_seq) VALUES (0)",
                """
                CREATE TABLE cursors (
                    resource     text NOT NULL,
                    scope        text NOT NULL,
                    request      text NOT NULL,
                    since        timestamptz,
                    walk         text,
                    walk_pages   integer,
                    walk_sent    timestamptz,
                    walk_largest timestamptz,
                    walk_run     bigint,
                    full_at      timestamptz,
                    updated_at   timestamptz NOT NULL,
                    PRIMARY KEY (resource, scope)
                )
                """,
                // Snapshots while their pages arrive: not written to the WAL (a crash empties
                // them, and the sync is tried again), invisible in `records` until applied.
                """
                CREATE UNLOGGED TABLE snapshots (
                    id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    resource text NOT NULL,
                    began_at timestamptz NOT NULL
                )
                """,
                // The JSON as text: it is parsed once, when the snapshot is applied.
                """
                CREATE UNLOGGED TABLE staging (
                    snapshot bigint NOT NULL,
                    key      text NOT NULL,
                    data     text NOT NULL,
                    page     integer,
                    PRIMARY KEY (snapshot, key)
                )
                """,
            ]
        ),
        (
            "Lease each resource to one agent of a fleet",
            [
                """
                CREATE TABLE agents (
                    id           text PRIMARY KEY,
                    started_at   timestamptz NOT NULL,
                    heartbeat_at timestamptz NOT NULL
                )
                """,
                // Which agent of the fleet made each run.
                "ALTER TABLE sync_runs ADD COLUMN agent text",
                """
                CREATE TABLE leases (
                    resource   text PRIMARY KEY,
                    owner      text,
                    token      bigint NOT NULL DEFAULT 0,
                    expires_at timestamptz NOT NULL DEFAULT '-infinity'
                )
                """,
            ]
        ),
        (
            "Let a running sync's row have no outcome yet",
            [
                // Rows of syncs cut off before (`cancelled`) stay as they are: true history.
                "ALTER TABLE sync_runs ALTER COLUMN finished_at DROP NOT NULL, ALTER COLUMN outcome DROP NOT NULL",
                // A running sync has neither; an ended one, both.
                """
                ALTER TABLE sync_runs ADD CONSTRAINT sync_runs_running_or_ended
                    CHECK ((outcome IS NULL) = (finished_at IS NULL))
                """,
                "CREATE INDEX sync_runs_running ON sync_runs (resource) WHERE outcome IS NULL",
            ]
        ),
        (
            // A token or URL kept instead of a time: the `since` columns stay times.
            "Keep opaque incremental state",
            [
                "ALTER TABLE cursors ADD COLUMN since_token text",
                "ALTER TABLE cursors ADD COLUMN walk_sent_token text",
                "ALTER TABLE cursors ADD COLUMN walk_largest_token text",
                "ALTER TABLE resources ADD COLUMN since_token text",
                "ALTER TABLE sync_runs ADD COLUMN since_token text",
            ]
        ),
        (
            // docs/schema.md#typed-tables: the tables made for resources that declare columns.
            "Keep typed tables",
            [
                """
                CREATE TABLE typed_tables (
                    resource       text PRIMARY KEY,
                    declaration    text NOT NULL,
                    built_at       timestamptz NOT NULL,
                    misfit_table   text,
                    misfit_column  text,
                    misfit_key     text,
                    misfit_pointer text
                )
                """,
                // A timestamp column's value, from a text the fill matched as an ISO 8601
                // date-time (docs/schema.md#typed-tables): UTC when it names no zone,
                // whatever the session's TimeZone; NULL, never an error (which would roll
                // the sync back), for a date that does not exist. A zone added to the text
                // costs half what a `SET "TimeZone"` of the function would.
                """
                CREATE FUNCTION typed_timestamp(written text) RETURNS timestamptz
                LANGUAGE plpgsql IMMUTABLE AS $$
                BEGIN
                    RETURN (CASE WHEN length(written) = 10 THEN written || 'T00:00:00Z'
                                 WHEN translate(substr(written, 12), '0123456789:.', '') = '' THEN written || 'Z'
                                 ELSE written END)::timestamptz;
                EXCEPTION WHEN OTHERS THEN
                    RETURN NULL;
                END
                $$
                """,
            ]
        ),
        (
            // docs/schema.md#cursors-where-incremental-resources-are: each kept value as
            // its kind and exact text; the time and token columns stay, for readers.
            "Keep values of every kind whole",
            [
                "ALTER TABLE cursors ADD COLUMN since_value text",
                "ALTER TABLE cursors ADD COLUMN walk_sent_value text",
                "ALTER TABLE cursors ADD COLUMN walk_largest_value text",
                "ALTER TABLE cursors ADD COLUMN walk_resume_value text",
            ]
        ),
    ]

    /// Creates the schema and brings its tables up to date, in one transaction
    /// under an advisory lock of the schema's name: of agents starting at once,
    /// one migrates and the others find the work done.
    ///
    /// - Throws: ``StoreError/Kind/open`` when the schema holds another
    ///   program's tables, or a newer agent's migrations.
    func migrate() async throws(StoreError) {
        let schema = place.schema
        let logger = logger
        let migrations = Self.migrations
        let problem = try await transaction { connection -> String? in
            try await connection.query(
                "SELECT pg_advisory_xact_lock(hashtextextended('sync-agent migrations ' || \(schema), 0))",
                logger: logger)
            let tables = try await connection.rows(
                "SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = \(schema)", logger
            ).compactMap { try $0.get("name", as: String.self) }
            if !tables.isEmpty, !tables.contains("migrations") {
                let shown = tables.sorted().prefix(3).joined(separator: ", ") + (tables.count > 3 ? ", …" : "")
                return "the schema \(schema) holds another program's tables (\(shown)): the agent leaves it as it is; "
                    + "choose another \"schema\""
            }
            try await connection.query("CREATE SCHEMA IF NOT EXISTS \(unescaped: schema)", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS \(unescaped: schema).migrations (
                    id         integer PRIMARY KEY,
                    name       text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """, logger: logger)
            let applied =
                try await connection.value(Int.self, "SELECT max(id) FROM \(unescaped: schema).migrations", logger) ?? 0
            if applied > migrations.count {
                return "the schema \(schema) was migrated by a newer agent (migration \(applied); this one knows "
                    + "\(migrations.count)): run the newer agent, or another schema"
            }
            // `search_path` names the schema from the start, but a schema made in
            // this transaction is searched only once it is set again.
            try await connection.query("SET LOCAL search_path TO \(unescaped: schema)", logger: logger)
            for (index, migration) in migrations.enumerated() where index + 1 > applied {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO migrations (id, name) VALUES (\(index + 1), \(migration.name))", logger: logger)
            }
            return nil
        }
        if let problem { throw StoreError(.open, problem) }
    }
}
