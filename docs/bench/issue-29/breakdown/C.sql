\set id random(1, 20000)
WITH u AS (UPDATE floor_bare SET phone = '+1 555 ' || :id, version = version + 1 WHERE id = :id RETURNING *), h AS (INSERT INTO floor_hist (customer_id, version, op, changed_by, new_row) SELECT id, version, 'update', 'bencher', to_jsonb(u) FROM u RETURNING customer_id) SELECT pg_notify('floor', customer_id::text) FROM h;
