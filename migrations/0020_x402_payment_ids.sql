CREATE TABLE `x402_payment_ids` (
	`id` text PRIMARY KEY NOT NULL,
	`payload_sha256` text NOT NULL,
	`x402_call_id` integer NOT NULL,
	`result` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`x402_call_id`) REFERENCES `x402_calls`(`id`) ON UPDATE no action ON DELETE no action
);
