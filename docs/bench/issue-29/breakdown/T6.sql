\set id random(1, 20000)
UPDATE bd_t6 SET phone = '+1 555 ' || :id, version = version + 1 WHERE id = :id;
