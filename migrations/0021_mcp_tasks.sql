CREATE TABLE `mcp_tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`job_id` text NOT NULL,
	`owner` text,
	`slug` text NOT NULL,
	`listener_id` integer,
	`paid` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`expires_at` integer NOT NULL,
	`cancelled_at` integer
);
--> statement-breakpoint
CREATE INDEX `mcp_tasks_owner` ON `mcp_tasks` (`owner`,`created_at`);