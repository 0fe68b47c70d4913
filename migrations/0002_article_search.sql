-- Full-text search over the article archive (issue 4). An external-content FTS5 table: the text
-- lives once, in articles; the index holds only tokens. Porter stemming over unicode61 so
-- "rates" finds "rate". drizzle-kit knows nothing of virtual tables, hence this custom migration.
-- A later migration that rebuilds the articles table drops these triggers with it: recreate them
-- there and run POST /v1/admin/search/reindex.
CREATE VIRTUAL TABLE articles_fts USING fts5(
  title,
  summary,
  body_text,
  content='articles',
  content_rowid='id',
  tokenize='porter unicode61'
);
--> statement-breakpoint
CREATE TRIGGER articles_fts_after_insert AFTER INSERT ON articles BEGIN
  INSERT INTO articles_fts(rowid, title, summary, body_text) VALUES (new.id, new.title, new.summary, new.body_text);
END;
--> statement-breakpoint
CREATE TRIGGER articles_fts_after_delete AFTER DELETE ON articles BEGIN
  INSERT INTO articles_fts(articles_fts, rowid, title, summary, body_text) VALUES ('delete', old.id, old.title, old.summary, old.body_text);
END;
--> statement-breakpoint
-- Only the indexed columns: audio_key and listen_seconds updates after a render leave the index alone.
CREATE TRIGGER articles_fts_after_update AFTER UPDATE OF title, summary, body_text ON articles BEGIN
  INSERT INTO articles_fts(articles_fts, rowid, title, summary, body_text) VALUES ('delete', old.id, old.title, old.summary, old.body_text);
  INSERT INTO articles_fts(rowid, title, summary, body_text) VALUES (new.id, new.title, new.summary, new.body_text);
END;
--> statement-breakpoint
INSERT INTO articles_fts(articles_fts) VALUES ('rebuild');
