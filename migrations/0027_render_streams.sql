ALTER TABLE `render_jobs` ADD `streamed_until` integer;
