BEGIN TRANSACTION;
CREATE TABLE "_sqlite_migrations" (
   "id" INTEGER PRIMARY KEY,
   "migration_set" TEXT,
   "name" TEXT,
   "applied_at" TEXT
);
INSERT INTO "_sqlite_migrations" VALUES(1,'scorekeeper','m001_initial','2026-12-01 19:46:52.341907+00:00');
INSERT INTO "_sqlite_migrations" VALUES(2,'scorekeeper','m002_live_moves','2026-12-01 19:46:52.352999+00:00');
INSERT INTO "_sqlite_migrations" VALUES(3,'scorekeeper','m003_move_undo','2026-12-01 19:46:52.355097+00:00');
INSERT INTO "_sqlite_migrations" VALUES(4,'scorekeeper','m004_trash','2026-12-01 19:46:52.360644+00:00');
INSERT INTO "_sqlite_migrations" VALUES(5,'scorekeeper','m010_version_and_pin','2026-12-01 19:46:52.362501+00:00');
CREATE TABLE "changes" (
   "id" INTEGER PRIMARY KEY,
   "edit_id" INTEGER REFERENCES "edits"("id"),
   "game_id" TEXT REFERENCES "games"("id"),
   "number" INTEGER,
   "player" TEXT,
   "old" INTEGER,
   "new" INTEGER,
   "at" TEXT
);
INSERT INTO "changes" VALUES(1,1,'16845a8f7c79',1,'Ann',NULL,0,'2026-12-01T19:46:52+00:00');
INSERT INTO "changes" VALUES(2,1,'16845a8f7c79',1,'Bob',NULL,7,'2026-12-01T19:46:52+00:00');
INSERT INTO "changes" VALUES(3,1,'16845a8f7c79',1,'Chi',NULL,3,'2026-12-01T19:46:52+00:00');
INSERT INTO "changes" VALUES(4,2,'16845a8f7c79',2,'Ann',NULL,5,'2026-12-01T19:46:52+00:00');
INSERT INTO "changes" VALUES(5,2,'16845a8f7c79',2,'Bob',NULL,0,'2026-12-01T19:46:52+00:00');
INSERT INTO "changes" VALUES(6,2,'16845a8f7c79',2,'Chi',NULL,9,'2026-12-01T19:46:52+00:00');
INSERT INTO "changes" VALUES(7,3,'16845a8f7c79',2,'Chi',9,8,'2026-12-01T19:46:52+00:00');
INSERT INTO "changes" VALUES(8,4,'16845a8f7c79',2,'Chi',8,9,'2026-12-01T19:46:52+00:00');
INSERT INTO "changes" VALUES(9,5,'16845a8f7c79',2,'Chi',9,8,'2026-12-01T19:46:52+00:00');
INSERT INTO "changes" VALUES(10,6,'16845a8f7c79',3,'Ann',NULL,2,'2026-12-01T19:46:52+00:00');
INSERT INTO "changes" VALUES(11,6,'16845a8f7c79',3,'Bob',NULL,6,'2026-12-01T19:46:52+00:00');
INSERT INTO "changes" VALUES(12,6,'16845a8f7c79',3,'Chi',NULL,0,'2026-12-01T19:46:52+00:00');
INSERT INTO "changes" VALUES(13,7,'956d3b6b542f',1,'Ann',NULL,4,'2026-12-01T19:46:52+00:00');
INSERT INTO "changes" VALUES(14,7,'956d3b6b542f',1,'Dee',NULL,0,'2026-12-01T19:46:52+00:00');
CREATE TABLE "edits" (
   "id" INTEGER PRIMARY KEY,
   "game_id" TEXT REFERENCES "games"("id"),
   "number" INTEGER,
   "at" TEXT,
   "undo_of" INTEGER
, "redo_of" INTEGER);
INSERT INTO "edits" VALUES(1,'16845a8f7c79',1,'2026-12-01T19:46:52+00:00',NULL,NULL);
INSERT INTO "edits" VALUES(2,'16845a8f7c79',2,'2026-12-01T19:46:52+00:00',NULL,NULL);
INSERT INTO "edits" VALUES(3,'16845a8f7c79',2,'2026-12-01T19:46:52+00:00',NULL,NULL);
INSERT INTO "edits" VALUES(4,'16845a8f7c79',2,'2026-12-01T19:46:52+00:00',3,NULL);
INSERT INTO "edits" VALUES(5,'16845a8f7c79',2,'2026-12-01T19:46:52+00:00',NULL,4);
INSERT INTO "edits" VALUES(6,'16845a8f7c79',3,'2026-12-01T19:46:52+00:00',NULL,NULL);
INSERT INTO "edits" VALUES(7,'956d3b6b542f',1,'2026-12-01T19:46:52+00:00',NULL,NULL);
CREATE TABLE "games" (
   "id" TEXT PRIMARY KEY,
   "name" TEXT,
   "set_n" INTEGER,
   "players" TEXT,
   "rules" TEXT,
   "created_at" TEXT,
   "updated_at" TEXT
, "deleted_at" TEXT, "version" INTEGER NOT NULL DEFAULT 0, "pin_hash" TEXT);
INSERT INTO "games" VALUES('16845a8f7c79','Friday',2,'["Ann", "Bob", "Chi"]','{"deal": "A", "starter": "engine_holder", "first_turn": "train", "first_turn_stuck": "marker", "double_owner_satisfies": false, "double_blank": 50}','2026-12-01T19:46:52+00:00','2026-12-01T19:46:52+00:00',NULL,23,NULL);
INSERT INTO "games" VALUES('956d3b6b542f','',2,'["Ann", "Dee"]','{"deal": "A", "starter": "engine_holder", "first_turn": "train", "first_turn_stuck": "marker", "double_owner_satisfies": false, "double_blank": 50}','2026-12-01T19:46:52+00:00','2026-12-01T19:46:52+00:00',NULL,9,NULL);
INSERT INTO "games" VALUES('bfbfe6c6a954','Oops',2,'["Eve", "Fay"]','{"deal": "A", "starter": "engine_holder", "first_turn": "train", "first_turn_stuck": "marker", "double_owner_satisfies": false, "double_blank": 50}','2026-12-01T19:46:52+00:00','2026-12-01T19:46:52+00:00','2026-12-01T19:46:52+00:00',4,NULL);
CREATE TABLE "moves" (
   "id" INTEGER PRIMARY KEY,
   "game_id" TEXT REFERENCES "games"("id"),
   "number" INTEGER,
   "seq" INTEGER,
   "data" TEXT,
   "at" TEXT
, "undone_at" TEXT);
INSERT INTO "moves" VALUES(1,'956d3b6b542f',2,0,'{"type": "play", "tile": [1, 1], "train": 0}','2026-12-01T19:46:52+00:00',NULL);
INSERT INTO "moves" VALUES(2,'956d3b6b542f',2,1,'{"type": "draw"}','2026-12-01T19:46:52+00:00','2026-12-01T19:46:52+00:00');
CREATE TABLE "rounds" (
   "game_id" TEXT REFERENCES "games"("id"),
   "number" INTEGER,
   "engine" INTEGER,
   "revision" INTEGER,
   "updated_at" TEXT,
   PRIMARY KEY ("game_id", "number")
);
INSERT INTO "rounds" VALUES('16845a8f7c79',1,2,1,'2026-12-01T19:46:52+00:00');
INSERT INTO "rounds" VALUES('16845a8f7c79',2,1,4,'2026-12-01T19:46:52+00:00');
INSERT INTO "rounds" VALUES('16845a8f7c79',3,0,1,'2026-12-01T19:46:52+00:00');
INSERT INTO "rounds" VALUES('956d3b6b542f',1,2,1,'2026-12-01T19:46:52+00:00');
INSERT INTO "rounds" VALUES('956d3b6b542f',2,1,0,'2026-12-01T19:46:52+00:00');
INSERT INTO "rounds" VALUES('956d3b6b542f',3,0,0,'2026-12-01T19:46:52+00:00');
INSERT INTO "rounds" VALUES('bfbfe6c6a954',1,2,0,'2026-12-01T19:46:52+00:00');
INSERT INTO "rounds" VALUES('bfbfe6c6a954',2,1,0,'2026-12-01T19:46:52+00:00');
INSERT INTO "rounds" VALUES('bfbfe6c6a954',3,0,0,'2026-12-01T19:46:52+00:00');
CREATE TABLE "scores" (
   "game_id" TEXT REFERENCES "games"("id"),
   "number" INTEGER,
   "player" TEXT,
   "score" INTEGER,
   "hand" TEXT,
   PRIMARY KEY ("game_id", "number", "player")
);
INSERT INTO "scores" VALUES('16845a8f7c79',1,'Ann',0,NULL);
INSERT INTO "scores" VALUES('16845a8f7c79',1,'Bob',7,NULL);
INSERT INTO "scores" VALUES('16845a8f7c79',1,'Chi',3,NULL);
INSERT INTO "scores" VALUES('16845a8f7c79',2,'Ann',5,NULL);
INSERT INTO "scores" VALUES('16845a8f7c79',2,'Bob',0,NULL);
INSERT INTO "scores" VALUES('16845a8f7c79',2,'Chi',8,NULL);
INSERT INTO "scores" VALUES('16845a8f7c79',3,'Ann',2,NULL);
INSERT INTO "scores" VALUES('16845a8f7c79',3,'Bob',6,NULL);
INSERT INTO "scores" VALUES('16845a8f7c79',3,'Chi',0,NULL);
INSERT INTO "scores" VALUES('956d3b6b542f',1,'Ann',4,NULL);
INSERT INTO "scores" VALUES('956d3b6b542f',1,'Dee',0,NULL);
CREATE UNIQUE INDEX "idx__sqlite_migrations_migration_set_name"
    ON "_sqlite_migrations" ("migration_set", "name");
CREATE INDEX "idx_changes_game_id_id"
    ON "changes" ("game_id", "id");
CREATE INDEX "idx_edits_game_id_id"
    ON "edits" ("game_id", "id");
CREATE UNIQUE INDEX "idx_moves_game_id_number_seq"
    ON "moves" ("game_id", "number", "seq");
CREATE INDEX "idx_games_deleted_at"
    ON "games" ("deleted_at");
CREATE TRIGGER rounds_insert_bumps_version AFTER INSERT ON rounds BEGIN UPDATE games SET version = version + 1 WHERE id = NEW.game_id; END;
CREATE TRIGGER rounds_update_bumps_version AFTER UPDATE ON rounds BEGIN UPDATE games SET version = version + 1 WHERE id = NEW.game_id; END;
CREATE TRIGGER rounds_delete_bumps_version AFTER DELETE ON rounds BEGIN UPDATE games SET version = version + 1 WHERE id = OLD.game_id; END;
CREATE TRIGGER scores_insert_bumps_version AFTER INSERT ON scores BEGIN UPDATE games SET version = version + 1 WHERE id = NEW.game_id; END;
CREATE TRIGGER scores_update_bumps_version AFTER UPDATE ON scores BEGIN UPDATE games SET version = version + 1 WHERE id = NEW.game_id; END;
CREATE TRIGGER scores_delete_bumps_version AFTER DELETE ON scores BEGIN UPDATE games SET version = version + 1 WHERE id = OLD.game_id; END;
CREATE TRIGGER moves_insert_bumps_version AFTER INSERT ON moves BEGIN UPDATE games SET version = version + 1 WHERE id = NEW.game_id; END;
CREATE TRIGGER moves_update_bumps_version AFTER UPDATE ON moves BEGIN UPDATE games SET version = version + 1 WHERE id = NEW.game_id; END;
CREATE TRIGGER moves_delete_bumps_version AFTER DELETE ON moves BEGIN UPDATE games SET version = version + 1 WHERE id = OLD.game_id; END;
CREATE TRIGGER games_update_bumps_version AFTER UPDATE OF name, deleted_at, pin_hash ON games BEGIN UPDATE games SET version = version + 1 WHERE id = NEW.id; END;
COMMIT;
