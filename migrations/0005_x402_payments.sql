CREATE TABLE `siwx_nonces` (
	`address` text NOT NULL,
	`nonce` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`address`, `nonce`)
);
--> statement-breakpoint
CREATE TABLE `x402_calls` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tool` text NOT NULL,
	`resource` text NOT NULL,
	`payer` text NOT NULL,
	`agent_id` text NOT NULL,
	`listener_id` integer,
	`network` text NOT NULL,
	`asset` text NOT NULL,
	`amount_micros` integer NOT NULL,
	`settlement` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`listener_id`) REFERENCES `listeners`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `x402_calls_settlement_idx` ON `x402_calls` (`network`,`settlement`);--> statement-breakpoint
CREATE INDEX `x402_calls_created_idx` ON `x402_calls` (`created_at`);--> statement-breakpoint
CREATE TABLE `x402_local_nonces` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`network` text NOT NULL,
	`asset` text NOT NULL,
	`payer` text NOT NULL,
	`nonce` text NOT NULL,
	`amount` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `x402_local_nonces_spent_idx` ON `x402_local_nonces` (`network`,`asset`,`payer`,`nonce`);--> statement-breakpoint
ALTER TABLE `ledger_entries` ADD `x402_call_id` integer REFERENCES x402_calls(id);--> statement-breakpoint
CREATE INDEX `ledger_created_idx` ON `ledger_entries` (`created_at`);