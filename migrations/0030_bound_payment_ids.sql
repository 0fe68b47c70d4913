-- Issue 40 items 3, 6 and 7.
-- Item 6: a remembered answer is bound to its payer and resource, kept only while a retry can come, and
-- sealed. The answers kept so far are plaintext and unbounded: dropped (a repeat of one is a replay now).
DROP TABLE `x402_payment_ids`;
CREATE TABLE `x402_payment_ids` (
	`payer` text NOT NULL,
	`id` text NOT NULL,
	`resource` text NOT NULL,
	`payload_sha256` text NOT NULL,
	`x402_call_id` integer NOT NULL,
	`result` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`payer`, `id`),
	FOREIGN KEY (`x402_call_id`) REFERENCES `x402_calls`(`id`) ON UPDATE no action ON DELETE no action
);
CREATE INDEX `x402_payment_ids_expires_idx` ON `x402_payment_ids` (`expires_at`);
-- Item 7: a reservation is pruned once its authorization can no longer be used; those kept so far get a day.
ALTER TABLE `x402_reservations` ADD `expires_at` integer DEFAULT 0 NOT NULL;
UPDATE `x402_reservations` SET `expires_at` = `created_at` + 86400000;
CREATE INDEX `x402_reservations_expires_idx` ON `x402_reservations` (`expires_at`);
-- Item 3: the publisher whose key queued a raw-text job, whose stored audio alone the job may reuse.
ALTER TABLE `render_jobs` ADD `publisher` text;
