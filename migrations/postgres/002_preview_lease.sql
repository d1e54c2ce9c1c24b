-- Render leases: the process rendering a clip, and until when (ms) unless it renews, so two API processes
-- of a fleet never render the same clip.
ALTER TABLE previews ADD COLUMN owner TEXT;
ALTER TABLE previews ADD COLUMN lease_until BIGINT;
