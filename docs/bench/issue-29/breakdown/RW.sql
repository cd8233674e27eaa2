\set id random(1, 20000)
UPDATE customer SET phone = '+1 555 ' || :id WHERE id = :id AND lockstep_write('bencher', 'bd-session', '4f0c2b1e-8a77-4d0e-9c5e-2a1b3c4d5e6f', 'unleased', NULL, 'bd-secret', 'client', NULL);
