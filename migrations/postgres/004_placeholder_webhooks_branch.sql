-- Placeholder on the webhooks branch only, so that 005 has no gap before the other branches' 004 lands.
-- DELETE THIS FILE AT MERGE (the real 004_*.sql takes its number).
SELECT 1;
