\set id random(1, 20000)
WITH u AS (UPDATE bd_t5g SET phone = '+1 555 ' || :id, version = version + 1 WHERE id = :id RETURNING id) SELECT pg_notify('floor', id::text) FROM u;
