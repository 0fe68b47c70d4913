ALTER TABLE `audio_objects` ADD `requested_voice` text;--> statement-breakpoint
ALTER TABLE `audio_objects` ADD `fallback` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `render_jobs` ADD `requested_voice` text;--> statement-breakpoint
ALTER TABLE `render_jobs` ADD `fallback` integer;