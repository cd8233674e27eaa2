-- Hot-record advice (issue 6): one row per versioned save or delete that met a newer version (a conflict), so that
-- the editor of a customer that is often edited at the same time can suggest Lock for editing. Written by
-- JdbiCustomerRepository only on its conflict path, never by a successful save (which stays one statement).
-- detected_at is the database clock, as every time Lockstep compares across clients; windows are judged against
-- now() too.

CREATE TABLE customer_conflict (
    id          bigserial   PRIMARY KEY,
    -- No foreign key to customer: a save that meets a deletion is recorded after the row is gone, and recording a
    -- conflict must never fail because someone deleted the customer a moment ago.
    -- Nor does deleting a customer delete its rows (no trigger): a conflict on a deleted customer still counts until
    -- it is purged. Its rows are few, and ids are never reused (identity), so they can never advise about another
    -- customer; the purge of every customer's rows older than 30 days removes them too. A clean-up trigger would add
    -- work to every delete, a writer's path, for rows nobody reads.
    customer_id bigint      NOT NULL,
    detected_at timestamptz NOT NULL DEFAULT now(),
    -- The Lockstep user whose save or delete met the newer version.
    detected_by text        NOT NULL,
    kind        text        NOT NULL CHECK (kind IN ('save', 'delete'))
);

COMMENT ON TABLE customer_conflict IS
    'Conflicts met by versioned saves and deletes, per customer; recording one purges rows older than 30 days.';

-- "How many conflicts on this customer since T": an index range scan of that customer's recent rows.
CREATE INDEX customer_conflict_recent ON customer_conflict (customer_id, detected_at);

-- The purge ("rows older than 30 days", of every customer, deleted customers included) walks only the expired rows.
CREATE INDEX customer_conflict_detected_at ON customer_conflict (detected_at);
