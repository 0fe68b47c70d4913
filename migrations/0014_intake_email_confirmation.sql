-- Existing intake addresses start unconfirmed: none of them was ever proven to belong to its listener
-- (issue 29 item 8e), so mail from them is attributed again only once the mailbox confirms.
ALTER TABLE `listeners` ADD `intake_email_confirmed_at` integer;