BEGIN TRANSACTION;
CREATE TABLE "_sqlite_migrations" (
   "id" INTEGER PRIMARY KEY,
   "migration_set" TEXT,
   "name" TEXT,
   "applied_at" TEXT
);
INSERT INTO "_sqlite_migrations" VALUES(1,'scorekeeper','m001_initial','2026-12-01 19:46:51.065260+00:00');
INSERT INTO "_sqlite_migrations" VALUES(2,'scorekeeper','m002_live_moves','2026-12-01 19:46:51.081381+00:00');
INSERT INTO "_sqlite_migrations" VALUES(3,'scorekeeper','m003_move_undo','2026-12-01 19:46:51.086405+00:00');
INSERT INTO "_sqlite_migrations" VALUES(4,'scorekeeper','m004_trash','2026-12-01 19:46:51.089828+00:00');
INSERT INTO "_sqlite_migrations" VALUES(5,'scorekeeper','m010_version_and_pin','2026-12-01 19:46:51.107210+00:00');
INSERT INTO "_sqlite_migrations" VALUES(6,'scorekeeper','m011_people_and_seasons','2026-12-01 19:46:51.125465+00:00');
CREATE TABLE "aliases" (
   "key" TEXT PRIMARY KEY,
   "person" TEXT,
   "name" TEXT,
   "of_name" TEXT,
   "created_at" TEXT
);
INSERT INTO "aliases" VALUES('dee','chi','Dee','Chi','2026-12-01T19:46:51+00:00');
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
INSERT INTO "changes" VALUES(1,1,'77c6a5563147',1,'Ann',NULL,0,'2026-12-01T19:46:51+00:00');
INSERT INTO "changes" VALUES(2,1,'77c6a5563147',1,'Bob',NULL,7,'2026-12-01T19:46:51+00:00');
INSERT INTO "changes" VALUES(3,1,'77c6a5563147',1,'Chi',NULL,3,'2026-12-01T19:46:51+00:00');
INSERT INTO "changes" VALUES(4,2,'77c6a5563147',2,'Ann',NULL,5,'2026-12-01T19:46:51+00:00');
INSERT INTO "changes" VALUES(5,2,'77c6a5563147',2,'Bob',NULL,0,'2026-12-01T19:46:51+00:00');
INSERT INTO "changes" VALUES(6,2,'77c6a5563147',2,'Chi',NULL,9,'2026-12-01T19:46:51+00:00');
INSERT INTO "changes" VALUES(7,3,'77c6a5563147',2,'Chi',9,8,'2026-12-01T19:46:51+00:00');
INSERT INTO "changes" VALUES(8,4,'77c6a5563147',2,'Chi',8,9,'2026-12-01T19:46:51+00:00');
INSERT INTO "changes" VALUES(9,5,'77c6a5563147',2,'Chi',9,8,'2026-12-01T19:46:51+00:00');
INSERT INTO "changes" VALUES(10,6,'77c6a5563147',3,'Ann',NULL,2,'2026-12-01T19:46:51+00:00');
INSERT INTO "changes" VALUES(11,6,'77c6a5563147',3,'Bob',NULL,6,'2026-12-01T19:46:51+00:00');
INSERT INTO "changes" VALUES(12,6,'77c6a5563147',3,'Chi',NULL,0,'2026-12-01T19:46:51+00:00');
INSERT INTO "changes" VALUES(13,7,'7e0a6e4aa263',1,'Ann',NULL,4,'2026-12-01T19:46:51+00:00');
INSERT INTO "changes" VALUES(14,7,'7e0a6e4aa263',1,'Dee',NULL,0,'2026-12-01T19:46:51+00:00');
CREATE TABLE club (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
INSERT INTO "club" VALUES(1,27);
CREATE TABLE "edits" (
   "id" INTEGER PRIMARY KEY,
   "game_id" TEXT REFERENCES "games"("id"),
   "number" INTEGER,
   "at" TEXT,
   "undo_of" INTEGER
, "redo_of" INTEGER);
INSERT INTO "edits" VALUES(1,'77c6a5563147',1,'2026-12-01T19:46:51+00:00',NULL,NULL);
INSERT INTO "edits" VALUES(2,'77c6a5563147',2,'2026-12-01T19:46:51+00:00',NULL,NULL);
INSERT INTO "edits" VALUES(3,'77c6a5563147',2,'2026-12-01T19:46:51+00:00',NULL,NULL);
INSERT INTO "edits" VALUES(4,'77c6a5563147',2,'2026-12-01T19:46:51+00:00',3,NULL);
INSERT INTO "edits" VALUES(5,'77c6a5563147',2,'2026-12-01T19:46:51+00:00',NULL,4);
INSERT INTO "edits" VALUES(6,'77c6a5563147',3,'2026-12-01T19:46:51+00:00',NULL,NULL);
INSERT INTO "edits" VALUES(7,'7e0a6e4aa263',1,'2026-12-01T19:46:51+00:00',NULL,NULL);
CREATE TABLE "games" (
   "id" TEXT PRIMARY KEY,
   "name" TEXT,
   "set_n" INTEGER,
   "players" TEXT,
   "rules" TEXT,
   "created_at" TEXT,
   "updated_at" TEXT
, "deleted_at" TEXT, "version" INTEGER NOT NULL DEFAULT 0, "pin_hash" TEXT);
INSERT INTO "games" VALUES('77c6a5563147','Friday',2,'["Ann", "Bob", "Chi"]','{"deal": "A", "starter": "engine_holder", "first_turn": "train", "first_turn_stuck": "marker", "double_owner_satisfies": false, "double_blank": 50}','2026-12-01T19:46:51+00:00','2026-12-01T19:46:51+00:00',NULL,23,NULL);
INSERT INTO "games" VALUES('7e0a6e4aa263','',2,'["Ann", "Dee"]','{"deal": "A", "starter": "engine_holder", "first_turn": "train", "first_turn_stuck": "marker", "double_owner_satisfies": false, "double_blank": 50}','2026-12-01T19:46:51+00:00','2026-12-01T19:46:51+00:00',NULL,9,NULL);
INSERT INTO "games" VALUES('c10b1a4da982','Oops',2,'["Eve", "Fay"]','{"deal": "A", "starter": "engine_holder", "first_turn": "train", "first_turn_stuck": "marker", "double_owner_satisfies": false, "double_blank": 50}','2026-12-01T19:46:51+00:00','2026-12-01T19:46:51+00:00','2026-12-01T19:46:51+00:00',4,NULL);
CREATE TABLE "moves" (
   "id" INTEGER PRIMARY KEY,
   "game_id" TEXT REFERENCES "games"("id"),
   "number" INTEGER,
   "seq" INTEGER,
   "data" TEXT,
   "at" TEXT
, "undone_at" TEXT);
INSERT INTO "moves" VALUES(1,'7e0a6e4aa263',2,0,'{"type": "play", "tile": [1, 1], "train": 0}','2026-12-01T19:46:51+00:00',NULL);
INSERT INTO "moves" VALUES(2,'7e0a6e4aa263',2,1,'{"type": "draw"}','2026-12-01T19:46:51+00:00','2026-12-01T19:46:51+00:00');
CREATE TABLE "persons" (
   "person" TEXT PRIMARY KEY,
   "name" TEXT,
   "stamp" TEXT
);
INSERT INTO "persons" VALUES('bob','Bob','2026-12-01T19:46:51+00:00#000000000001');
INSERT INTO "persons" VALUES('ann','Ann','2026-12-01T19:46:51+00:00#000000000002');
INSERT INTO "persons" VALUES('chi','Dee','2026-12-01T19:46:51+00:00#000000000002');
CREATE TABLE "rounds" (
   "game_id" TEXT REFERENCES "games"("id"),
   "number" INTEGER,
   "engine" INTEGER,
   "revision" INTEGER,
   "updated_at" TEXT,
   PRIMARY KEY ("game_id", "number")
);
INSERT INTO "rounds" VALUES('77c6a5563147',1,2,1,'2026-12-01T19:46:51+00:00');
INSERT INTO "rounds" VALUES('77c6a5563147',2,1,4,'2026-12-01T19:46:51+00:00');
INSERT INTO "rounds" VALUES('77c6a5563147',3,0,1,'2026-12-01T19:46:51+00:00');
INSERT INTO "rounds" VALUES('7e0a6e4aa263',1,2,1,'2026-12-01T19:46:51+00:00');
INSERT INTO "rounds" VALUES('7e0a6e4aa263',2,1,0,'2026-12-01T19:46:51+00:00');
INSERT INTO "rounds" VALUES('7e0a6e4aa263',3,0,0,'2026-12-01T19:46:51+00:00');
INSERT INTO "rounds" VALUES('c10b1a4da982',1,2,0,'2026-12-01T19:46:51+00:00');
INSERT INTO "rounds" VALUES('c10b1a4da982',2,1,0,'2026-12-01T19:46:51+00:00');
INSERT INTO "rounds" VALUES('c10b1a4da982',3,0,0,'2026-12-01T19:46:51+00:00');
CREATE TABLE "scores" (
   "game_id" TEXT REFERENCES "games"("id"),
   "number" INTEGER,
   "player" TEXT,
   "score" INTEGER,
   "hand" TEXT,
   PRIMARY KEY ("game_id", "number", "player")
);
INSERT INTO "scores" VALUES('77c6a5563147',1,'Ann',0,NULL);
INSERT INTO "scores" VALUES('77c6a5563147',1,'Bob',7,NULL);
INSERT INTO "scores" VALUES('77c6a5563147',1,'Chi',3,NULL);
INSERT INTO "scores" VALUES('77c6a5563147',2,'Ann',5,NULL);
INSERT INTO "scores" VALUES('77c6a5563147',2,'Bob',0,NULL);
INSERT INTO "scores" VALUES('77c6a5563147',2,'Chi',8,NULL);
INSERT INTO "scores" VALUES('77c6a5563147',3,'Ann',2,NULL);
INSERT INTO "scores" VALUES('77c6a5563147',3,'Bob',6,NULL);
INSERT INTO "scores" VALUES('77c6a5563147',3,'Chi',0,NULL);
INSERT INTO "scores" VALUES('7e0a6e4aa263',1,'Ann',4,NULL);
INSERT INTO "scores" VALUES('7e0a6e4aa263',1,'Dee',0,NULL);
CREATE TABLE "seasons" (
   "id" TEXT PRIMARY KEY,
   "name" TEXT,
   "start" TEXT,
   "end" TEXT,
   "created_at" TEXT
);
INSERT INTO "seasons" VALUES('b590657101','Autumn 2026','2026-09-01','2026-12-31','2026-12-01T19:46:51+00:00');
CREATE TABLE "seats" (
   "game_id" TEXT REFERENCES "games"("id"),
   "seat" INTEGER,
   "name" TEXT,
   "key" TEXT,
   "person" TEXT,
   "total" INTEGER,
   "zero_rounds" INTEGER,
   "lowest_nonzero" INTEGER,
   "rounds" INTEGER,
   "place" INTEGER,
   "players" INTEGER,
   "complete" INTEGER,
   "live" INTEGER,
   "day" TEXT,
   "stamp" TEXT,
   PRIMARY KEY ("game_id", "seat")
);
INSERT INTO "seats" VALUES('77c6a5563147',0,'Ann','ann','ann',7,1,2,3,1,3,1,1,'2026-12-01','2026-12-01T19:46:51+00:00#000000000001');
INSERT INTO "seats" VALUES('77c6a5563147',1,'Bob','bob','bob',13,1,6,3,3,3,1,1,'2026-12-01','2026-12-01T19:46:51+00:00#000000000001');
INSERT INTO "seats" VALUES('77c6a5563147',2,'Chi','chi','chi',11,1,3,3,2,3,1,1,'2026-12-01','2026-12-01T19:46:51+00:00#000000000001');
INSERT INTO "seats" VALUES('7e0a6e4aa263',0,'Ann','ann','ann',4,0,4,1,NULL,2,0,1,'2026-12-01','2026-12-01T19:46:51+00:00#000000000002');
INSERT INTO "seats" VALUES('7e0a6e4aa263',1,'Dee','dee','chi',0,1,NULL,1,NULL,2,0,1,'2026-12-01','2026-12-01T19:46:51+00:00#000000000002');
INSERT INTO "seats" VALUES('c10b1a4da982',0,'Eve','eve','eve',0,0,NULL,0,NULL,2,0,0,'2026-12-01','2026-12-01T19:46:51+00:00#000000000003');
INSERT INTO "seats" VALUES('c10b1a4da982',1,'Fay','fay','fay',0,0,NULL,0,NULL,2,0,0,'2026-12-01','2026-12-01T19:46:51+00:00#000000000003');
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
CREATE INDEX "idx_seats_person_complete_live"
    ON "seats" ("person", "complete", "live");
CREATE INDEX "idx_seats_key"
    ON "seats" ("key");
CREATE INDEX "idx_seats_live_person_stamp_name"
    ON "seats" ("live", "person", "stamp", "name");
CREATE INDEX "idx_seats_complete_live_person_day_place_rounds_total_zero_rounds"
    ON "seats" ("complete", "live", "person", "day", "place", "rounds", "total", "zero_rounds");
CREATE INDEX "idx_aliases_person"
    ON "aliases" ("person");
CREATE INDEX "idx_games_created_at"
    ON "games" ("created_at");
CREATE TRIGGER seats_insert_bumps_club AFTER INSERT ON seats BEGIN UPDATE club SET version = version + 1; END;
CREATE TRIGGER seats_update_bumps_club AFTER UPDATE ON seats WHEN OLD.complete = 1 OR NEW.complete = 1 OR OLD.live != NEW.live OR OLD.person != NEW.person BEGIN UPDATE club SET version = version + 1; END;
CREATE TRIGGER seats_delete_bumps_club AFTER DELETE ON seats BEGIN UPDATE club SET version = version + 1; END;
CREATE TRIGGER aliases_insert_bumps_club AFTER INSERT ON aliases BEGIN UPDATE club SET version = version + 1; END;
CREATE TRIGGER aliases_update_bumps_club AFTER UPDATE ON aliases BEGIN UPDATE club SET version = version + 1; END;
CREATE TRIGGER aliases_delete_bumps_club AFTER DELETE ON aliases BEGIN UPDATE club SET version = version + 1; END;
CREATE TRIGGER seasons_insert_bumps_club AFTER INSERT ON seasons BEGIN UPDATE club SET version = version + 1; END;
CREATE TRIGGER seasons_update_bumps_club AFTER UPDATE ON seasons BEGIN UPDATE club SET version = version + 1; END;
CREATE TRIGGER seasons_delete_bumps_club AFTER DELETE ON seasons BEGIN UPDATE club SET version = version + 1; END;
CREATE TRIGGER persons_insert_bumps_club AFTER INSERT ON persons BEGIN UPDATE club SET version = version + 1; END;
CREATE TRIGGER persons_update_bumps_club AFTER UPDATE ON persons BEGIN UPDATE club SET version = version + 1; END;
CREATE TRIGGER persons_delete_bumps_club AFTER DELETE ON persons BEGIN UPDATE club SET version = version + 1; END;
CREATE TRIGGER games_trash_bumps_club AFTER UPDATE OF deleted_at, name ON games BEGIN UPDATE club SET version = version + 1; END;
COMMIT;
