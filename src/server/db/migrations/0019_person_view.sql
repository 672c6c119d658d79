-- The users module's view of people, for other modules' SQL (decision 073): what any module may
-- read of an account in its own statements (a role as a filter, the zone a day is counted in),
-- without the address, the secrets or the preferences of the "user" row. One table, plain columns:
-- PostgreSQL folds it into each statement, and its id is the account's primary key.
CREATE VIEW "person" AS
  SELECT "id", "first_name", "last_name", "nickname", "role", "time_zone", "avatar_path"
  FROM "user";
