-- The list's Name order (issue 27): the company, else the contact's name, for the many customers who are people
-- without a company. Keyset paging by (name key, id) walks this index as it walks the other orders' (V1), so the
-- first page and every page after it read only their own rows, on a million customers as on fifty-nine. The
-- expression is CustomerListQuery.keyExpression(NAME) character for character, and CustomerSort.name the same rule
-- in Java: an empty company counts as none.
CREATE INDEX customer_name_key ON customer (lower(coalesce(nullif(company, ''), contact_name, '')), id);
