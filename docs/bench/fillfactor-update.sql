-- One pgbench transaction of docs/bench/fillfactor-setup.sql's measurement: a random row's note, version and time.
\set id random(1, 100000)
UPDATE :tbl SET notes = 'Called back ' || md5(random()::text), version = version + 1, updated_at = clock_timestamp() WHERE id = :id;
