-- Lock for editing: Fowler's Pessimistic Offline Lock as a lease with Kleppmann's fencing tokens (DDIA ch. 8,
-- "The leader and the lock"). Time is the database's: expiry is set and judged against now(), never a client clock.

CREATE SEQUENCE lease_token_seq;

CREATE TABLE record_lease (
    record_id       bigint PRIMARY KEY REFERENCES customer (id) ON DELETE CASCADE,
    holder          text        NOT NULL,
    session_id      text        NOT NULL,
    token           bigint      NOT NULL,
    acquired_at     timestamptz NOT NULL,
    expires_at      timestamptz NOT NULL,
    -- How the grant ended early: NULL while it runs (or lapsed), else 'released' or 'broken'. Ended leases keep
    -- their row (with expires_at set to the end), so that the next grant always goes through the row lock of
    -- INSERT … ON CONFLICT DO UPDATE and starts, by the database clock, after the previous one ended.
    ended           text CHECK (ended IN ('released', 'broken')),
    -- The session that held the row before this grant: the one acquire statement tells a fresh grant from a
    -- takeover of a lapsed lease in its RETURNING clause.
    previous_session text,
    previous_token   bigint,
    previous_ended   text
);

COMMENT ON COLUMN record_lease.token IS
    'Fencing token: strictly increasing over all grants (lease_token_seq); a save under a lease names it.';

CREATE TABLE lease_event (
    id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    record_id bigint      NOT NULL,
    token     bigint      NOT NULL,
    holder    text        NOT NULL,
    event     text        NOT NULL CHECK (event IN ('acquired', 'released', 'expired_takeover', 'broken', 'lost')),
    actor     text        NOT NULL,
    at        timestamptz NOT NULL DEFAULT clock_timestamp(),
    -- For grants (acquired, expired_takeover): the lease's expiry, kept current by every renewal.
    expires_at timestamptz
);

COMMENT ON TABLE lease_event IS 'The audit trail of leases: every grant, release, takeover, break and loss.';

CREATE INDEX lease_event_record ON lease_event (record_id, id);
-- Renewals, releases and breaks update their grant's entry: found by token, however long the record's trail grows.
CREATE INDEX lease_event_grant ON lease_event (record_id, token) WHERE event IN ('acquired', 'expired_takeover');
