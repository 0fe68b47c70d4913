ALTER TABLE `render_jobs` ADD `characters_synthesized` integer;--> statement-breakpoint
ALTER TABLE `render_jobs` ADD `paragraphs_reused` integer;