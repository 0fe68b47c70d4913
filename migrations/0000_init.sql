CREATE TABLE `articles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`publisher` text NOT NULL,
	`vertical` text NOT NULL,
	`summary` text DEFAULT '' NOT NULL,
	`body_text` text NOT NULL,
	`url` text,
	`visibility` text DEFAULT 'public' NOT NULL,
	`owner_listener_id` integer,
	`creator_id` integer,
	`host` text,
	`curated` integer DEFAULT false NOT NULL,
	`declassified` integer DEFAULT false NOT NULL,
	`voice` text,
	`content_hash` text NOT NULL,
	`audio_key` text,
	`listen_seconds` integer,
	`published_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`owner_listener_id`) REFERENCES `listeners`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`creator_id`) REFERENCES `creators`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `articles_slug_unique` ON `articles` (`slug`);--> statement-breakpoint
CREATE INDEX `articles_created_at_idx` ON `articles` (`created_at`);--> statement-breakpoint
CREATE INDEX `articles_vertical_created_at_idx` ON `articles` (`vertical`,`created_at`);--> statement-breakpoint
CREATE INDEX `articles_owner_idx` ON `articles` (`owner_listener_id`);--> statement-breakpoint
CREATE INDEX `articles_host_idx` ON `articles` (`host`,`created_at`);--> statement-breakpoint
CREATE TABLE `creators` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`claimed_by_email` text,
	`claim_token_hash` text,
	`claimed_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `creators_slug_unique` ON `creators` (`slug`);--> statement-breakpoint
CREATE TABLE `ledger_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`play_id` integer,
	`listener_id` integer,
	`publisher` text NOT NULL,
	`party` text,
	`source` text NOT NULL,
	`amount_micros` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`play_id`) REFERENCES `plays`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`listener_id`) REFERENCES `listeners`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `ledger_listener_publisher_idx` ON `ledger_entries` (`listener_id`,`publisher`,`created_at`);--> statement-breakpoint
CREATE TABLE `plays` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`article_id` integer NOT NULL,
	`listener_id` integer,
	`agent_id` text,
	`seconds` integer DEFAULT 0 NOT NULL,
	`amount_micros` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`article_id`) REFERENCES `articles`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`listener_id`) REFERENCES `listeners`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `plays_article_created_idx` ON `plays` (`article_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `alpha_signups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`name` text,
	`note` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `alpha_signups_email_unique` ON `alpha_signups` (`email`);--> statement-breakpoint
CREATE TABLE `flo_overrides` (
	`listener_id` integer NOT NULL,
	`block_id` text NOT NULL,
	`manual_order` text,
	`verticals` text,
	`tone` text,
	`updated_at` integer,
	PRIMARY KEY(`listener_id`, `block_id`),
	FOREIGN KEY (`listener_id`) REFERENCES `listeners`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `listeners` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`token_hash` text NOT NULL,
	`token_encrypted` text NOT NULL,
	`private_feed_token_hash` text,
	`private_feed_token_encrypted` text,
	`verticals` text DEFAULT '[]' NOT NULL,
	`preferred_vertical` text,
	`wallet_address` text,
	`timezone` text DEFAULT 'UTC' NOT NULL,
	`intake_listener_email` text,
	`taste_vector` text,
	`active` integer DEFAULT true NOT NULL,
	`first_render_done_at` integer,
	`last_digest_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`updated_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `listeners_email_unique` ON `listeners` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `listeners_token_hash_unique` ON `listeners` (`token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `listeners_private_feed_token_hash_unique` ON `listeners` (`private_feed_token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `listeners_intake_listener_email_unique` ON `listeners` (`intake_listener_email`);--> statement-breakpoint
CREATE INDEX `listeners_active_idx` ON `listeners` (`active`);--> statement-breakpoint
CREATE TABLE `magic_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`scope` text NOT NULL,
	`email` text NOT NULL,
	`listener_id` integer,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`listener_id`) REFERENCES `listeners`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `magic_tokens_token_hash_unique` ON `magic_tokens` (`token_hash`);--> statement-breakpoint
CREATE TABLE `audio_objects` (
	`key` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`voice` text NOT NULL,
	`duration_seconds` real NOT NULL,
	`mp3_bytes` integer,
	`opus_bytes` integer,
	`wav_bytes` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `render_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`article_id` integer,
	`listener_id` integer,
	`text` text,
	`voice` text,
	`provider` text,
	`priority` text DEFAULT 'normal' NOT NULL,
	`state` text DEFAULT 'queued' NOT NULL,
	`audio_key` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	FOREIGN KEY (`article_id`) REFERENCES `articles`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`listener_id`) REFERENCES `listeners`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `render_jobs_article_state_idx` ON `render_jobs` (`article_id`,`state`);--> statement-breakpoint
CREATE INDEX `render_jobs_listener_state_idx` ON `render_jobs` (`listener_id`,`state`);--> statement-breakpoint
CREATE INDEX `render_jobs_state_finished_idx` ON `render_jobs` (`state`,`finished_at`);