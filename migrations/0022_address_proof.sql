-- Issue 40 (security, second pass), items 1 and 10.
-- When the listener first proved their address by a magic-link sign-in; null until then. Credentials
-- minted before it are replaced at that moment (workers/kernel/listener-account.ts proveAddress).
ALTER TABLE `listeners` ADD `email_proven_at` integer;
--> statement-breakpoint
-- SHA-256 of the Idempotency-Key of the subscribe that created the row: only a repeat carrying it gets the token back.
ALTER TABLE `listeners` ADD `subscribe_key_hash` text;
--> statement-breakpoint
-- When a repeat subscribe last mailed the address a sign-in link: at most one such mail per few minutes.
ALTER TABLE `listeners` ADD `sign_in_mailed_at` integer;
--> statement-breakpoint
-- When the intake address was named: an unconfirmed claim lapses once its confirmation link has expired.
ALTER TABLE `listeners` ADD `intake_email_claimed_at` integer;
