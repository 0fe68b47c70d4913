CREATE INDEX `articles_audio_key_idx` ON `articles` (`audio_key`);--> statement-breakpoint
CREATE INDEX `render_jobs_audio_key_idx` ON `render_jobs` (`audio_key`);