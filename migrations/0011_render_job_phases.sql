ALTER TABLE `render_jobs` ADD `synthesis_ms` integer;--> statement-breakpoint
ALTER TABLE `render_jobs` ADD `encoding_ms` integer;