-- Brand protection's feeds (issue 30): Certificate Transparency logs and CZDS zone files, read by
-- jobs. A candidate a feed finds new or changed is stamped with the feed and the time; the list
-- flags it "new" until that feed's next run. Where each feed left off is kept per log and per TLD.
ALTER TABLE brand_candidates ADD COLUMN changed_at timestamptz;
ALTER TABLE brand_candidates ADD COLUMN changed_by text CHECK (changed_by IN ('ct', 'zone'));

-- Each run of a feed: when it started and ended, what it read and what it found (or why it failed).
CREATE TABLE brand_feed_runs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  source text NOT NULL CHECK (source IN ('ct', 'zone')),
  started_at timestamptz NOT NULL,
  finished_at timestamptz,
  read bigint NOT NULL DEFAULT 0,
  matched integer NOT NULL DEFAULT 0,
  error text
);
CREATE INDEX brand_feed_runs_source_started ON brand_feed_runs (source, started_at DESC);

-- A CT log's tree size read up to (its entries [0, tree_size) have been matched), by the log's id
-- (SHA-256 of its key, base64) when its key is configured, else its URL.
CREATE TABLE ct_log_positions (
  log text PRIMARY KEY,
  tree_size bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A TLD's zone file last read (its names are the base the next file is compared with).
CREATE TABLE zone_feed_positions (
  tld text PRIMARY KEY,
  file text NOT NULL,
  names integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
