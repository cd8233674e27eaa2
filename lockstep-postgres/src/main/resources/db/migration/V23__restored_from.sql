-- A restore is recorded as one (issue 27). "Restore this version" in the editor's History tab, and `lockstep restore`,
-- save an earlier version's values as a new version; the history showed that version as an ordinary save ("v7
-- saved"), so nobody reading it could tell a restore from an edit. The writer now names the version it restores
-- (lockstep.restore, R__10_write_protocol.sql) and the customer's trigger keeps it beside the version it made
-- (R__20_customer_triggers.sql), after checking that the customer's history holds that version with values: no writer
-- can record a restore of a version that never existed. NULL for every other write, and for rows written before.
ALTER TABLE customer_history ADD COLUMN restored_from bigint;

COMMENT ON COLUMN customer_history.restored_from IS
    'UPDATE: the earlier version of the customer whose values this save restored (lockstep.restore); else NULL.';
