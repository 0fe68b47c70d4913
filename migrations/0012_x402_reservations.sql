CREATE TABLE `x402_reservations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`network` text NOT NULL,
	`asset` text NOT NULL,
	`payer` text NOT NULL,
	`nonce` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `x402_reservations_authorization_idx` ON `x402_reservations` (`network`,`asset`,`payer`,`nonce`);