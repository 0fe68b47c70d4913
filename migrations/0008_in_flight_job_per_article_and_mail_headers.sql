ALTER TABLE `mail_outbox` ADD `headers` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
-- Jobs that the render-now race duplicated before this index: keep the oldest in-flight job per listener and article.
UPDATE `render_jobs` SET `state` = 'failed', `error` = 'duplicate render-now job', `finished_at` = cast(unixepoch('subsecond') * 1000 as integer)
WHERE `listener_id` IS NOT NULL AND `state` IN ('queued', 'running') AND EXISTS (
  SELECT 1 FROM `render_jobs` AS `older` WHERE `older`.`listener_id` = `render_jobs`.`listener_id` AND `older`.`article_id` = `render_jobs`.`article_id`
    AND `older`.`state` IN ('queued', 'running') AND (`older`.`created_at` < `render_jobs`.`created_at` OR (`older`.`created_at` = `render_jobs`.`created_at` AND `older`.`id` < `render_jobs`.`id`))
);--> statement-breakpoint
CREATE UNIQUE INDEX `render_jobs_in_flight_per_listener_article_idx` ON `render_jobs` (`listener_id`,`article_id`) WHERE "render_jobs"."state" in ('queued', 'running');