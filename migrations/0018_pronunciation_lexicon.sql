CREATE TABLE `lexicon_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`publisher` text DEFAULT '' NOT NULL,
	`grapheme` text NOT NULL,
	`phoneme` text,
	`alias` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lexicon_entries_publisher_grapheme_idx` ON `lexicon_entries` (`publisher`,`grapheme`);--> statement-breakpoint
ALTER TABLE `audio_objects` ADD `lexicon_digest` text;