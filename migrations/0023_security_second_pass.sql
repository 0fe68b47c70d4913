-- Issue 40 item 9: the MACs of the publish deliveries applied in the second of delivery_signed_at.
ALTER TABLE `articles` ADD `delivery_macs` text DEFAULT '' NOT NULL;
