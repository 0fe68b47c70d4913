-- Issue 40 item 7: a paid call that fails after its payment settled leaves the payer a credit, used once by
-- their next paid call for the same thing, which is then answered without a second settlement. A paid render
-- answered pending leaves one that counts only once its job (job_id) failed.
CREATE TABLE `x402_credits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`payer` text NOT NULL,
	`tool` text NOT NULL,
	`resource` text NOT NULL,
	`subject` text NOT NULL,
	`amount_micros` integer NOT NULL,
	`x402_call_id` integer NOT NULL,
	`job_id` text,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`x402_call_id`) REFERENCES `x402_calls`(`id`) ON UPDATE no action ON DELETE no action
);
CREATE INDEX `x402_credits_payer_idx` ON `x402_credits` (`payer`,`resource`);
CREATE INDEX `x402_credits_expires_idx` ON `x402_credits` (`expires_at`);
