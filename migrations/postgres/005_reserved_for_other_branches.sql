-- Placeholder on branch batch only: migrations 003 to 005 belong to other branches (readMigrations
-- refuses gaps). The lead deletes this file when merging; 006_batches.sql is this branch's own.
SELECT 1;
