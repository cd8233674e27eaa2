-- The conflict report (issue 15): conflicts and merges per day, for supervisors deciding which customers to edit under
-- Lock for editing. customer_conflict (V8), customer_history (V2, V16) and lease_event (V3) already record saves that
-- hit zero rows, saves, and leases granted, broken and lapsed. What none of them records is written here, each by the
-- code path that knows it, never by a successful plain save:
--   merge_saved            a merged result was saved (CustomerEditing.mergeAndSave; the merge dialog, set --merge)
--   merge_abandoned        the operator discarded their changes in the merge dialog
--   lease_wait             a lease was refused because another session held it: the operator has to wait
--   lab_retries_exhausted  buyers of a contention lab run gave up after their last allowed retry (count: how many)
-- "Who" is the operator's name for display; the session (writer id) and, for a merge saved, the version it saved
-- identify the write itself (the history row of that version carries its request id, ADR 0009).

CREATE TABLE conflict_event (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind        text        NOT NULL
        CHECK (kind IN ('merge_saved', 'merge_abandoned', 'lease_wait', 'lab_retries_exhausted')),
    -- No foreign key, as in customer_conflict: an event about a customer deleted a moment later must still be kept.
    -- NULL for the lab, which never touches a customer.
    customer_id bigint,
    -- The database clock, as every time Lockstep compares across clients.
    happened_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    operator    text        NOT NULL,
    session_id  text,
    -- merge_saved: the version the merged values were saved as.
    version     bigint,
    -- lab_retries_exhausted: the lab's strategy.
    detail      text,
    count       integer     NOT NULL DEFAULT 1 CHECK (count > 0)
);

COMMENT ON TABLE conflict_event IS
    'Merges saved and abandoned, lease waits and exhausted lab retries, for the conflict report; kept 400 days.';

-- The report aggregates per day over a bounded range of happened_at: an index range scan, whatever the table's size.
CREATE INDEX conflict_event_happened_at ON conflict_event (happened_at);

-- The report over up to a year (issue 15) needs conflicts kept that long: the purge (store/ConflictLog, Java) now
-- keeps 400 days instead of 30. The session that met the conflict is kept beside the operator's name.
ALTER TABLE customer_conflict ADD COLUMN session_id text;
COMMENT ON TABLE customer_conflict IS
    'Conflicts met by versioned saves and deletes, per customer; recording one purges rows older than 400 days.';

-- Saves per day: an index range scan over the report's days instead of a scan of the whole history. BRIN, not a
-- B-tree: history rows are appended in changed_at order, so block ranges summarise them well, and a BRIN index costs
-- a save almost nothing to maintain (PostgreSQL docs, 71.1 BRIN Indexes: Introduction) — saves stay on their path.
CREATE INDEX customer_history_changed_at ON customer_history USING brin (changed_at) WITH (pages_per_range = 32);

-- Breaks per day, and grants whose expiry passed (lapses) per day.
CREATE INDEX lease_event_at ON lease_event (at) WHERE event = 'broken';
CREATE INDEX lease_event_grant_expiry ON lease_event (expires_at) WHERE event IN ('acquired', 'expired_takeover');
-- Whether a grant ended by release or break: looked up by (record, token) per grant that expired.
CREATE INDEX lease_event_end ON lease_event (record_id, token) WHERE event IN ('released', 'broken');
