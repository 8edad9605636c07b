import GRDB

extension SQLiteStore {
    /// The schema's migrations, named and append-only: never edit a shipped one,
    /// add a new one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("Create records, resources and sync_runs") { db in
            try db.execute(
                sql: """
                    CREATE TABLE records (
                        resource   TEXT NOT NULL,
                        key        TEXT NOT NULL,
                        data       TEXT NOT NULL,
                        updated_at TEXT NOT NULL,
                        PRIMARY KEY (resource, key)
                    ) WITHOUT ROWID;

                    CREATE INDEX records_by_update ON records (resource, updated_at);

                    CREATE TABLE resources (
                        name              TEXT PRIMARY KEY NOT NULL,
                        state             TEXT NOT NULL DEFAULT 'idle'
                                          CHECK (state IN ('idle', 'syncing', 'retrying', 'offline', 'failed')),
                        last_success_at   TEXT,
                        last_attempt_at   TEXT,
                        last_error        TEXT,
                        etag              TEXT,
                        last_modified     TEXT,
                        item_count        INTEGER NOT NULL DEFAULT 0,
                        last_error_kind   TEXT,
                        last_error_status INTEGER,
                        validators_scope  TEXT
                    );

                    CREATE TABLE sync_runs (
                        id           INTEGER PRIMARY KEY,
                        resource     TEXT NOT NULL,
                        trigger      TEXT NOT NULL CHECK (trigger IN ('poll', 'refresh', 'startup', 'dependency')),
                        started_at   TEXT NOT NULL,
                        finished_at  TEXT NOT NULL,
                        outcome      TEXT NOT NULL
                                     CHECK (outcome IN ('success', 'notModified', 'failed', 'gaveUp', 'offline', 'cancelled')),
                        attempts     INTEGER NOT NULL,
                        pages        INTEGER NOT NULL,
                        items        INTEGER NOT NULL,
                        bytes        INTEGER NOT NULL,
                        error        TEXT,
                        error_kind   TEXT,
                        error_status INTEGER,
                        added        INTEGER NOT NULL DEFAULT 0,
                        changed      INTEGER NOT NULL DEFAULT 0,
                        removed      INTEGER NOT NULL DEFAULT 0
                    );

                    CREATE INDEX sync_runs_by_resource ON sync_runs (resource, id);
                    """
            )
        }
        migrator.registerMigration("Allow the rateLimited outcome") { db in
            // SQLite cannot change a CHECK constraint: the table is rebuilt.
            try db.execute(
                sql: """
                    CREATE TABLE sync_runs_new (
                        id           INTEGER PRIMARY KEY,
                        resource     TEXT NOT NULL,
                        trigger      TEXT NOT NULL CHECK (trigger IN ('poll', 'refresh', 'startup', 'dependency')),
                        started_at   TEXT NOT NULL,
                        finished_at  TEXT NOT NULL,
                        outcome      TEXT NOT NULL
                                     CHECK (outcome IN ('success', 'notModified', 'failed', 'gaveUp', 'rateLimited',
                                                        'offline', 'cancelled')),
                        attempts     INTEGER NOT NULL,
                        pages        INTEGER NOT NULL,
                        items        INTEGER NOT NULL,
                        bytes        INTEGER NOT NULL,
                        error        TEXT,
                        error_kind   TEXT,
                        error_status INTEGER,
                        added        INTEGER NOT NULL DEFAULT 0,
                        changed      INTEGER NOT NULL DEFAULT 0,
                        removed      INTEGER NOT NULL DEFAULT 0
                    );
                    INSERT INTO sync_runs_new SELECT * FROM sync_runs;
                    DROP TABLE sync_runs;
                    ALTER TABLE sync_runs_new RENAME TO sync_runs;
                    CREATE INDEX sync_runs_by_resource ON sync_runs (resource, id);
                    """)
        }
        migrator.registerMigration("Keep every page's validators") { db in
            try db.execute(
                sql: """
                    ALTER TABLE records ADD COLUMN page INTEGER;

                    CREATE TABLE pages (
                        resource      TEXT NOT NULL,
                        number        INTEGER NOT NULL,
                        request       TEXT NOT NULL,
                        etag          TEXT,
                        last_modified TEXT,
                        next          TEXT,
                        item_count    INTEGER NOT NULL,
                        PRIMARY KEY (resource, number)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("Count the bytes on the wire") { db in
            try db.execute(sql: "ALTER TABLE sync_runs ADD COLUMN wire_bytes INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("Keep rotated OAuth2 refresh tokens") { db in
            try db.execute(
                sql: """
                    CREATE TABLE oauth2_refresh_tokens (
                        auth          TEXT PRIMARY KEY,
                        configured    TEXT NOT NULL,
                        refresh_token TEXT NOT NULL,
                        rotated_at    TEXT NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("Keep a change feed") { db in
            // AUTOINCREMENT: a seq is never given twice, even after every row was pruned.
            try db.execute(
                sql: """
                    CREATE TABLE changes (
                        seq      INTEGER PRIMARY KEY AUTOINCREMENT,
                        resource TEXT NOT NULL,
                        key      TEXT NOT NULL,
                        op       TEXT NOT NULL CHECK (op IN ('insert', 'update', 'delete')),
                        sync_run INTEGER,
                        at       TEXT NOT NULL
                    );

                    CREATE INDEX changes_by_resource ON changes (resource, seq);
                    """)
        }
        migrator.registerMigration("Keep incremental cursors") { db in
            try db.execute(
                sql: """
                    CREATE TABLE cursors (
                        resource     TEXT NOT NULL,
                        scope        TEXT NOT NULL,
                        request      TEXT NOT NULL,
                        since        TEXT,
                        walk         TEXT,
                        walk_pages   INTEGER,
                        walk_sent    TEXT,
                        walk_largest TEXT,
                        walk_run     INTEGER,
                        full_at      TEXT,
                        updated_at   TEXT NOT NULL,
                        PRIMARY KEY (resource, scope)
                    ) WITHOUT ROWID;

                    ALTER TABLE resources ADD COLUMN since TEXT;
                    ALTER TABLE sync_runs ADD COLUMN since TEXT;
                    """)
        }
        migrator.registerMigration("Let a running sync's row have no outcome yet") { db in
            // SQLite cannot drop NOT NULL: the table is rebuilt, its rows and ids kept.
            // Rows of syncs cut off before (`cancelled`) stay as they are: true history.
            let columns = """
                id, resource, trigger, started_at, finished_at, outcome, attempts, pages, items, bytes, error,
                error_kind, error_status, added, changed, removed, wire_bytes, since
                """
            try db.execute(
                sql: """
                    CREATE TABLE sync_runs_new (
                        id           INTEGER PRIMARY KEY,
                        resource     TEXT NOT NULL,
                        trigger      TEXT NOT NULL CHECK (trigger IN ('poll', 'refresh', 'startup', 'dependency')),
                        started_at   TEXT NOT NULL,
                        finished_at  TEXT,
                        outcome      TEXT
                                     CHECK (outcome IN ('success', 'notModified', 'failed', 'gaveUp', 'rateLimited',
                                                        'offline', 'cancelled')),
                        attempts     INTEGER NOT NULL,
                        pages        INTEGER NOT NULL,
                        items        INTEGER NOT NULL,
                        bytes        INTEGER NOT NULL,
                        error        TEXT,
                        error_kind   TEXT,
                        error_status INTEGER,
                        added        INTEGER NOT NULL DEFAULT 0,
                        changed      INTEGER NOT NULL DEFAULT 0,
                        removed      INTEGER NOT NULL DEFAULT 0,
                        wire_bytes   INTEGER NOT NULL DEFAULT 0,
                        since        TEXT,
                        -- A running sync has neither; an ended one, both.
                        CHECK ((outcome IS NULL) = (finished_at IS NULL))
                    );
                    INSERT INTO sync_runs_new (\(columns)) SELECT \(columns) FROM sync_runs;
                    DROP TABLE sync_runs;
                    ALTER TABLE sync_runs_new RENAME TO sync_runs;
                    CREATE INDEX sync_runs_by_resource ON sync_runs (resource, id);
                    CREATE INDEX sync_runs_running ON sync_runs (resource) WHERE outcome IS NULL;
                    """)
        }
        migrator.registerMigration("Keep opaque incremental state") { db in
            // A token or URL kept instead of a time: the `since` columns stay times.
            try db.execute(
                sql: """
                    ALTER TABLE cursors ADD COLUMN since_token TEXT;
                    ALTER TABLE cursors ADD COLUMN walk_sent_token TEXT;
                    ALTER TABLE cursors ADD COLUMN walk_largest_token TEXT;
                    ALTER TABLE resources ADD COLUMN since_token TEXT;
                    ALTER TABLE sync_runs ADD COLUMN since_token TEXT;
                    """)
        }
        migrator.registerMigration("Keep typed tables") { db in
            // The tables the agent made for resources' columns, and what each was made from.
            try db.execute(
                sql: """
                    CREATE TABLE typed_tables (
                        resource       TEXT PRIMARY KEY NOT NULL,
                        declaration    TEXT NOT NULL,
                        built_at       TEXT NOT NULL,
                        misfit_table   TEXT,
                        misfit_column  TEXT,
                        misfit_key     TEXT,
                        misfit_pointer TEXT
                    ) WITHOUT ROWID
                    """)
        }
        migrator.registerMigration("Keep values of every kind whole") { db in
            // docs/schema.md#cursors-where-incremental-resources-are: each kept value as
            // its kind and exact text; the time and token columns stay, for readers.
            try db.execute(
                sql: """
                    ALTER TABLE cursors ADD COLUMN since_value TEXT;
                    ALTER TABLE cursors ADD COLUMN walk_sent_value TEXT;
                    ALTER TABLE cursors ADD COLUMN walk_largest_value TEXT;
                    ALTER TABLE cursors ADD COLUMN walk_resume_value TEXT;
                    """)
        }
        return migrator
    }
}
