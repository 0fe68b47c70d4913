CREATE TABLE `web_sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`listener_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`listener_id`) REFERENCES `listeners`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `web_sessions_token_hash_unique` ON `web_sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `web_sessions_listener_idx` ON `web_sessions` (`listener_id`);--> statement-breakpoint
CREATE INDEX `web_sessions_expires_idx` ON `web_sessions` (`expires_at`);