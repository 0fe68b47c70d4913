-- Search in every language (issue 42 item 6; workers/articles/search-index.ts). The word index is
-- rebuilt to fold diacritics ("Munchen" finds "München", unicode61 remove_diacritics 2), and a
-- second index of trigrams serves scripts written without spaces (Japanese, Chinese, Thai), where
-- unicode61 makes one token of a whole run of text. Both are external-content tables over articles:
-- the text lives once; the triggers keep both indexes in step with it.
DROP TRIGGER IF EXISTS articles_fts_after_insert;
--> statement-breakpoint
DROP TRIGGER IF EXISTS articles_fts_after_delete;
--> statement-breakpoint
DROP TRIGGER IF EXISTS articles_fts_after_update;
--> statement-breakpoint
DROP TABLE IF EXISTS articles_fts;
--> statement-breakpoint
CREATE VIRTUAL TABLE articles_fts USING fts5(
  title,
  summary,
  body_text,
  content='articles',
  content_rowid='id',
  tokenize='porter unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE VIRTUAL TABLE articles_trigram USING fts5(
  title,
  summary,
  body_text,
  content='articles',
  content_rowid='id',
  tokenize='trigram remove_diacritics 1'
);
--> statement-breakpoint
CREATE TRIGGER articles_fts_after_insert AFTER INSERT ON articles BEGIN
  INSERT INTO articles_fts(rowid, title, summary, body_text) VALUES (new.id, new.title, new.summary, new.body_text);
  INSERT INTO articles_trigram(rowid, title, summary, body_text) VALUES (new.id, new.title, new.summary, new.body_text);
END;
--> statement-breakpoint
CREATE TRIGGER articles_fts_after_delete AFTER DELETE ON articles BEGIN
  INSERT INTO articles_fts(articles_fts, rowid, title, summary, body_text) VALUES ('delete', old.id, old.title, old.summary, old.body_text);
  INSERT INTO articles_trigram(articles_trigram, rowid, title, summary, body_text) VALUES ('delete', old.id, old.title, old.summary, old.body_text);
END;
--> statement-breakpoint
-- Only the indexed columns: audio_key and listen_seconds updates after a render leave the indexes alone.
CREATE TRIGGER articles_fts_after_update AFTER UPDATE OF title, summary, body_text ON articles BEGIN
  INSERT INTO articles_fts(articles_fts, rowid, title, summary, body_text) VALUES ('delete', old.id, old.title, old.summary, old.body_text);
  INSERT INTO articles_fts(rowid, title, summary, body_text) VALUES (new.id, new.title, new.summary, new.body_text);
  INSERT INTO articles_trigram(articles_trigram, rowid, title, summary, body_text) VALUES ('delete', old.id, old.title, old.summary, old.body_text);
  INSERT INTO articles_trigram(rowid, title, summary, body_text) VALUES (new.id, new.title, new.summary, new.body_text);
END;
--> statement-breakpoint
INSERT INTO articles_fts(articles_fts) VALUES ('rebuild');
--> statement-breakpoint
INSERT INTO articles_trigram(articles_trigram) VALUES ('rebuild');
