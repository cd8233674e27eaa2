\set id random(1, 20000)
UPDATE floor_bare SET phone = '+1 555 ' || :id, version = version + 1 WHERE id = :id;
