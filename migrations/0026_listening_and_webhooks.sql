-- Listening numbers (docs/publishers.md "Listening numbers") and outbound webhooks (docs/publishers.md "Webhooks").
CREATE TABLE `listener_salts` (
	`day` text PRIMARY KEY NOT NULL,
	`salt` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `download_windows` (
	`listener_hash` text NOT NULL,
	`article_id` integer NOT NULL,
	`started_at` integer NOT NULL,
	`app` text NOT NULL,
	`counted_by` text,
	PRIMARY KEY(`listener_hash`, `article_id`)
);
--> statement-breakpoint
CREATE INDEX `download_windows_started_idx` ON `download_windows` (`started_at`);
--> statement-breakpoint
CREATE TABLE `download_spans` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`listener_hash` text NOT NULL,
	`article_id` integer NOT NULL,
	`first_byte` integer NOT NULL,
	`last_byte` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `download_spans_window_idx` ON `download_spans` (`listener_hash`,`article_id`);
--> statement-breakpoint
CREATE INDEX `download_spans_created_idx` ON `download_spans` (`created_at`);
--> statement-breakpoint
CREATE TABLE `beacon_marks` (
	`listener_hash` text NOT NULL,
	`article_id` integer NOT NULL,
	`event` text NOT NULL,
	`claim` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`listener_hash`, `article_id`, `event`)
);
--> statement-breakpoint
CREATE INDEX `beacon_marks_created_idx` ON `beacon_marks` (`created_at`);
--> statement-breakpoint
CREATE TABLE `listening_days` (
	`publisher` text NOT NULL,
	`day` text NOT NULL,
	`article_id` integer NOT NULL,
	`app` text NOT NULL,
	`downloads` integer DEFAULT 0 NOT NULL,
	`starts` integer DEFAULT 0 NOT NULL,
	`completions` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`publisher`, `day`, `article_id`, `app`)
);
--> statement-breakpoint
CREATE TABLE `daily_listeners` (
	`publisher` text NOT NULL,
	`day` text NOT NULL,
	`listener_hash` text NOT NULL,
	PRIMARY KEY(`publisher`, `day`, `listener_hash`)
);
--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`publisher` text NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`secret_encrypted` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_publisher_idx` ON `webhook_endpoints` (`publisher`);
--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`endpoint_id` text NOT NULL,
	`publisher` text NOT NULL,
	`event` text NOT NULL,
	`payload` text NOT NULL,
	`state` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_status` integer,
	`last_error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`delivered_at` integer
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_publisher_idx` ON `webhook_deliveries` (`publisher`,`created_at`);
