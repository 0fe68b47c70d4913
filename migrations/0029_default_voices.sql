-- A publisher's default voice per language (issue 42 item 2): a JSON object from a BCP 47 tag to a
-- catalogue voice id that speaks it; the selection rule tries it before the catalogue's best.
ALTER TABLE `publisher_settings` ADD `default_voices` text DEFAULT '{}' NOT NULL;
