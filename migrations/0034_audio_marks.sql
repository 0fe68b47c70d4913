-- Which stored audio carries which watermark id (docs/narration.md "The watermark"): the detector's payload leads to the narration's record.
CREATE TABLE `audio_marks` (
	`mark_id` text NOT NULL,
	`audio_key` text NOT NULL,
	PRIMARY KEY(`mark_id`, `audio_key`),
	FOREIGN KEY (`audio_key`) REFERENCES `audio_objects`(`key`) ON UPDATE no action ON DELETE cascade
);
