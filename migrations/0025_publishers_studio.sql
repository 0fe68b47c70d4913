-- The publishers' studio (issue 43 items 1-4): members, their sessions, a publisher's settings
-- (review before release) and the note of a rejected render. Job states awaiting_review and
-- rejected need no change: render_jobs.state is plain text.
CREATE TABLE `publisher_members` (
	`publisher` text NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`publisher`, `email`)
);
--> statement-breakpoint
CREATE INDEX `publisher_members_email_idx` ON `publisher_members` (`email`);
--> statement-breakpoint
CREATE TABLE `publisher_settings` (
	`publisher` text PRIMARY KEY NOT NULL,
	`review_before_release` integer DEFAULT false NOT NULL,
	`updated_at` integer
);
--> statement-breakpoint
CREATE TABLE `studio_sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`email` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `studio_sessions_token_hash_unique` ON `studio_sessions` (`token_hash`);
--> statement-breakpoint
CREATE INDEX `studio_sessions_email_idx` ON `studio_sessions` (`email`);
--> statement-breakpoint
CREATE INDEX `studio_sessions_expires_idx` ON `studio_sessions` (`expires_at`);
--> statement-breakpoint
ALTER TABLE `render_jobs` ADD `review_note` text;
