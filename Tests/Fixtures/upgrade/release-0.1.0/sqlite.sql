PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
INSERT INTO grdb_migrations VALUES('Create records, resources and sync_runs');
INSERT INTO grdb_migrations VALUES('Allow the rateLimited outcome');
INSERT INTO grdb_migrations VALUES('Keep every page''s validators');
INSERT INTO grdb_migrations VALUES('Count the bytes on the wire');
INSERT INTO grdb_migrations VALUES('Keep rotated OAuth2 refresh tokens');
INSERT INTO grdb_migrations VALUES('Keep a change feed');
INSERT INTO grdb_migrations VALUES('Keep incremental cursors');
INSERT INTO grdb_migrations VALUES('Let a running sync''s row have no outcome yet');
INSERT INTO grdb_migrations VALUES('Keep opaque incremental state');
INSERT INTO grdb_migrations VALUES('Keep typed tables');
CREATE TABLE records (
    resource   TEXT NOT NULL,
    key        TEXT NOT NULL,
    data       TEXT NOT NULL,
    updated_at TEXT NOT NULL, page INTEGER,
    PRIMARY KEY (resource, key)
) WITHOUT ROWID;
INSERT INTO records VALUES('cursors','1','{"id":1,"name":"Item 1","email":"item1@example.com","revision":1,"score":7,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',1);
INSERT INTO records VALUES('cursors','10','{"id":10,"name":"Item 10","email":"item10@example.com","revision":1,"score":70,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',1);
INSERT INTO records VALUES('cursors','11','{"id":11,"name":"Item 11","email":"item11@example.com","revision":1,"score":77,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',2);
INSERT INTO records VALUES('cursors','12','{"id":12,"name":"Item 12","email":"item12@example.com","revision":1,"score":84,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',2);
INSERT INTO records VALUES('cursors','13','{"id":13,"name":"Item 13","email":"item13@example.com","revision":1,"score":91,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',2);
INSERT INTO records VALUES('cursors','14','{"id":14,"name":"Item 14","email":"item14@example.com","revision":1,"score":98,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',2);
INSERT INTO records VALUES('cursors','15','{"id":15,"name":"Item 15","email":"item15@example.com","revision":1,"score":5,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',2);
INSERT INTO records VALUES('cursors','16','{"id":16,"name":"Item 16","email":"item16@example.com","revision":1,"score":12,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',2);
INSERT INTO records VALUES('cursors','17','{"id":17,"name":"Item 17","email":"item17@example.com","revision":1,"score":19,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',2);
INSERT INTO records VALUES('cursors','18','{"id":18,"name":"Item 18","email":"item18@example.com","revision":1,"score":26,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',2);
INSERT INTO records VALUES('cursors','19','{"id":19,"name":"Item 19","email":"item19@example.com","revision":1,"score":33,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',2);
INSERT INTO records VALUES('cursors','2','{"id":2,"name":"Item 2","email":"item2@example.com","revision":1,"score":14,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',1);
INSERT INTO records VALUES('cursors','20','{"id":20,"name":"Item 20","email":"item20@example.com","revision":1,"score":40,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',2);
INSERT INTO records VALUES('cursors','21','{"id":21,"name":"Item 21","email":"item21@example.com","revision":1,"score":47,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',3);
INSERT INTO records VALUES('cursors','22','{"id":22,"name":"Item 22","email":"item22@example.com","revision":1,"score":54,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',3);
INSERT INTO records VALUES('cursors','23','{"id":23,"name":"Item 23","email":"item23@example.com","revision":1,"score":61,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',3);
INSERT INTO records VALUES('cursors','24','{"id":24,"name":"Item 24","email":"item24@example.com","revision":1,"score":68,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',3);
INSERT INTO records VALUES('cursors','25','{"id":25,"name":"Item 25","email":"item25@example.com","revision":1,"score":75,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',3);
INSERT INTO records VALUES('cursors','26','{"id":26,"name":"Item 26","email":"item26@example.com","revision":1,"score":82,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',3);
INSERT INTO records VALUES('cursors','27','{"id":27,"name":"Item 27","email":"item27@example.com","revision":1,"score":89,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',3);
INSERT INTO records VALUES('cursors','28','{"id":28,"name":"Item 28","email":"item28@example.com","revision":1,"score":96,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',3);
INSERT INTO records VALUES('cursors','29','{"id":29,"name":"Item 29","email":"item29@example.com","revision":1,"score":3,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',3);
INSERT INTO records VALUES('cursors','3','{"id":3,"name":"Item 3","email":"item3@example.com","revision":1,"score":21,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',1);
INSERT INTO records VALUES('cursors','30','{"id":30,"name":"Item 30","email":"item30@example.com","revision":1,"score":10,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',3);
INSERT INTO records VALUES('cursors','4','{"id":4,"name":"Item 4","email":"item4@example.com","revision":1,"score":28,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',1);
INSERT INTO records VALUES('cursors','5','{"id":5,"name":"Item 5","email":"item5@example.com","revision":1,"score":35,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',1);
INSERT INTO records VALUES('cursors','6','{"id":6,"name":"Item 6","email":"item6@example.com","revision":1,"score":42,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',1);
INSERT INTO records VALUES('cursors','7','{"id":7,"name":"Item 7","email":"item7@example.com","revision":1,"score":49,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',1);
INSERT INTO records VALUES('cursors','8','{"id":8,"name":"Item 8","email":"item8@example.com","revision":1,"score":56,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',1);
INSERT INTO records VALUES('cursors','9','{"id":9,"name":"Item 9","email":"item9@example.com","revision":1,"score":63,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.108Z',1);
INSERT INTO records VALUES('events','1','{"id":1,"name":"Item 1","email":"item1@example.com","revision":1,"score":7,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:01Z"}','2026-12-07T08:42:06.076Z',NULL);
INSERT INTO records VALUES('events','10','{"id":10,"name":"Item 10","email":"item10@example.com","revision":1,"score":70,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:10Z"}','2026-12-07T08:42:06.076Z',NULL);
INSERT INTO records VALUES('events','11','{"id":11,"name":"Item 11","email":"item11@example.com","revision":1,"score":77,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:11Z"}','2026-12-07T08:42:06.100Z',NULL);
INSERT INTO records VALUES('events','12','{"id":12,"name":"Item 12","email":"item12@example.com","revision":1,"score":84,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:12Z"}','2026-12-07T08:42:06.100Z',NULL);
INSERT INTO records VALUES('events','13','{"id":13,"name":"Item 13","email":"item13@example.com","revision":1,"score":91,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:13Z"}','2026-12-07T08:42:06.100Z',NULL);
INSERT INTO records VALUES('events','14','{"id":14,"name":"Item 14","email":"item14@example.com","revision":1,"score":98,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:14Z"}','2026-12-07T08:42:06.100Z',NULL);
INSERT INTO records VALUES('events','15','{"id":15,"name":"Item 15","email":"item15@example.com","revision":1,"score":5,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:15Z"}','2026-12-07T08:42:06.100Z',NULL);
INSERT INTO records VALUES('events','16','{"id":16,"name":"Item 16","email":"item16@example.com","revision":1,"score":12,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:16Z"}','2026-12-07T08:42:06.100Z',NULL);
INSERT INTO records VALUES('events','17','{"id":17,"name":"Item 17","email":"item17@example.com","revision":1,"score":19,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:17Z"}','2026-12-07T08:42:06.100Z',NULL);
INSERT INTO records VALUES('events','18','{"id":18,"name":"Item 18","email":"item18@example.com","revision":1,"score":26,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:18Z"}','2026-12-07T08:42:06.100Z',NULL);
INSERT INTO records VALUES('events','19','{"id":19,"name":"Item 19","email":"item19@example.com","revision":1,"score":33,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:19Z"}','2026-12-07T08:42:06.100Z',NULL);
INSERT INTO records VALUES('events','2','{"id":2,"name":"Item 2","email":"item2@example.com","revision":1,"score":14,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:02Z"}','2026-12-07T08:42:06.076Z',NULL);
INSERT INTO records VALUES('events','20','{"id":20,"name":"Item 20","email":"item20@example.com","revision":1,"score":40,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:20Z"}','2026-12-07T08:42:06.100Z',NULL);
INSERT INTO records VALUES('events','21','{"id":21,"name":"Item 21","email":"item21@example.com","revision":1,"score":47,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:21Z"}','2026-12-07T08:42:06.113Z',NULL);
INSERT INTO records VALUES('events','22','{"id":22,"name":"Item 22","email":"item22@example.com","revision":1,"score":54,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:22Z"}','2026-12-07T08:42:06.113Z',NULL);
INSERT INTO records VALUES('events','23','{"id":23,"name":"Item 23","email":"item23@example.com","revision":1,"score":61,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:23Z"}','2026-12-07T08:42:06.113Z',NULL);
INSERT INTO records VALUES('events','24','{"id":24,"name":"Item 24","email":"item24@example.com","revision":1,"score":68,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:24Z"}','2026-12-07T08:42:06.113Z',NULL);
INSERT INTO records VALUES('events','25','{"id":25,"name":"Item 25","email":"item25@example.com","revision":1,"score":75,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:25Z"}','2026-12-07T08:42:06.113Z',NULL);
INSERT INTO records VALUES('events','26','{"id":26,"name":"Item 26","email":"item26@example.com","revision":1,"score":82,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:26Z"}','2026-12-07T08:42:06.113Z',NULL);
INSERT INTO records VALUES('events','27','{"id":27,"name":"Item 27","email":"item27@example.com","revision":1,"score":89,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:27Z"}','2026-12-07T08:42:06.113Z',NULL);
INSERT INTO records VALUES('events','28','{"id":28,"name":"Item 28","email":"item28@example.com","revision":1,"score":96,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:28Z"}','2026-12-07T08:42:06.113Z',NULL);
INSERT INTO records VALUES('events','29','{"id":29,"name":"Item 29","email":"item29@example.com","revision":1,"score":3,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:29Z"}','2026-12-07T08:42:06.113Z',NULL);
INSERT INTO records VALUES('events','3','{"id":3,"name":"Item 3","email":"item3@example.com","revision":1,"score":21,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:03Z"}','2026-12-07T08:42:06.076Z',NULL);
INSERT INTO records VALUES('events','30','{"id":30,"name":"Item 30","email":"item30@example.com","revision":1,"score":10,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:30Z"}','2026-12-07T08:42:06.113Z',NULL);
INSERT INTO records VALUES('events','4','{"id":4,"name":"Item 4","email":"item4@example.com","revision":1,"score":28,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:04Z"}','2026-12-07T08:42:06.076Z',NULL);
INSERT INTO records VALUES('events','5','{"id":5,"name":"Item 5","email":"item5@example.com","revision":1,"score":35,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:05Z"}','2026-12-07T08:42:06.076Z',NULL);
INSERT INTO records VALUES('events','6','{"id":6,"name":"Item 6","email":"item6@example.com","revision":1,"score":42,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:06Z"}','2026-12-07T08:42:06.076Z',NULL);
INSERT INTO records VALUES('events','7','{"id":7,"name":"Item 7","email":"item7@example.com","revision":1,"score":49,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:07Z"}','2026-12-07T08:42:06.076Z',NULL);
INSERT INTO records VALUES('events','8','{"id":8,"name":"Item 8","email":"item8@example.com","revision":1,"score":56,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:08Z"}','2026-12-07T08:42:06.076Z',NULL);
INSERT INTO records VALUES('events','9','{"id":9,"name":"Item 9","email":"item9@example.com","revision":1,"score":63,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:09Z"}','2026-12-07T08:42:06.076Z',NULL);
INSERT INTO records VALUES('inventory','doc-0001','{"seq":"1-g1AAAAczFpMQ","id":"doc-0001","changes":[{"rev":"1-4580c018183134a88a431381810c0854"}],"doc":{"_id":"doc-0001","_rev":"1-4580c018183134a88a431381810c0854","id":1,"name":"Item 1","email":"item1@example.com","revision":1,"score":7,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.083Z',NULL);
INSERT INTO records VALUES('inventory','doc-0002','{"seq":"2-g1AAAAczJpMg","id":"doc-0002","changes":[{"rev":"1-6086471827ca6a8dd8a6ac7281746806"}],"doc":{"_id":"doc-0002","_rev":"1-6086471827ca6a8dd8a6ac7281746806","id":2,"name":"Item 2","email":"item2@example.com","revision":1,"score":14,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.083Z',NULL);
INSERT INTO records VALUES('inventory','doc-0003','{"seq":"3-g1AAAAczNpMw","id":"doc-0003","changes":[{"rev":"1-57178e18223abad22daba32281e87175"}],"doc":{"_id":"doc-0003","_rev":"1-57178e18223abad22daba32281e87175","id":3,"name":"Item 3","email":"item3@example.com","revision":1,"score":21,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.083Z',NULL);
INSERT INTO records VALUES('inventory','doc-0004','{"seq":"4-g1AAAAczRpNA","id":"doc-0004","changes":[{"rev":"1-2bc13d1809acc82ff28cca9081d31cb2"}],"doc":{"_id":"doc-0004","_rev":"1-2bc13d1809acc82ff28cca9081d31cb2","id":4,"name":"Item 4","email":"item4@example.com","revision":1,"score":28,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.083Z',NULL);
INSERT INTO records VALUES('inventory','doc-0005','{"seq":"5-g1AAAAczVpNQ","id":"doc-0005","changes":[{"rev":"1-232c241804d6191441916d408142c232"}],"doc":{"_id":"doc-0005","_rev":"1-232c241804d6191441916d408142c232","id":5,"name":"Item 5","email":"item5@example.com","revision":1,"score":35,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.083Z',NULL);
INSERT INTO records VALUES('inventory','doc-0006','{"seq":"6-g1AAAAczZpNg","id":"doc-0006","changes":[{"rev":"1-3dc50b18141320399302314181b05cd3"}],"doc":{"_id":"doc-0006","_rev":"1-3dc50b18141320399302314181b05cd3","id":6,"name":"Item 6","email":"item6@example.com","revision":1,"score":42,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.083Z',NULL);
INSERT INTO records VALUES('inventory','doc-0007','{"seq":"7-g1AAAAczdpNw","id":"doc-0007","changes":[{"rev":"1-352ff2180f3c711ee117c3f0812ff253"}],"doc":{"_id":"doc-0007","_rev":"1-352ff2180f3c711ee117c3f0812ff253","id":7,"name":"Item 7","email":"item7@example.com","revision":1,"score":49,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.083Z',NULL);
INSERT INTO records VALUES('inventory','doc-0008','{"seq":"8-g1AAAAczhpOA","id":"doc-0008","changes":[{"rev":"1-94713118452e32cbbc23e25481131749"}],"doc":{"_id":"doc-0008","_rev":"1-94713118452e32cbbc23e25481131749","id":8,"name":"Item 8","email":"item8@example.com","revision":1,"score":56,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.083Z',NULL);
INSERT INTO records VALUES('inventory','doc-0009','{"seq":"9-g1AAAAczlpOQ","id":"doc-0009","changes":[{"rev":"1-8bdc7818405826d00d6285048187cdb8"}],"doc":{"_id":"doc-0009","_rev":"1-8bdc7818405826d00d6285048187cdb8","id":9,"name":"Item 9","email":"item9@example.com","revision":1,"score":63,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.083Z',NULL);
INSERT INTO records VALUES('inventory','doc-0010','{"seq":"10-g1AAAAczEwaTEw","id":"doc-0010","changes":[{"rev":"1-0d63d2f0f8744c0000c4478f0f2d36d0"}],"doc":{"_id":"doc-0010","_rev":"1-0d63d2f0f8744c0000c4478f0f2d36d0","id":10,"name":"Item 10","email":"item10@example.com","revision":1,"score":70,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.083Z',NULL);
INSERT INTO records VALUES('inventory','doc-0011','{"seq":"11-g1AAAAczExaTEx","id":"doc-0011","changes":[{"rev":"1-16d28bf0fe03fbbbbbbf30ef0fb82d61"}],"doc":{"_id":"doc-0011","_rev":"1-16d28bf0fe03fbbbbbbf30ef0fb82d61","id":11,"name":"Item 11","email":"item11@example.com","revision":1,"score":77,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.106Z',NULL);
INSERT INTO records VALUES('inventory','doc-0012','{"seq":"12-g1AAAAczEyaTEy","id":"doc-0012","changes":[{"rev":"1-1f67c0f102dada6aa6adad201f0c76f1"}],"doc":{"_id":"doc-0012","_rev":"1-1f67c0f102dada6aa6adad201f0c76f1","id":12,"name":"Item 12","email":"item12@example.com","revision":1,"score":84,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.106Z',NULL);
INSERT INTO records VALUES('inventory','doc-0013','{"seq":"13-g1AAAAczEzaTEz","id":"doc-0013","changes":[{"rev":"1-272359f106f8bf4554fb8f601f953272"}],"doc":{"_id":"doc-0013","_rev":"1-272359f106f8bf4554fb8f601f953272","id":13,"name":"Item 13","email":"item13@example.com","revision":1,"score":91,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.106Z',NULL);
INSERT INTO records VALUES('inventory','doc-0014','{"seq":"14-g1AAAAczE0aTE0","id":"doc-0014","changes":[{"rev":"1-eb7c36f0e576024cc420675e0f63c7be"}],"doc":{"_id":"doc-0014","_rev":"1-eb7c36f0e576024cc420675e0f63c7be","id":14,"name":"Item 14","email":"item14@example.com","revision":1,"score":98,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.106Z',NULL);
INSERT INTO records VALUES('inventory','doc-0015','{"seq":"15-g1AAAAczE1aTE1","id":"doc-0015","changes":[{"rev":"1-f4116ff0ea4ce7c77c7ec4ae0ff6114f"}],"doc":{"_id":"doc-0015","_rev":"1-f4116ff0ea4ce7c77c7ec4ae0ff6114f","id":15,"name":"Item 15","email":"item15@example.com","revision":1,"score":5,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.106Z',NULL);
INSERT INTO records VALUES('inventory','doc-0016','{"seq":"16-g1AAAAczE2aTE2","id":"doc-0016","changes":[{"rev":"1-fbcd04f0ee6ac5d66d5ca6ee0f40dcbf"}],"doc":{"_id":"doc-0016","_rev":"1-fbcd04f0ee6ac5d66d5ca6ee0f40dcbf","id":16,"name":"Item 16","email":"item16@example.com","revision":1,"score":12,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.106Z',NULL);
INSERT INTO records VALUES('inventory','doc-0017','{"seq":"17-g1AAAAczE3aTE3","id":"doc-0017","changes":[{"rev":"1-04cebdf0f39da3b11b3ad93f0fdbec40"}],"doc":{"_id":"doc-0017","_rev":"1-04cebdf0f39da3b11b3ad93f0fdbec40","id":17,"name":"Item 17","email":"item17@example.com","revision":1,"score":19,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.106Z',NULL);
INSERT INTO records VALUES('inventory','doc-0018','{"seq":"18-g1AAAAczE4aTE4","id":"doc-0018","changes":[{"rev":"1-c8bb1af0d1beee5885eeeb1d0fa1bb8c"}],"doc":{"_id":"doc-0018","_rev":"1-c8bb1af0d1beee5885eeeb1d0fa1bb8c","id":18,"name":"Item 18","email":"item18@example.com","revision":1,"score":26,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.106Z',NULL);
INSERT INTO records VALUES('inventory','doc-0019','{"seq":"19-g1AAAAczE5aTE5","id":"doc-0019","changes":[{"rev":"1-d076b3f0d5dcd333333dcd5d0f3b670d"}],"doc":{"_id":"doc-0019","_rev":"1-d076b3f0d5dcd333333dcd5d0f3b670d","id":19,"name":"Item 19","email":"item19@example.com","revision":1,"score":33,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.106Z',NULL);
INSERT INTO records VALUES('inventory','doc-0020','{"seq":"20-g1AAAAczIwaTIw","id":"doc-0020","changes":[{"rev":"1-1841950b358ee153351ee853b0591481"}],"doc":{"_id":"doc-0020","_rev":"1-1841950b358ee153351ee853b0591481","id":20,"name":"Item 20","email":"item20@example.com","revision":1,"score":40,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.106Z',NULL);
INSERT INTO records VALUES('inventory','doc-0021','{"seq":"21-g1AAAAczIxaTIx","id":"doc-0021","changes":[{"rev":"1-0ed2fc0b2fff67f88f76fff2b0cf2de0"}],"doc":{"_id":"doc-0021","_rev":"1-0ed2fc0b2fff67f88f76fff2b0cf2de0","id":21,"name":"Item 21","email":"item21@example.com","revision":1,"score":47,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.118Z',NULL);
INSERT INTO records VALUES('inventory','doc-0022','{"seq":"22-g1AAAAczIyaTIy","id":"doc-0022","changes":[{"rev":"1-29d8830b3f989dddddd989f3b0388d92"}],"doc":{"_id":"doc-0022","_rev":"1-29d8830b3f989dddddd989f3b0388d92","id":22,"name":"Item 22","email":"item22@example.com","revision":1,"score":54,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.118Z',NULL);
INSERT INTO records VALUES('inventory','doc-0023','{"seq":"23-g1AAAAczIzaTIz","id":"doc-0023","changes":[{"rev":"1-21434a0b3ac1b862268b1ca3b0a43412"}],"doc":{"_id":"doc-0023","_rev":"1-21434a0b3ac1b862268b1ca3b0a43412","id":23,"name":"Item 23","email":"item23@example.com","revision":1,"score":61,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.118Z',NULL);
INSERT INTO records VALUES('inventory','doc-0024','{"seq":"24-g1AAAAczI0aTI0","id":"doc-0024","changes":[{"rev":"1-f5ecf90b2233c5bffb5c3322b09fce5f"}],"doc":{"_id":"doc-0024","_rev":"1-f5ecf90b2233c5bffb5c3322b09fce5f","id":24,"name":"Item 24","email":"item24@example.com","revision":1,"score":68,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.118Z',NULL);
INSERT INTO records VALUES('inventory','doc-0025','{"seq":"25-g1AAAAczI1aTI1","id":"doc-0025","changes":[{"rev":"1-ec7e600b1ca44c6446c44ac1b006e7ce"}],"doc":{"_id":"doc-0025","_rev":"1-ec7e600b1ca44c6446c44ac1b006e7ce","id":25,"name":"Item 25","email":"item25@example.com","revision":1,"score":75,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.118Z',NULL);
INSERT INTO records VALUES('inventory','doc-0026','{"seq":"26-g1AAAAczI2aTI2","id":"doc-0026","changes":[{"rev":"1-063dc70b2b288949949882b2b07cd360"}],"doc":{"_id":"doc-0026","_rev":"1-063dc70b2b288949949882b2b07cd360","id":26,"name":"Item 26","email":"item26@example.com","revision":1,"score":82,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.118Z',NULL);
INSERT INTO records VALUES('inventory','doc-0027','{"seq":"27-g1AAAAczI3aTI3","id":"doc-0027","changes":[{"rev":"1-fe822e0b270aa46ee64aa072b0e228ef"}],"doc":{"_id":"doc-0027","_rev":"1-fe822e0b270aa46ee64aa072b0e228ef","id":27,"name":"Item 27","email":"item27@example.com","revision":1,"score":89,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.118Z',NULL);
INSERT INTO records VALUES('inventory','doc-0028','{"seq":"28-g1AAAAczI4aTI4","id":"doc-0028","changes":[{"rev":"1-5cea6d0b5c44755bb55744c5b0d6aec5"}],"doc":{"_id":"doc-0028","_rev":"1-5cea6d0b5c44755bb55744c5b0d6aec5","id":28,"name":"Item 28","email":"item28@example.com","revision":1,"score":96,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.118Z',NULL);
INSERT INTO records VALUES('inventory','doc-0029','{"seq":"29-g1AAAAczI5aTI5","id":"doc-0029","changes":[{"rev":"1-552eb40b58265a2002a56285b04be255"}],"doc":{"_id":"doc-0029","_rev":"1-552eb40b58265a2002a56285b04be255","id":29,"name":"Item 29","email":"item29@example.com","revision":1,"score":3,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.118Z',NULL);
INSERT INTO records VALUES('inventory','doc-0030','{"seq":"30-g1AAAAczMwaTMw","id":"doc-0030","changes":[{"rev":"1-6354b302428d44deed44d824203b4536"}],"doc":{"_id":"doc-0030","_rev":"1-6354b302428d44deed44d824203b4536","id":30,"name":"Item 30","email":"item30@example.com","revision":1,"score":10,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}}','2026-12-07T08:42:06.118Z',NULL);
INSERT INTO records VALUES('journal','1','{"id":1,"name":"Item 1","email":"item1@example.com","revision":2,"score":7,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-12T13:46:41Z"}','2026-12-07T08:42:06.274Z',NULL);
INSERT INTO records VALUES('journal','10','{"id":10,"name":"Item 10","email":"item10@example.com","revision":1,"score":70,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:10Z"}','2026-12-07T08:42:06.049Z',NULL);
INSERT INTO records VALUES('journal','11','{"id":11,"name":"Item 11","email":"item11@example.com","revision":1,"score":77,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:11Z"}','2026-12-07T08:42:06.052Z',NULL);
INSERT INTO records VALUES('journal','12','{"id":12,"name":"Item 12","email":"item12@example.com","revision":1,"score":84,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:12Z"}','2026-12-07T08:42:06.052Z',NULL);
INSERT INTO records VALUES('journal','13','{"id":13,"name":"Item 13","email":"item13@example.com","revision":1,"score":91,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:13Z"}','2026-12-07T08:42:06.052Z',NULL);
INSERT INTO records VALUES('journal','14','{"id":14,"name":"Item 14","email":"item14@example.com","revision":1,"score":98,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:14Z"}','2026-12-07T08:42:06.052Z',NULL);
INSERT INTO records VALUES('journal','15','{"id":15,"name":"Item 15","email":"item15@example.com","revision":1,"score":5,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:15Z"}','2026-12-07T08:42:06.052Z',NULL);
INSERT INTO records VALUES('journal','16','{"id":16,"name":"Item 16","email":"item16@example.com","revision":1,"score":12,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:16Z"}','2026-12-07T08:42:06.099Z',NULL);
INSERT INTO records VALUES('journal','17','{"id":17,"name":"Item 17","email":"item17@example.com","revision":1,"score":19,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:17Z"}','2026-12-07T08:42:06.099Z',NULL);
INSERT INTO records VALUES('journal','18','{"id":18,"name":"Item 18","email":"item18@example.com","revision":1,"score":26,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:18Z"}','2026-12-07T08:42:06.099Z',NULL);
INSERT INTO records VALUES('journal','19','{"id":19,"name":"Item 19","email":"item19@example.com","revision":1,"score":33,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:19Z"}','2026-12-07T08:42:06.099Z',NULL);
INSERT INTO records VALUES('journal','2','{"id":2,"name":"Item 2","email":"item2@example.com","revision":2,"score":14,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-12T13:46:42Z"}','2026-12-07T08:42:06.274Z',NULL);
INSERT INTO records VALUES('journal','20','{"id":20,"name":"Item 20","email":"item20@example.com","revision":1,"score":40,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:20Z"}','2026-12-07T08:42:06.099Z',NULL);
INSERT INTO records VALUES('journal','21','{"id":21,"name":"Item 21","email":"item21@example.com","revision":1,"score":47,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:21Z"}','2026-12-07T08:42:06.114Z',NULL);
INSERT INTO records VALUES('journal','22','{"id":22,"name":"Item 22","email":"item22@example.com","revision":1,"score":54,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:22Z"}','2026-12-07T08:42:06.114Z',NULL);
INSERT INTO records VALUES('journal','23','{"id":23,"name":"Item 23","email":"item23@example.com","revision":1,"score":61,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:23Z"}','2026-12-07T08:42:06.114Z',NULL);
INSERT INTO records VALUES('journal','24','{"id":24,"name":"Item 24","email":"item24@example.com","revision":1,"score":68,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:24Z"}','2026-12-07T08:42:06.114Z',NULL);
INSERT INTO records VALUES('journal','25','{"id":25,"name":"Item 25","email":"item25@example.com","revision":1,"score":75,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:25Z"}','2026-12-07T08:42:06.114Z',NULL);
INSERT INTO records VALUES('journal','26','{"id":26,"name":"Item 26","email":"item26@example.com","revision":1,"score":82,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:26Z"}','2026-12-07T08:42:06.126Z',NULL);
INSERT INTO records VALUES('journal','27','{"id":27,"name":"Item 27","email":"item27@example.com","revision":1,"score":89,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:27Z"}','2026-12-07T08:42:06.126Z',NULL);
INSERT INTO records VALUES('journal','28','{"id":28,"name":"Item 28","email":"item28@example.com","revision":1,"score":96,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:28Z"}','2026-12-07T08:42:06.126Z',NULL);
INSERT INTO records VALUES('journal','29','{"id":29,"name":"Item 29","email":"item29@example.com","revision":1,"score":3,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:29Z"}','2026-12-07T08:42:06.126Z',NULL);
INSERT INTO records VALUES('journal','3','{"id":3,"name":"Item 3","email":"item3@example.com","revision":2,"score":21,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-12T13:46:43Z"}','2026-12-07T08:42:06.274Z',NULL);
INSERT INTO records VALUES('journal','30','{"id":30,"name":"Item 30","email":"item30@example.com","revision":1,"score":10,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:30Z"}','2026-12-07T08:42:06.126Z',NULL);
INSERT INTO records VALUES('journal','31','{"id":31,"name":"Item 31","email":"item31@example.com","revision":1,"score":17,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:31Z"}','2026-12-07T08:42:06.131Z',NULL);
INSERT INTO records VALUES('journal','32','{"id":32,"name":"Item 32","email":"item32@example.com","revision":1,"score":24,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:32Z"}','2026-12-07T08:42:06.131Z',NULL);
INSERT INTO records VALUES('journal','33','{"id":33,"name":"Item 33","email":"item33@example.com","revision":1,"score":31,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:33Z"}','2026-12-07T08:42:06.131Z',NULL);
INSERT INTO records VALUES('journal','34','{"id":34,"name":"Item 34","email":"item34@example.com","revision":1,"score":38,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:34Z"}','2026-12-07T08:42:06.131Z',NULL);
INSERT INTO records VALUES('journal','35','{"id":35,"name":"Item 35","email":"item35@example.com","revision":1,"score":45,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:35Z"}','2026-12-07T08:42:06.131Z',NULL);
INSERT INTO records VALUES('journal','36','{"id":36,"name":"Item 36","email":"item36@example.com","revision":1,"score":52,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:36Z"}','2026-12-07T08:42:06.134Z',NULL);
INSERT INTO records VALUES('journal','37','{"id":37,"name":"Item 37","email":"item37@example.com","revision":1,"score":59,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:37Z"}','2026-12-07T08:42:06.134Z',NULL);
INSERT INTO records VALUES('journal','38','{"id":38,"name":"Item 38","email":"item38@example.com","revision":1,"score":66,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:38Z"}','2026-12-07T08:42:06.134Z',NULL);
INSERT INTO records VALUES('journal','39','{"id":39,"name":"Item 39","email":"item39@example.com","revision":1,"score":73,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:39Z"}','2026-12-07T08:42:06.134Z',NULL);
INSERT INTO records VALUES('journal','4','{"id":4,"name":"Item 4","email":"item4@example.com","revision":2,"score":28,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-12T13:46:44Z"}','2026-12-07T08:42:06.274Z',NULL);
INSERT INTO records VALUES('journal','40','{"id":40,"name":"Item 40","email":"item40@example.com","revision":1,"score":80,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:40Z"}','2026-12-07T08:42:06.134Z',NULL);
INSERT INTO records VALUES('journal','5','{"id":5,"name":"Item 5","email":"item5@example.com","revision":2,"score":35,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-12T13:46:45Z"}','2026-12-07T08:42:06.279Z',NULL);
INSERT INTO records VALUES('journal','6','{"id":6,"name":"Item 6","email":"item6@example.com","revision":2,"score":42,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-12T13:46:46Z"}','2026-12-07T08:42:06.279Z',NULL);
INSERT INTO records VALUES('journal','7','{"id":7,"name":"Item 7","email":"item7@example.com","revision":2,"score":49,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-12T13:46:47Z"}','2026-12-07T08:42:06.279Z',NULL);
INSERT INTO records VALUES('journal','8','{"id":8,"name":"Item 8","email":"item8@example.com","revision":2,"score":56,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-12T13:46:48Z"}','2026-12-07T08:42:06.279Z',NULL);
INSERT INTO records VALUES('journal','9','{"id":9,"name":"Item 9","email":"item9@example.com","revision":2,"score":63,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-12T13:46:49Z"}','2026-12-07T08:42:06.279Z',NULL);
INSERT INTO records VALUES('links','1','{"id":1,"name":"Item 1","email":"item1@example.com","revision":1,"score":7,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',1);
INSERT INTO records VALUES('links','10','{"id":10,"name":"Item 10","email":"item10@example.com","revision":1,"score":70,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',1);
INSERT INTO records VALUES('links','11','{"id":11,"name":"Item 11","email":"item11@example.com","revision":1,"score":77,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',2);
INSERT INTO records VALUES('links','12','{"id":12,"name":"Item 12","email":"item12@example.com","revision":1,"score":84,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',2);
INSERT INTO records VALUES('links','13','{"id":13,"name":"Item 13","email":"item13@example.com","revision":1,"score":91,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',2);
INSERT INTO records VALUES('links','14','{"id":14,"name":"Item 14","email":"item14@example.com","revision":1,"score":98,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',2);
INSERT INTO records VALUES('links','15','{"id":15,"name":"Item 15","email":"item15@example.com","revision":1,"score":5,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',2);
INSERT INTO records VALUES('links','16','{"id":16,"name":"Item 16","email":"item16@example.com","revision":1,"score":12,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',2);
INSERT INTO records VALUES('links','17','{"id":17,"name":"Item 17","email":"item17@example.com","revision":1,"score":19,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',2);
INSERT INTO records VALUES('links','18','{"id":18,"name":"Item 18","email":"item18@example.com","revision":1,"score":26,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',2);
INSERT INTO records VALUES('links','19','{"id":19,"name":"Item 19","email":"item19@example.com","revision":1,"score":33,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',2);
INSERT INTO records VALUES('links','2','{"id":2,"name":"Item 2","email":"item2@example.com","revision":1,"score":14,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',1);
INSERT INTO records VALUES('links','20','{"id":20,"name":"Item 20","email":"item20@example.com","revision":1,"score":40,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',2);
INSERT INTO records VALUES('links','21','{"id":21,"name":"Item 21","email":"item21@example.com","revision":1,"score":47,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',3);
INSERT INTO records VALUES('links','22','{"id":22,"name":"Item 22","email":"item22@example.com","revision":1,"score":54,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',3);
INSERT INTO records VALUES('links','23','{"id":23,"name":"Item 23","email":"item23@example.com","revision":1,"score":61,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',3);
INSERT INTO records VALUES('links','24','{"id":24,"name":"Item 24","email":"item24@example.com","revision":1,"score":68,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',3);
INSERT INTO records VALUES('links','25','{"id":25,"name":"Item 25","email":"item25@example.com","revision":1,"score":75,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',3);
INSERT INTO records VALUES('links','26','{"id":26,"name":"Item 26","email":"item26@example.com","revision":1,"score":82,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',3);
INSERT INTO records VALUES('links','27','{"id":27,"name":"Item 27","email":"item27@example.com","revision":1,"score":89,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',3);
INSERT INTO records VALUES('links','28','{"id":28,"name":"Item 28","email":"item28@example.com","revision":1,"score":96,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',3);
INSERT INTO records VALUES('links','29','{"id":29,"name":"Item 29","email":"item29@example.com","revision":1,"score":3,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',3);
INSERT INTO records VALUES('links','3','{"id":3,"name":"Item 3","email":"item3@example.com","revision":1,"score":21,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',1);
INSERT INTO records VALUES('links','30','{"id":30,"name":"Item 30","email":"item30@example.com","revision":1,"score":10,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',3);
INSERT INTO records VALUES('links','4','{"id":4,"name":"Item 4","email":"item4@example.com","revision":1,"score":28,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',1);
INSERT INTO records VALUES('links','5','{"id":5,"name":"Item 5","email":"item5@example.com","revision":1,"score":35,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',1);
INSERT INTO records VALUES('links','6','{"id":6,"name":"Item 6","email":"item6@example.com","revision":1,"score":42,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',1);
INSERT INTO records VALUES('links','7','{"id":7,"name":"Item 7","email":"item7@example.com","revision":1,"score":49,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',1);
INSERT INTO records VALUES('links','8','{"id":8,"name":"Item 8","email":"item8@example.com","revision":1,"score":56,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',1);
INSERT INTO records VALUES('links','9','{"id":9,"name":"Item 9","email":"item9@example.com","revision":1,"score":63,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.102Z',1);
INSERT INTO records VALUES('me','1','{"id":1,"name":"Item 1","email":"item1@example.com","revision":1,"score":7,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.037Z',1);
INSERT INTO records VALUES('mine','1','{"id":1,"name":"Item 1","email":"item1@example.com","revision":1,"score":7,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:01Z"}','2026-12-07T08:42:06.142Z',NULL);
INSERT INTO records VALUES('mine','10','{"id":10,"name":"Item 10","email":"item10@example.com","revision":1,"score":70,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:10Z"}','2026-12-07T08:42:06.142Z',NULL);
INSERT INTO records VALUES('mine','11','{"id":11,"name":"Item 11","email":"item11@example.com","revision":1,"score":77,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:11Z"}','2026-12-07T08:42:06.146Z',NULL);
INSERT INTO records VALUES('mine','12','{"id":12,"name":"Item 12","email":"item12@example.com","revision":1,"score":84,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:12Z"}','2026-12-07T08:42:06.146Z',NULL);
INSERT INTO records VALUES('mine','13','{"id":13,"name":"Item 13","email":"item13@example.com","revision":1,"score":91,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:13Z"}','2026-12-07T08:42:06.146Z',NULL);
INSERT INTO records VALUES('mine','14','{"id":14,"name":"Item 14","email":"item14@example.com","revision":1,"score":98,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:14Z"}','2026-12-07T08:42:06.146Z',NULL);
INSERT INTO records VALUES('mine','15','{"id":15,"name":"Item 15","email":"item15@example.com","revision":1,"score":5,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:15Z"}','2026-12-07T08:42:06.146Z',NULL);
INSERT INTO records VALUES('mine','16','{"id":16,"name":"Item 16","email":"item16@example.com","revision":1,"score":12,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:16Z"}','2026-12-07T08:42:06.146Z',NULL);
INSERT INTO records VALUES('mine','17','{"id":17,"name":"Item 17","email":"item17@example.com","revision":1,"score":19,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:17Z"}','2026-12-07T08:42:06.146Z',NULL);
INSERT INTO records VALUES('mine','18','{"id":18,"name":"Item 18","email":"item18@example.com","revision":1,"score":26,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:18Z"}','2026-12-07T08:42:06.146Z',NULL);
INSERT INTO records VALUES('mine','19','{"id":19,"name":"Item 19","email":"item19@example.com","revision":1,"score":33,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:19Z"}','2026-12-07T08:42:06.146Z',NULL);
INSERT INTO records VALUES('mine','2','{"id":2,"name":"Item 2","email":"item2@example.com","revision":1,"score":14,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:02Z"}','2026-12-07T08:42:06.142Z',NULL);
INSERT INTO records VALUES('mine','20','{"id":20,"name":"Item 20","email":"item20@example.com","revision":1,"score":40,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:20Z"}','2026-12-07T08:42:06.146Z',NULL);
INSERT INTO records VALUES('mine','3','{"id":3,"name":"Item 3","email":"item3@example.com","revision":1,"score":21,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:03Z"}','2026-12-07T08:42:06.142Z',NULL);
INSERT INTO records VALUES('mine','4','{"id":4,"name":"Item 4","email":"item4@example.com","revision":1,"score":28,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:04Z"}','2026-12-07T08:42:06.142Z',NULL);
INSERT INTO records VALUES('mine','5','{"id":5,"name":"Item 5","email":"item5@example.com","revision":1,"score":35,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:05Z"}','2026-12-07T08:42:06.142Z',NULL);
INSERT INTO records VALUES('mine','6','{"id":6,"name":"Item 6","email":"item6@example.com","revision":1,"score":42,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:06Z"}','2026-12-07T08:42:06.142Z',NULL);
INSERT INTO records VALUES('mine','7','{"id":7,"name":"Item 7","email":"item7@example.com","revision":1,"score":49,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:07Z"}','2026-12-07T08:42:06.142Z',NULL);
INSERT INTO records VALUES('mine','8','{"id":8,"name":"Item 8","email":"item8@example.com","revision":1,"score":56,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:08Z"}','2026-12-07T08:42:06.142Z',NULL);
INSERT INTO records VALUES('mine','9','{"id":9,"name":"Item 9","email":"item9@example.com","revision":1,"score":63,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog.","status":"open","updated_at":"2026-01-01T00:00:09Z"}','2026-12-07T08:42:06.142Z',NULL);
INSERT INTO records VALUES('pages','1','{"id":1,"name":"Item 1","email":"item1@example.com","revision":1,"score":7,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','10','{"id":10,"name":"Item 10","email":"item10@example.com","revision":1,"score":70,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','11','{"id":11,"name":"Item 11","email":"item11@example.com","revision":1,"score":77,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','12','{"id":12,"name":"Item 12","email":"item12@example.com","revision":1,"score":84,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','13','{"id":13,"name":"Item 13","email":"item13@example.com","revision":1,"score":91,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','14','{"id":14,"name":"Item 14","email":"item14@example.com","revision":1,"score":98,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','15','{"id":15,"name":"Item 15","email":"item15@example.com","revision":1,"score":5,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','16','{"id":16,"name":"Item 16","email":"item16@example.com","revision":1,"score":12,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','17','{"id":17,"name":"Item 17","email":"item17@example.com","revision":1,"score":19,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','18','{"id":18,"name":"Item 18","email":"item18@example.com","revision":1,"score":26,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','19','{"id":19,"name":"Item 19","email":"item19@example.com","revision":1,"score":33,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','2','{"id":2,"name":"Item 2","email":"item2@example.com","revision":1,"score":14,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','20','{"id":20,"name":"Item 20","email":"item20@example.com","revision":1,"score":40,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','21','{"id":21,"name":"Item 21","email":"item21@example.com","revision":1,"score":47,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','22','{"id":22,"name":"Item 22","email":"item22@example.com","revision":1,"score":54,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','23','{"id":23,"name":"Item 23","email":"item23@example.com","revision":1,"score":61,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','24','{"id":24,"name":"Item 24","email":"item24@example.com","revision":1,"score":68,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','25','{"id":25,"name":"Item 25","email":"item25@example.com","revision":1,"score":75,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','26','{"id":26,"name":"Item 26","email":"item26@example.com","revision":1,"score":82,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','27','{"id":27,"name":"Item 27","email":"item27@example.com","revision":1,"score":89,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','28','{"id":28,"name":"Item 28","email":"item28@example.com","revision":1,"score":96,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','29','{"id":29,"name":"Item 29","email":"item29@example.com","revision":1,"score":3,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','3','{"id":3,"name":"Item 3","email":"item3@example.com","revision":1,"score":21,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','30','{"id":30,"name":"Item 30","email":"item30@example.com","revision":1,"score":10,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','31','{"id":31,"name":"Item 31","email":"item31@example.com","revision":1,"score":17,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','32','{"id":32,"name":"Item 32","email":"item32@example.com","revision":1,"score":24,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','33','{"id":33,"name":"Item 33","email":"item33@example.com","revision":1,"score":31,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','34','{"id":34,"name":"Item 34","email":"item34@example.com","revision":1,"score":38,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','35','{"id":35,"name":"Item 35","email":"item35@example.com","revision":1,"score":45,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','36','{"id":36,"name":"Item 36","email":"item36@example.com","revision":1,"score":52,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','37','{"id":37,"name":"Item 37","email":"item37@example.com","revision":1,"score":59,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','38','{"id":38,"name":"Item 38","email":"item38@example.com","revision":1,"score":66,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','39','{"id":39,"name":"Item 39","email":"item39@example.com","revision":1,"score":73,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','4','{"id":4,"name":"Item 4","email":"item4@example.com","revision":1,"score":28,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','40','{"id":40,"name":"Item 40","email":"item40@example.com","revision":1,"score":80,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','41','{"id":41,"name":"Item 41","email":"item41@example.com","revision":1,"score":87,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','42','{"id":42,"name":"Item 42","email":"item42@example.com","revision":1,"score":94,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','43','{"id":43,"name":"Item 43","email":"item43@example.com","revision":1,"score":1,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','44','{"id":44,"name":"Item 44","email":"item44@example.com","revision":1,"score":8,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','45','{"id":45,"name":"Item 45","email":"item45@example.com","revision":1,"score":15,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','46','{"id":46,"name":"Item 46","email":"item46@example.com","revision":1,"score":22,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','47','{"id":47,"name":"Item 47","email":"item47@example.com","revision":1,"score":29,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','48','{"id":48,"name":"Item 48","email":"item48@example.com","revision":1,"score":36,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','49','{"id":49,"name":"Item 49","email":"item49@example.com","revision":1,"score":43,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','5','{"id":5,"name":"Item 5","email":"item5@example.com","revision":1,"score":35,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','50','{"id":50,"name":"Item 50","email":"item50@example.com","revision":1,"score":50,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',2);
INSERT INTO records VALUES('pages','51','{"id":51,"name":"Item 51","email":"item51@example.com","revision":1,"score":57,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',3);
INSERT INTO records VALUES('pages','52','{"id":52,"name":"Item 52","email":"item52@example.com","revision":1,"score":64,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',3);
INSERT INTO records VALUES('pages','53','{"id":53,"name":"Item 53","email":"item53@example.com","revision":1,"score":71,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',3);
INSERT INTO records VALUES('pages','54','{"id":54,"name":"Item 54","email":"item54@example.com","revision":1,"score":78,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',3);
INSERT INTO records VALUES('pages','55','{"id":55,"name":"Item 55","email":"item55@example.com","revision":1,"score":85,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',3);
INSERT INTO records VALUES('pages','56','{"id":56,"name":"Item 56","email":"item56@example.com","revision":1,"score":92,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',3);
INSERT INTO records VALUES('pages','57','{"id":57,"name":"Item 57","email":"item57@example.com","revision":1,"score":99,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',3);
INSERT INTO records VALUES('pages','58','{"id":58,"name":"Item 58","email":"item58@example.com","revision":1,"score":6,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',3);
INSERT INTO records VALUES('pages','59','{"id":59,"name":"Item 59","email":"item59@example.com","revision":1,"score":13,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',3);
INSERT INTO records VALUES('pages','6','{"id":6,"name":"Item 6","email":"item6@example.com","revision":1,"score":42,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','60','{"id":60,"name":"Item 60","email":"item60@example.com","revision":1,"score":20,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',3);
INSERT INTO records VALUES('pages','7','{"id":7,"name":"Item 7","email":"item7@example.com","revision":1,"score":49,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','8','{"id":8,"name":"Item 8","email":"item8@example.com","revision":1,"score":56,"active":true,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('pages','9','{"id":9,"name":"Item 9","email":"item9@example.com","revision":1,"score":63,"active":false,"tags":["alpha","beta","gamma"],"created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}','2026-12-07T08:42:06.122Z',1);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-000000000001','{"businessPhones":[],"displayName":"User 1","givenName":"User","jobTitle":null,"mail":"user1@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"1","userPrincipalName":"user1@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-000000000001"}','2026-12-07T08:42:06.045Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-000000000002','{"businessPhones":["+1 425 555 1002"],"displayName":"User 2","givenName":"User","jobTitle":null,"mail":"user2@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"2","userPrincipalName":"user2@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-000000000002"}','2026-12-07T08:42:06.045Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-000000000003','{"businessPhones":[],"displayName":"User 3","givenName":"User","jobTitle":null,"mail":"user3@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"3","userPrincipalName":"user3@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-000000000003"}','2026-12-07T08:42:06.045Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-000000000004','{"businessPhones":["+1 425 555 1004"],"displayName":"User 4","givenName":"User","jobTitle":null,"mail":"user4@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"4","userPrincipalName":"user4@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-000000000004"}','2026-12-07T08:42:06.045Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-000000000005','{"businessPhones":[],"displayName":"User 5","givenName":"User","jobTitle":null,"mail":"user5@contoso.com","mobilePhone":null,"officeLocation":"5/5","preferredLanguage":"en-US","surname":"5","userPrincipalName":"user5@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-000000000005"}','2026-12-07T08:42:06.045Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-000000000006','{"businessPhones":["+1 425 555 1006"],"displayName":"User 6","givenName":"User","jobTitle":null,"mail":"user6@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"6","userPrincipalName":"user6@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-000000000006"}','2026-12-07T08:42:06.045Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-000000000007','{"businessPhones":[],"displayName":"User 7","givenName":"User","jobTitle":null,"mail":"user7@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"7","userPrincipalName":"user7@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-000000000007"}','2026-12-07T08:42:06.045Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-000000000008','{"businessPhones":["+1 425 555 1008"],"displayName":"User 8","givenName":"User","jobTitle":null,"mail":"user8@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"8","userPrincipalName":"user8@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-000000000008"}','2026-12-07T08:42:06.045Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-000000000009','{"businessPhones":[],"displayName":"User 9","givenName":"User","jobTitle":null,"mail":"user9@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"9","userPrincipalName":"user9@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-000000000009"}','2026-12-07T08:42:06.045Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-00000000000a','{"businessPhones":["+1 425 555 1010"],"displayName":"User 10","givenName":"User","jobTitle":null,"mail":"user10@contoso.com","mobilePhone":null,"officeLocation":"10/3","preferredLanguage":"en-US","surname":"10","userPrincipalName":"user10@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-00000000000a"}','2026-12-07T08:42:06.045Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-00000000000b','{"businessPhones":[],"displayName":"User 11","givenName":"User","jobTitle":null,"mail":"user11@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"11","userPrincipalName":"user11@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-00000000000b"}','2026-12-07T08:42:06.097Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-00000000000c','{"businessPhones":["+1 425 555 1012"],"displayName":"User 12","givenName":"User","jobTitle":null,"mail":"user12@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"12","userPrincipalName":"user12@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-00000000000c"}','2026-12-07T08:42:06.097Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-00000000000d','{"businessPhones":[],"displayName":"User 13","givenName":"User","jobTitle":null,"mail":"user13@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"13","userPrincipalName":"user13@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-00000000000d"}','2026-12-07T08:42:06.097Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-00000000000e','{"businessPhones":["+1 425 555 1014"],"displayName":"User 14","givenName":"User","jobTitle":null,"mail":"user14@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"14","userPrincipalName":"user14@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-00000000000e"}','2026-12-07T08:42:06.097Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-00000000000f','{"businessPhones":[],"displayName":"User 15","givenName":"User","jobTitle":null,"mail":"user15@contoso.com","mobilePhone":null,"officeLocation":"15/1","preferredLanguage":"en-US","surname":"15","userPrincipalName":"user15@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-00000000000f"}','2026-12-07T08:42:06.097Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-000000000010','{"businessPhones":["+1 425 555 1016"],"displayName":"User 16","givenName":"User","jobTitle":null,"mail":"user16@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"16","userPrincipalName":"user16@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-000000000010"}','2026-12-07T08:42:06.097Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-000000000011','{"businessPhones":[],"displayName":"User 17","givenName":"User","jobTitle":null,"mail":"user17@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"17","userPrincipalName":"user17@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-000000000011"}','2026-12-07T08:42:06.097Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-000000000012','{"businessPhones":["+1 425 555 1018"],"displayName":"User 18","givenName":"User","jobTitle":null,"mail":"user18@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"18","userPrincipalName":"user18@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-000000000012"}','2026-12-07T08:42:06.097Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-000000000013','{"businessPhones":[],"displayName":"User 19","givenName":"User","jobTitle":null,"mail":"user19@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"19","userPrincipalName":"user19@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-000000000013"}','2026-12-07T08:42:06.097Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-000000000014','{"businessPhones":["+1 425 555 1020"],"displayName":"User 20","givenName":"User","jobTitle":null,"mail":"user20@contoso.com","mobilePhone":null,"officeLocation":"20/6","preferredLanguage":"en-US","surname":"20","userPrincipalName":"user20@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-000000000014"}','2026-12-07T08:42:06.097Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-000000000015','{"businessPhones":[],"displayName":"User 21","givenName":"User","jobTitle":null,"mail":"user21@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"21","userPrincipalName":"user21@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-000000000015"}','2026-12-07T08:42:06.108Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-000000000016','{"businessPhones":["+1 425 555 1022"],"displayName":"User 22","givenName":"User","jobTitle":null,"mail":"user22@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"22","userPrincipalName":"user22@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-000000000016"}','2026-12-07T08:42:06.108Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-000000000017','{"businessPhones":[],"displayName":"User 23","givenName":"User","jobTitle":null,"mail":"user23@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"23","userPrincipalName":"user23@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-000000000017"}','2026-12-07T08:42:06.108Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-000000000018','{"businessPhones":["+1 425 555 1024"],"displayName":"User 24","givenName":"User","jobTitle":null,"mail":"user24@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"24","userPrincipalName":"user24@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-000000000018"}','2026-12-07T08:42:06.108Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-000000000019','{"businessPhones":[],"displayName":"User 25","givenName":"User","jobTitle":null,"mail":"user25@contoso.com","mobilePhone":null,"officeLocation":"25/4","preferredLanguage":"en-US","surname":"25","userPrincipalName":"user25@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-000000000019"}','2026-12-07T08:42:06.108Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-00000000001a','{"businessPhones":["+1 425 555 1026"],"displayName":"User 26","givenName":"User","jobTitle":null,"mail":"user26@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"26","userPrincipalName":"user26@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-00000000001a"}','2026-12-07T08:42:06.108Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-00000000001b','{"businessPhones":[],"displayName":"User 27","givenName":"User","jobTitle":null,"mail":"user27@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"27","userPrincipalName":"user27@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-00000000001b"}','2026-12-07T08:42:06.108Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-00000000001c','{"businessPhones":["+1 425 555 1028"],"displayName":"User 28","givenName":"User","jobTitle":null,"mail":"user28@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"28","userPrincipalName":"user28@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-00000000001c"}','2026-12-07T08:42:06.108Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-00000000001d','{"businessPhones":[],"displayName":"User 29","givenName":"User","jobTitle":null,"mail":"user29@contoso.com","mobilePhone":null,"officeLocation":null,"preferredLanguage":"en-US","surname":"29","userPrincipalName":"user29@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-00000000001d"}','2026-12-07T08:42:06.108Z',NULL);
INSERT INTO records VALUES('users','6e3b2f1a-0c4d-4e5f-8a9b-00000000001e','{"businessPhones":["+1 425 555 1030"],"displayName":"User 30","givenName":"User","jobTitle":null,"mail":"user30@contoso.com","mobilePhone":null,"officeLocation":"30/2","preferredLanguage":"en-US","surname":"30","userPrincipalName":"user30@contoso.com","id":"6e3b2f1a-0c4d-4e5f-8a9b-00000000001e"}','2026-12-07T08:42:06.108Z',NULL);
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
, since TEXT, since_token TEXT);
INSERT INTO resources VALUES('me','idle','2026-12-07T08:42:06.038Z','2026-12-07T08:42:06.013Z',NULL,'"46010d4033fabf2d"','Thu, 01 Jan 2026 00:00:00 GMT',1,NULL,NULL,'78c9a1136099bf5e',NULL,NULL);
INSERT INTO resources VALUES('links','idle','2026-12-07T08:42:06.103Z','2026-12-07T08:42:06.011Z',NULL,'"f64c5ceddd153c51"','Thu, 01 Jan 2026 00:00:00 GMT',30,NULL,NULL,'ba8d392c2595c0fc',NULL,NULL);
INSERT INTO resources VALUES('cursors','idle','2026-12-07T08:42:06.111Z','2026-12-07T08:42:06.010Z',NULL,'"c180d871f3fd00fd"','Thu, 01 Jan 2026 00:00:00 GMT',30,NULL,NULL,'431e6ff61e3568c3',NULL,NULL);
INSERT INTO resources VALUES('users','idle','2026-12-07T08:42:06.114Z','2026-12-07T08:42:06.012Z',NULL,'"095aea6eea492096"','Thu, 01 Jan 2026 00:00:00 GMT',30,NULL,NULL,'a7269864e52feaf7',NULL,'http://upstream.fixture.test/v1.0/users/…');
INSERT INTO resources VALUES('inventory','idle','2026-12-07T08:42:06.119Z','2026-12-07T08:42:06.011Z',NULL,'"24f9db9c5163a74f"','Thu, 01 Jan 2026 00:00:00 GMT',30,NULL,NULL,'dea7e16176bae08c',NULL,'30-g1AAAAczMwaTMw');
INSERT INTO resources VALUES('pages','idle','2026-12-07T08:42:06.123Z','2026-12-07T08:42:06.009Z',NULL,'"49a5abe41991b7a1"','Thu, 01 Jan 2026 00:00:00 GMT',60,NULL,NULL,'e17eee2c5b299cfb',NULL,NULL);
INSERT INTO resources VALUES('events','idle','2026-12-07T08:42:06.129Z','2026-12-07T08:42:06.011Z',NULL,'"82e39c9060d6da0b"','Thu, 01 Jan 2026 00:00:00 GMT',30,NULL,NULL,'565e19883ba7d160','2026-01-01T00:00:30.000Z',NULL);
INSERT INTO resources VALUES('journal','failed','2026-12-07T08:42:06.138Z','2026-12-07T08:42:06.266Z','journal: GET http://upstream.fixture.test/incremental/journal?updated_since=2026-01-01T00%3A00%3A40Z&page=3&per_page=5 failed: the server answered 500 Internal Server Error: injected fault','"2d10e129fb5953fc"','Thu, 01 Jan 2026 00:00:00 GMT',40,'transient',500,'aac42ee4981491c2','2026-01-01T00:00:40.000Z',NULL);
INSERT INTO resources VALUES('mine','idle','2026-12-07T08:42:06.150Z','2026-12-07T08:42:06.138Z',NULL,'"82e39c9060d6da0b"','Thu, 01 Jan 2026 00:00:00 GMT',20,NULL,NULL,'4526df20fe5f9007','2026-01-01T00:00:20.000Z',NULL);
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
INSERT INTO pages VALUES('cursors',1,'9e2a085ec3a8be29','"c180d871f3fd00fd"','Thu, 01 Jan 2026 00:00:00 GMT','{"url":"http://upstream.fixture.test/cursor/listed?limit=10&key=${sealed|${FIXTURE_TOKEN}|0}&cursor=c10","position":0,"seen":["c10","http://upstream.fixture.test/cursor/listed?limit=10&key=${sealed|${FIXTURE_TOKEN}|0}"],"received":10}',10);
INSERT INTO pages VALUES('cursors',2,'1226d6fb491c3a92','"b8906d1127873b8c"','Thu, 01 Jan 2026 00:00:00 GMT','{"url":"http://upstream.fixture.test/cursor/listed?limit=10&key=${sealed|${FIXTURE_TOKEN}|0}&cursor=c20","position":0,"seen":["c20","http://upstream.fixture.test/cursor/listed?limit=10&key=${sealed|${FIXTURE_TOKEN}|0}&cursor=c10"],"received":20}',10);
INSERT INTO pages VALUES('cursors',3,'1b3d3ffb4e60ec87','"a65d6b880b5b2b6b"','Thu, 01 Jan 2026 00:00:00 GMT',NULL,10);
INSERT INTO pages VALUES('links',1,'b7a1eb2f5bd2c158','"f64c5ceddd153c51"','Thu, 01 Jan 2026 00:00:00 GMT','{"url":"http://upstream.fixture.test/link/linked?page=2&per_page=10","position":0,"seen":["http://upstream.fixture.test/link/linked?per_page=10"],"received":10}',10);
INSERT INTO pages VALUES('links',2,'9b3c45bcab16cdc2','"88fc110d0d8a0aa5"','Thu, 01 Jan 2026 00:00:00 GMT','{"url":"http://upstream.fixture.test/link/linked?page=3&per_page=10","position":0,"seen":["http://upstream.fixture.test/link/linked?page=2&per_page=10"],"received":20}',10);
INSERT INTO pages VALUES('links',3,'6c7aebb4f5fee18f','"07561349820410d0"','Thu, 01 Jan 2026 00:00:00 GMT',NULL,10);
INSERT INTO pages VALUES('me',1,'2ed7949cbadb1a88','"46010d4033fabf2d"','Thu, 01 Jan 2026 00:00:00 GMT',NULL,1);
INSERT INTO pages VALUES('pages',1,'16719ebeca18c783','"49a5abe41991b7a1"','Thu, 01 Jan 2026 00:00:00 GMT','{"url":"http://upstream.fixture.test/page/items?page=2&per_page=25","position":2,"seen":[],"received":25}',25);
INSERT INTO pages VALUES('pages',2,'563a08580bc48860','"01a74039a0c21d91"','Thu, 01 Jan 2026 00:00:00 GMT','{"url":"http://upstream.fixture.test/page/items?page=3&per_page=25","position":3,"seen":[],"received":50}',25);
INSERT INTO pages VALUES('pages',3,'45b6dc6fe1c62705','"0e8f875341fbe7f6"','Thu, 01 Jan 2026 00:00:00 GMT',NULL,10);
CREATE TABLE oauth2_refresh_tokens (
    auth          TEXT PRIMARY KEY,
    configured    TEXT NOT NULL,
    refresh_token TEXT NOT NULL,
    rotated_at    TEXT NOT NULL
);
CREATE TABLE changes (
    seq      INTEGER PRIMARY KEY AUTOINCREMENT,
    resource TEXT NOT NULL,
    key      TEXT NOT NULL,
    op       TEXT NOT NULL CHECK (op IN ('insert', 'update', 'delete')),
    sync_run INTEGER,
    at       TEXT NOT NULL
);
INSERT INTO changes VALUES(1,'me','1','insert',1,'2026-12-07T08:42:06.037Z');
INSERT INTO changes VALUES(2,'journal','1','insert',2,'2026-12-07T08:42:06.041Z');
INSERT INTO changes VALUES(3,'journal','2','insert',2,'2026-12-07T08:42:06.041Z');
INSERT INTO changes VALUES(4,'journal','3','insert',2,'2026-12-07T08:42:06.041Z');
INSERT INTO changes VALUES(5,'journal','4','insert',2,'2026-12-07T08:42:06.041Z');
INSERT INTO changes VALUES(6,'journal','5','insert',2,'2026-12-07T08:42:06.041Z');
INSERT INTO changes VALUES(7,'users','6e3b2f1a-0c4d-4e5f-8a9b-000000000001','insert',3,'2026-12-07T08:42:06.045Z');
INSERT INTO changes VALUES(8,'users','6e3b2f1a-0c4d-4e5f-8a9b-000000000002','insert',3,'2026-12-07T08:42:06.045Z');
INSERT INTO changes VALUES(9,'users','6e3b2f1a-0c4d-4e5f-8a9b-000000000003','insert',3,'2026-12-07T08:42:06.045Z');
INSERT INTO changes VALUES(10,'users','6e3b2f1a-0c4d-4e5f-8a9b-000000000004','insert',3,'2026-12-07T08:42:06.045Z');
INSERT INTO changes VALUES(11,'users','6e3b2f1a-0c4d-4e5f-8a9b-000000000005','insert',3,'2026-12-07T08:42:06.045Z');
INSERT INTO changes VALUES(12,'users','6e3b2f1a-0c4d-4e5f-8a9b-000000000006','insert',3,'2026-12-07T08:42:06.045Z');
INSERT INTO changes VALUES(13,'users','6e3b2f1a-0c4d-4e5f-8a9b-000000000007','insert',3,'2026-12-07T08:42:06.045Z');
INSERT INTO changes VALUES(14,'users','6e3b2f1a-0c4d-4e5f-8a9b-000000000008','insert',3,'2026-12-07T08:42:06.045Z');
INSERT INTO changes VALUES(15,'users','6e3b2f1a-0c4d-4e5f-8a9b-000000000009','insert',3,'2026-12-07T08:42:06.045Z');
INSERT INTO changes VALUES(16,'users','6e3b2f1a-0c4d-4e5f-8a9b-00000000000a','insert',3,'2026-12-07T08:42:06.045Z');
INSERT INTO changes VALUES(17,'journal','6','insert',2,'2026-12-07T08:42:06.049Z');
INSERT INTO changes VALUES(18,'journal','7','insert',2,'2026-12-07T08:42:06.049Z');
INSERT INTO changes VALUES(19,'journal','8','insert',2,'2026-12-07T08:42:06.049Z');
INSERT INTO changes VALUES(20,'journal','9','insert',2,'2026-12-07T08:42:06.049Z');
INSERT INTO changes VALUES(21,'journal','10','insert',2,'2026-12-07T08:42:06.049Z');
INSERT INTO changes VALUES(22,'journal','11','insert',2,'2026-12-07T08:42:06.052Z');
INSERT INTO changes VALUES(23,'journal','12','insert',2,'2026-12-07T08:42:06.052Z');
INSERT INTO changes VALUES(24,'journal','13','insert',2,'2026-12-07T08:42:06.052Z');
INSERT INTO changes VALUES(25,'journal','14','insert',2,'2026-12-07T08:42:06.052Z');
INSERT INTO changes VALUES(26,'journal','15','insert',2,'2026-12-07T08:42:06.052Z');
INSERT INTO changes VALUES(27,'events','1','insert',4,'2026-12-07T08:42:06.076Z');
INSERT INTO changes VALUES(28,'events','2','insert',4,'2026-12-07T08:42:06.076Z');
INSERT INTO changes VALUES(29,'events','3','insert',4,'2026-12-07T08:42:06.076Z');
INSERT INTO changes VALUES(30,'events','4','insert',4,'2026-12-07T08:42:06.076Z');
INSERT INTO changes VALUES(31,'events','5','insert',4,'2026-12-07T08:42:06.076Z');
INSERT INTO changes VALUES(32,'events','6','insert',4,'2026-12-07T08:42:06.076Z');
INSERT INTO changes VALUES(33,'events','7','insert',4,'2026-12-07T08:42:06.076Z');
INSERT INTO changes VALUES(34,'events','8','insert',4,'2026-12-07T08:42:06.076Z');
INSERT INTO changes VALUES(35,'events','9','insert',4,'2026-12-07T08:42:06.076Z');
INSERT INTO changes VALUES(36,'events','10','insert',4,'2026-12-07T08:42:06.076Z');
INSERT INTO changes VALUES(37,'inventory','doc-0001','insert',5,'2026-12-07T08:42:06.083Z');
INSERT INTO changes VALUES(38,'inventory','doc-0002','insert',5,'2026-12-07T08:42:06.083Z');
INSERT INTO changes VALUES(39,'inventory','doc-0003','insert',5,'2026-12-07T08:42:06.083Z');
INSERT INTO changes VALUES(40,'inventory','doc-0004','insert',5,'2026-12-07T08:42:06.083Z');
INSERT INTO changes VALUES(41,'inventory','doc-0005','insert',5,'2026-12-07T08:42:06.083Z');
INSERT INTO changes VALUES(42,'inventory','doc-0006','insert',5,'2026-12-07T08:42:06.083Z');
INSERT INTO changes VALUES(43,'inventory','doc-0007','insert',5,'2026-12-07T08:42:06.083Z');
INSERT INTO changes VALUES(44,'inventory','doc-0008','insert',5,'2026-12-07T08:42:06.083Z');
INSERT INTO changes VALUES(45,'inventory','doc-0009','insert',5,'2026-12-07T08:42:06.083Z');
INSERT INTO changes VALUES(46,'inventory','doc-0010','insert',5,'2026-12-07T08:42:06.083Z');
INSERT INTO changes VALUES(47,'users','6e3b2f1a-0c4d-4e5f-8a9b-00000000000b','insert',3,'2026-12-07T08:42:06.097Z');
INSERT INTO changes VALUES(48,'users','6e3b2f1a-0c4d-4e5f-8a9b-00000000000c','insert',3,'2026-12-07T08:42:06.097Z');
INSERT INTO changes VALUES(49,'users','6e3b2f1a-0c4d-4e5f-8a9b-00000000000d','insert',3,'2026-12-07T08:42:06.097Z');
INSERT INTO changes VALUES(50,'users','6e3b2f1a-0c4d-4e5f-8a9b-00000000000e','insert',3,'2026-12-07T08:42:06.097Z');
INSERT INTO changes VALUES(51,'users','6e3b2f1a-0c4d-4e5f-8a9b-00000000000f','insert',3,'2026-12-07T08:42:06.097Z');
INSERT INTO changes VALUES(52,'users','6e3b2f1a-0c4d-4e5f-8a9b-000000000010','insert',3,'2026-12-07T08:42:06.097Z');
INSERT INTO changes VALUES(53,'users','6e3b2f1a-0c4d-4e5f-8a9b-000000000011','insert',3,'2026-12-07T08:42:06.097Z');
INSERT INTO changes VALUES(54,'users','6e3b2f1a-0c4d-4e5f-8a9b-000000000012','insert',3,'2026-12-07T08:42:06.097Z');
INSERT INTO changes VALUES(55,'users','6e3b2f1a-0c4d-4e5f-8a9b-000000000013','insert',3,'2026-12-07T08:42:06.097Z');
INSERT INTO changes VALUES(56,'users','6e3b2f1a-0c4d-4e5f-8a9b-000000000014','insert',3,'2026-12-07T08:42:06.097Z');
INSERT INTO changes VALUES(57,'journal','16','insert',2,'2026-12-07T08:42:06.099Z');
INSERT INTO changes VALUES(58,'journal','17','insert',2,'2026-12-07T08:42:06.099Z');
INSERT INTO changes VALUES(59,'journal','18','insert',2,'2026-12-07T08:42:06.099Z');
INSERT INTO changes VALUES(60,'journal','19','insert',2,'2026-12-07T08:42:06.099Z');
INSERT INTO changes VALUES(61,'journal','20','insert',2,'2026-12-07T08:42:06.099Z');
INSERT INTO changes VALUES(62,'events','11','insert',4,'2026-12-07T08:42:06.100Z');
INSERT INTO changes VALUES(63,'events','12','insert',4,'2026-12-07T08:42:06.100Z');
INSERT INTO changes VALUES(64,'events','13','insert',4,'2026-12-07T08:42:06.100Z');
INSERT INTO changes VALUES(65,'events','14','insert',4,'2026-12-07T08:42:06.100Z');
INSERT INTO changes VALUES(66,'events','15','insert',4,'2026-12-07T08:42:06.100Z');
INSERT INTO changes VALUES(67,'events','16','insert',4,'2026-12-07T08:42:06.100Z');
INSERT INTO changes VALUES(68,'events','17','insert',4,'2026-12-07T08:42:06.100Z');
INSERT INTO changes VALUES(69,'events','18','insert',4,'2026-12-07T08:42:06.100Z');
INSERT INTO changes VALUES(70,'events','19','insert',4,'2026-12-07T08:42:06.100Z');
INSERT INTO changes VALUES(71,'events','20','insert',4,'2026-12-07T08:42:06.100Z');
INSERT INTO changes VALUES(72,'links','1','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(73,'links','10','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(74,'links','11','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(75,'links','12','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(76,'links','13','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(77,'links','14','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(78,'links','15','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(79,'links','16','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(80,'links','17','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(81,'links','18','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(82,'links','19','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(83,'links','2','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(84,'links','20','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(85,'links','21','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(86,'links','22','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(87,'links','23','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(88,'links','24','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(89,'links','25','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(90,'links','26','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(91,'links','27','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(92,'links','28','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(93,'links','29','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(94,'links','3','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(95,'links','30','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(96,'links','4','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(97,'links','5','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(98,'links','6','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(99,'links','7','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(100,'links','8','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(101,'links','9','insert',6,'2026-12-07T08:42:06.102Z');
INSERT INTO changes VALUES(102,'inventory','doc-0011','insert',5,'2026-12-07T08:42:06.106Z');
INSERT INTO changes VALUES(103,'inventory','doc-0012','insert',5,'2026-12-07T08:42:06.106Z');
INSERT INTO changes VALUES(104,'inventory','doc-0013','insert',5,'2026-12-07T08:42:06.106Z');
INSERT INTO changes VALUES(105,'inventory','doc-0014','insert',5,'2026-12-07T08:42:06.106Z');
INSERT INTO changes VALUES(106,'inventory','doc-0015','insert',5,'2026-12-07T08:42:06.106Z');
INSERT INTO changes VALUES(107,'inventory','doc-0016','insert',5,'2026-12-07T08:42:06.106Z');
INSERT INTO changes VALUES(108,'inventory','doc-0017','insert',5,'2026-12-07T08:42:06.106Z');
INSERT INTO changes VALUES(109,'inventory','doc-0018','insert',5,'2026-12-07T08:42:06.106Z');
INSERT INTO changes VALUES(110,'inventory','doc-0019','insert',5,'2026-12-07T08:42:06.106Z');
INSERT INTO changes VALUES(111,'inventory','doc-0020','insert',5,'2026-12-07T08:42:06.106Z');
INSERT INTO changes VALUES(112,'users','6e3b2f1a-0c4d-4e5f-8a9b-000000000015','insert',3,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(113,'users','6e3b2f1a-0c4d-4e5f-8a9b-000000000016','insert',3,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(114,'users','6e3b2f1a-0c4d-4e5f-8a9b-000000000017','insert',3,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(115,'users','6e3b2f1a-0c4d-4e5f-8a9b-000000000018','insert',3,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(116,'users','6e3b2f1a-0c4d-4e5f-8a9b-000000000019','insert',3,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(117,'users','6e3b2f1a-0c4d-4e5f-8a9b-00000000001a','insert',3,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(118,'users','6e3b2f1a-0c4d-4e5f-8a9b-00000000001b','insert',3,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(119,'users','6e3b2f1a-0c4d-4e5f-8a9b-00000000001c','insert',3,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(120,'users','6e3b2f1a-0c4d-4e5f-8a9b-00000000001d','insert',3,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(121,'users','6e3b2f1a-0c4d-4e5f-8a9b-00000000001e','insert',3,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(122,'cursors','1','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(123,'cursors','10','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(124,'cursors','11','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(125,'cursors','12','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(126,'cursors','13','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(127,'cursors','14','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(128,'cursors','15','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(129,'cursors','16','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(130,'cursors','17','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(131,'cursors','18','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(132,'cursors','19','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(133,'cursors','2','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(134,'cursors','20','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(135,'cursors','21','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(136,'cursors','22','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(137,'cursors','23','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(138,'cursors','24','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(139,'cursors','25','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(140,'cursors','26','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(141,'cursors','27','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(142,'cursors','28','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(143,'cursors','29','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(144,'cursors','3','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(145,'cursors','30','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(146,'cursors','4','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(147,'cursors','5','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(148,'cursors','6','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(149,'cursors','7','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(150,'cursors','8','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(151,'cursors','9','insert',7,'2026-12-07T08:42:06.108Z');
INSERT INTO changes VALUES(152,'events','21','insert',4,'2026-12-07T08:42:06.113Z');
INSERT INTO changes VALUES(153,'events','22','insert',4,'2026-12-07T08:42:06.113Z');
INSERT INTO changes VALUES(154,'events','23','insert',4,'2026-12-07T08:42:06.113Z');
INSERT INTO changes VALUES(155,'events','24','insert',4,'2026-12-07T08:42:06.113Z');
INSERT INTO changes VALUES(156,'events','25','insert',4,'2026-12-07T08:42:06.113Z');
INSERT INTO changes VALUES(157,'events','26','insert',4,'2026-12-07T08:42:06.113Z');
INSERT INTO changes VALUES(158,'events','27','insert',4,'2026-12-07T08:42:06.113Z');
INSERT INTO changes VALUES(159,'events','28','insert',4,'2026-12-07T08:42:06.113Z');
INSERT INTO changes VALUES(160,'events','29','insert',4,'2026-12-07T08:42:06.113Z');
INSERT INTO changes VALUES(161,'events','30','insert',4,'2026-12-07T08:42:06.113Z');
INSERT INTO changes VALUES(162,'journal','21','insert',2,'2026-12-07T08:42:06.114Z');
INSERT INTO changes VALUES(163,'journal','22','insert',2,'2026-12-07T08:42:06.114Z');
INSERT INTO changes VALUES(164,'journal','23','insert',2,'2026-12-07T08:42:06.114Z');
INSERT INTO changes VALUES(165,'journal','24','insert',2,'2026-12-07T08:42:06.114Z');
INSERT INTO changes VALUES(166,'journal','25','insert',2,'2026-12-07T08:42:06.114Z');
INSERT INTO changes VALUES(167,'inventory','doc-0021','insert',5,'2026-12-07T08:42:06.118Z');
INSERT INTO changes VALUES(168,'inventory','doc-0022','insert',5,'2026-12-07T08:42:06.118Z');
INSERT INTO changes VALUES(169,'inventory','doc-0023','insert',5,'2026-12-07T08:42:06.118Z');
INSERT INTO changes VALUES(170,'inventory','doc-0024','insert',5,'2026-12-07T08:42:06.118Z');
INSERT INTO changes VALUES(171,'inventory','doc-0025','insert',5,'2026-12-07T08:42:06.118Z');
INSERT INTO changes VALUES(172,'inventory','doc-0026','insert',5,'2026-12-07T08:42:06.118Z');
INSERT INTO changes VALUES(173,'inventory','doc-0027','insert',5,'2026-12-07T08:42:06.118Z');
INSERT INTO changes VALUES(174,'inventory','doc-0028','insert',5,'2026-12-07T08:42:06.118Z');
INSERT INTO changes VALUES(175,'inventory','doc-0029','insert',5,'2026-12-07T08:42:06.118Z');
INSERT INTO changes VALUES(176,'inventory','doc-0030','insert',5,'2026-12-07T08:42:06.118Z');
INSERT INTO changes VALUES(177,'pages','1','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(178,'pages','10','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(179,'pages','11','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(180,'pages','12','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(181,'pages','13','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(182,'pages','14','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(183,'pages','15','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(184,'pages','16','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(185,'pages','17','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(186,'pages','18','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(187,'pages','19','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(188,'pages','2','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(189,'pages','20','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(190,'pages','21','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(191,'pages','22','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(192,'pages','23','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(193,'pages','24','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(194,'pages','25','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(195,'pages','26','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(196,'pages','27','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(197,'pages','28','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(198,'pages','29','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(199,'pages','3','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(200,'pages','30','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(201,'pages','31','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(202,'pages','32','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(203,'pages','33','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(204,'pages','34','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(205,'pages','35','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(206,'pages','36','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(207,'pages','37','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(208,'pages','38','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(209,'pages','39','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(210,'pages','4','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(211,'pages','40','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(212,'pages','41','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(213,'pages','42','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(214,'pages','43','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(215,'pages','44','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(216,'pages','45','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(217,'pages','46','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(218,'pages','47','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(219,'pages','48','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(220,'pages','49','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(221,'pages','5','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(222,'pages','50','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(223,'pages','51','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(224,'pages','52','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(225,'pages','53','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(226,'pages','54','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(227,'pages','55','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(228,'pages','56','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(229,'pages','57','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(230,'pages','58','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(231,'pages','59','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(232,'pages','6','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(233,'pages','60','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(234,'pages','7','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(235,'pages','8','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(236,'pages','9','insert',8,'2026-12-07T08:42:06.122Z');
INSERT INTO changes VALUES(237,'journal','26','insert',2,'2026-12-07T08:42:06.126Z');
INSERT INTO changes VALUES(238,'journal','27','insert',2,'2026-12-07T08:42:06.126Z');
INSERT INTO changes VALUES(239,'journal','28','insert',2,'2026-12-07T08:42:06.126Z');
INSERT INTO changes VALUES(240,'journal','29','insert',2,'2026-12-07T08:42:06.126Z');
INSERT INTO changes VALUES(241,'journal','30','insert',2,'2026-12-07T08:42:06.126Z');
INSERT INTO changes VALUES(242,'journal','31','insert',2,'2026-12-07T08:42:06.131Z');
INSERT INTO changes VALUES(243,'journal','32','insert',2,'2026-12-07T08:42:06.131Z');
INSERT INTO changes VALUES(244,'journal','33','insert',2,'2026-12-07T08:42:06.131Z');
INSERT INTO changes VALUES(245,'journal','34','insert',2,'2026-12-07T08:42:06.131Z');
INSERT INTO changes VALUES(246,'journal','35','insert',2,'2026-12-07T08:42:06.131Z');
INSERT INTO changes VALUES(247,'journal','36','insert',2,'2026-12-07T08:42:06.134Z');
INSERT INTO changes VALUES(248,'journal','37','insert',2,'2026-12-07T08:42:06.134Z');
INSERT INTO changes VALUES(249,'journal','38','insert',2,'2026-12-07T08:42:06.134Z');
INSERT INTO changes VALUES(250,'journal','39','insert',2,'2026-12-07T08:42:06.134Z');
INSERT INTO changes VALUES(251,'journal','40','insert',2,'2026-12-07T08:42:06.134Z');
INSERT INTO changes VALUES(252,'mine','1','insert',9,'2026-12-07T08:42:06.142Z');
INSERT INTO changes VALUES(253,'mine','2','insert',9,'2026-12-07T08:42:06.142Z');
INSERT INTO changes VALUES(254,'mine','3','insert',9,'2026-12-07T08:42:06.142Z');
INSERT INTO changes VALUES(255,'mine','4','insert',9,'2026-12-07T08:42:06.142Z');
INSERT INTO changes VALUES(256,'mine','5','insert',9,'2026-12-07T08:42:06.142Z');
INSERT INTO changes VALUES(257,'mine','6','insert',9,'2026-12-07T08:42:06.142Z');
INSERT INTO changes VALUES(258,'mine','7','insert',9,'2026-12-07T08:42:06.142Z');
INSERT INTO changes VALUES(259,'mine','8','insert',9,'2026-12-07T08:42:06.142Z');
INSERT INTO changes VALUES(260,'mine','9','insert',9,'2026-12-07T08:42:06.142Z');
INSERT INTO changes VALUES(261,'mine','10','insert',9,'2026-12-07T08:42:06.142Z');
INSERT INTO changes VALUES(262,'mine','11','insert',9,'2026-12-07T08:42:06.146Z');
INSERT INTO changes VALUES(263,'mine','12','insert',9,'2026-12-07T08:42:06.146Z');
INSERT INTO changes VALUES(264,'mine','13','insert',9,'2026-12-07T08:42:06.146Z');
INSERT INTO changes VALUES(265,'mine','14','insert',9,'2026-12-07T08:42:06.146Z');
INSERT INTO changes VALUES(266,'mine','15','insert',9,'2026-12-07T08:42:06.146Z');
INSERT INTO changes VALUES(267,'mine','16','insert',9,'2026-12-07T08:42:06.146Z');
INSERT INTO changes VALUES(268,'mine','17','insert',9,'2026-12-07T08:42:06.146Z');
INSERT INTO changes VALUES(269,'mine','18','insert',9,'2026-12-07T08:42:06.146Z');
INSERT INTO changes VALUES(270,'mine','19','insert',9,'2026-12-07T08:42:06.146Z');
INSERT INTO changes VALUES(271,'mine','20','insert',9,'2026-12-07T08:42:06.146Z');
INSERT INTO changes VALUES(272,'journal','1','update',10,'2026-12-07T08:42:06.274Z');
INSERT INTO changes VALUES(273,'journal','2','update',10,'2026-12-07T08:42:06.274Z');
INSERT INTO changes VALUES(274,'journal','3','update',10,'2026-12-07T08:42:06.274Z');
INSERT INTO changes VALUES(275,'journal','4','update',10,'2026-12-07T08:42:06.274Z');
INSERT INTO changes VALUES(276,'journal','5','update',10,'2026-12-07T08:42:06.279Z');
INSERT INTO changes VALUES(277,'journal','6','update',10,'2026-12-07T08:42:06.279Z');
INSERT INTO changes VALUES(278,'journal','7','update',10,'2026-12-07T08:42:06.279Z');
INSERT INTO changes VALUES(279,'journal','8','update',10,'2026-12-07T08:42:06.279Z');
INSERT INTO changes VALUES(280,'journal','9','update',10,'2026-12-07T08:42:06.279Z');
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
    updated_at   TEXT NOT NULL, since_token TEXT, walk_sent_token TEXT, walk_largest_token TEXT,
    PRIMARY KEY (resource, scope)
) WITHOUT ROWID;
INSERT INTO cursors VALUES('events','','565e19883ba7d160','2026-01-01T00:00:30.000Z',NULL,NULL,NULL,NULL,NULL,'2026-12-07T08:42:06.126Z','2026-12-07T08:42:06.129Z',NULL,NULL,NULL);
INSERT INTO cursors VALUES('inventory','','dea7e16176bae08c',NULL,NULL,NULL,NULL,NULL,NULL,'2026-12-07T08:42:06.118Z','2026-12-07T08:42:06.118Z','30-g1AAAAczMwaTMw',NULL,NULL);
INSERT INTO cursors VALUES('journal','','aac42ee4981491c2','2026-01-01T00:00:40.000Z','{"url":"http://upstream.fixture.test/incremental/journal?updated_since=2026-01-01T00%3A00%3A40Z&page=3&per_page=5","position":3,"seen":[],"received":10}',2,'2026-01-01T00:00:40.000Z','2026-01-12T13:46:49.000Z',10,'2026-12-07T08:42:06.137Z','2026-12-07T08:42:06.279Z',NULL,NULL,NULL);
INSERT INTO cursors VALUES('mine','me/id=1','4526df20fe5f9007','2026-01-01T00:00:20.000Z',NULL,NULL,NULL,NULL,NULL,'2026-12-07T08:42:06.150Z','2026-12-07T08:42:06.150Z',NULL,NULL,NULL);
INSERT INTO cursors VALUES('users','','a7269864e52feaf7',NULL,NULL,NULL,NULL,NULL,NULL,'2026-12-07T08:42:06.106Z','2026-12-07T08:42:06.108Z','http://upstream.fixture.test/v1.0/users/delta?$deltatoken=ZGVsdGF8MTAwMDAwMXwxMDAwMDAwfDB8MHwxNzk2NjMyOTI2MTAzfA',NULL,NULL);
CREATE TABLE IF NOT EXISTS "sync_runs" (
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
    since        TEXT, since_token TEXT,
    -- A running sync has neither; an ended one, both.
    CHECK ((outcome IS NULL) = (finished_at IS NULL))
);
INSERT INTO sync_runs VALUES(1,'me','refresh','2026-12-07T08:42:06.013Z','2026-12-07T08:42:06.038Z','success',1,1,1,208,NULL,NULL,NULL,1,0,0,208,NULL,NULL);
INSERT INTO sync_runs VALUES(2,'journal','refresh','2026-12-07T08:42:06.013Z','2026-12-07T08:42:06.138Z','success',1,9,40,10872,NULL,NULL,NULL,40,0,0,10872,'2026-01-01T00:00:40.000Z',NULL);
INSERT INTO sync_runs VALUES(3,'users','refresh','2026-12-07T08:42:06.012Z','2026-12-07T08:42:06.114Z','success',1,3,30,9192,NULL,NULL,NULL,30,0,0,9192,NULL,'http://upstream.fixture.test/v1.0/users/…');
INSERT INTO sync_runs VALUES(4,'events','refresh','2026-12-07T08:42:06.011Z','2026-12-07T08:42:06.129Z','success',1,4,30,8063,NULL,NULL,NULL,30,0,0,8063,'2026-01-01T00:00:30.000Z',NULL);
INSERT INTO sync_runs VALUES(5,'inventory','refresh','2026-12-07T08:42:06.011Z','2026-12-07T08:42:06.119Z','success',1,3,30,11553,NULL,NULL,NULL,30,0,0,11553,NULL,'30-g1AAAAczMwaTMw');
INSERT INTO sync_runs VALUES(6,'links','refresh','2026-12-07T08:42:06.011Z','2026-12-07T08:42:06.103Z','success',1,3,30,6373,NULL,NULL,NULL,30,0,0,6373,NULL,NULL);
INSERT INTO sync_runs VALUES(7,'cursors','refresh','2026-12-07T08:42:06.010Z','2026-12-07T08:42:06.111Z','success',1,3,30,6462,NULL,NULL,NULL,30,0,0,6462,NULL,NULL);
INSERT INTO sync_runs VALUES(8,'pages','refresh','2026-12-07T08:42:06.009Z','2026-12-07T08:42:06.123Z','success',1,3,60,12899,NULL,NULL,NULL,60,0,0,12899,NULL,NULL);
INSERT INTO sync_runs VALUES(9,'mine','refresh','2026-12-07T08:42:06.138Z','2026-12-07T08:42:06.150Z','success',1,3,20,5377,NULL,NULL,NULL,20,0,0,5377,'2026-01-01T00:00:20.000Z',NULL);
INSERT INTO sync_runs VALUES(10,'journal','refresh','2026-12-07T08:42:06.266Z','2026-12-07T08:42:06.281Z','gaveUp',1,2,10,2689,'journal: GET http://upstream.fixture.test/incremental/journal?updated_since=2026-01-01T00%3A00%3A40Z&page=3&per_page=5 failed: the server answered 500 Internal Server Error: injected fault','transient',500,0,9,0,2689,NULL,NULL);
CREATE TABLE typed_tables (
    resource       TEXT PRIMARY KEY NOT NULL,
    declaration    TEXT NOT NULL,
    built_at       TEXT NOT NULL,
    misfit_table   TEXT,
    misfit_column  TEXT,
    misfit_key     TEXT,
    misfit_pointer TEXT
) WITHOUT ROWID;
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('changes',280);
CREATE INDEX records_by_update ON records (resource, updated_at);
CREATE INDEX changes_by_resource ON changes (resource, seq);
CREATE INDEX sync_runs_by_resource ON sync_runs (resource, id);
CREATE INDEX sync_runs_running ON sync_runs (resource) WHERE outcome IS NULL;
COMMIT;
