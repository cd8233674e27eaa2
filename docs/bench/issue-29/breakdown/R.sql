\set id random(1, 20000)
UPDATE customer SET phone = '+1 555 ' || :id WHERE id = :id;
