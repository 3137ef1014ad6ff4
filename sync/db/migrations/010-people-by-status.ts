// Migration 10: how many people have each status, kept as people are written (issue 25). The
// personnel list shows the counts beside its status filter with every page it reads; counting
// 10,000 people took most of an unfiltered page's time. A search, group or qualification filter
// still counts the people it selects.

export default `
  CREATE TABLE users_by_status (status TEXT PRIMARY KEY, people INTEGER NOT NULL) WITHOUT ROWID;
  INSERT INTO users_by_status (status, people)
    SELECT coalesce(status, ''), count(*) FROM users GROUP BY coalesce(status, '');
  CREATE TRIGGER users_by_status_insert AFTER INSERT ON users BEGIN
    INSERT INTO users_by_status (status, people) VALUES (coalesce(new.status, ''), 1)
      ON CONFLICT (status) DO UPDATE SET people = people + 1;
  END;
  CREATE TRIGGER users_by_status_delete AFTER DELETE ON users BEGIN
    UPDATE users_by_status SET people = people - 1 WHERE status = coalesce(old.status, '');
  END;
  CREATE TRIGGER users_by_status_update AFTER UPDATE OF status ON users
    WHEN old.status IS NOT new.status BEGIN
    UPDATE users_by_status SET people = people - 1 WHERE status = coalesce(old.status, '');
    INSERT INTO users_by_status (status, people) VALUES (coalesce(new.status, ''), 1)
      ON CONFLICT (status) DO UPDATE SET people = people + 1;
  END;
  `;
