-- Issue 42: the language a narration is spoken in (workers/kernel/language.ts). Articles published
-- before it were all English.
ALTER TABLE `articles` ADD `language` text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE `articles` ADD `language_source` text DEFAULT 'detected' NOT NULL;--> statement-breakpoint
CREATE INDEX `articles_language_created_at_idx` ON `articles` (`language`,`created_at`);--> statement-breakpoint
ALTER TABLE `render_jobs` ADD `language` text;--> statement-breakpoint
ALTER TABLE `render_jobs` ADD `language_source` text;
