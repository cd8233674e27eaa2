-- The contention lab (`lockstep lab`, issue 6): buyers race for the stock of one row, under each locking strategy.
-- The lab's tables stand apart from customer: a lab run never reads or writes a customer.

CREATE TABLE lab_stock (
    id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- One row per strategy ('none', 'optimistic', …); each run resets its own row.
    name    text   NOT NULL UNIQUE,
    -- Never negative: a safe strategy must not oversell. The unsafe blind write sets stock = (stock it read) - 1,
    -- taken only when it read stock > 0, so it stays >= 0 and this check never hides its lost updates.
    stock   integer NOT NULL CHECK (stock >= 0),
    -- The optimistic strategy's version: each of its writes is UPDATE … WHERE id = ? AND version = ?.
    version bigint  NOT NULL DEFAULT 0
);

COMMENT ON TABLE lab_stock IS 'Contention lab: the units on sale, one row per strategy.';

-- The lease strategy: the same one-statement acquire with fencing tokens as record_lease (V3__lease.sql), on a
-- lab row instead of a customer, without the audit trail.
CREATE SEQUENCE lab_lease_token_seq;

CREATE TABLE lab_lease (
    stock_id   bigint      PRIMARY KEY REFERENCES lab_stock (id) ON DELETE CASCADE,
    holder     text        NOT NULL,
    -- Fencing token: strictly increasing over all grants (lab_lease_token_seq); a write under the lease names it.
    token      bigint      NOT NULL,
    -- Judged against the database clock only. A released lease keeps its row, expired as of the release, so
    -- that the next grant goes through the row lock of INSERT … ON CONFLICT DO UPDATE.
    expires_at timestamptz NOT NULL
);

COMMENT ON TABLE lab_lease IS 'Contention lab: the lease on a lab_stock row, with its fencing token.';
