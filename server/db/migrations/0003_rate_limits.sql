-- Fixed-window counters of the rate-limit primitive (server/platform/core/rate-limit.ts).
-- Kept in the database so that every process of a deployment counts against the same limit.
CREATE TABLE rate_limits (
  key text NOT NULL,
  window_start timestamptz NOT NULL,
  count integer NOT NULL DEFAULT 0,
  PRIMARY KEY (key, window_start)
);
-- Old windows are pruned by age.
CREATE INDEX rate_limits_window_idx ON rate_limits (window_start);
