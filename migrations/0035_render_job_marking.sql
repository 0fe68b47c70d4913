-- The time a render spent laying its watermark into the paragraphs it voiced (docs/narration.md "The
-- watermark"): a phase of its own beside synthesis and encoding, so that the bench's bookkeeping is what is left.
ALTER TABLE `render_jobs` ADD `marking_ms` integer;
