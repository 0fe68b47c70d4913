CREATE TABLE `agent_feeds` (
	`listener_id` integer NOT NULL,
	`agent_key` text NOT NULL,
	`verticals` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`listener_id`, `agent_key`),
	FOREIGN KEY (`listener_id`) REFERENCES `listeners`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `listeners` ADD `plan` text DEFAULT 'free' NOT NULL;