CREATE TABLE `publisher_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`publisher` text NOT NULL,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `publisher_keys_prefix_unique` ON `publisher_keys` (`prefix`);--> statement-breakpoint
CREATE UNIQUE INDEX `publisher_keys_key_hash_unique` ON `publisher_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `publisher_keys_publisher_idx` ON `publisher_keys` (`publisher`);--> statement-breakpoint
CREATE TABLE `publisher_webhook_secrets` (
	`publisher` text PRIMARY KEY NOT NULL,
	`prefix` text NOT NULL,
	`secret_encrypted` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
