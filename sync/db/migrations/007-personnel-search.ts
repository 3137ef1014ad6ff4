// Migration 7: the personnel workspace's search and group filter (issue 22).

const SEARCHED = ['mitgliednr', 'email', 'telpriv', 'teldienst', 'handy'];
const PHONES = ['telpriv', 'teldienst', 'handy'];
/** An attribute as the person has it here: a local change over the service's value. */
const current = (name: string) =>
  `CASE WHEN json_type(pending, '$.attributes.${name}') IS NOT NULL ` +
  `THEN json_extract(pending, '$.attributes.${name}') ELSE json_extract(base, '$.attributes.${name}') END`;
/** A list attribute as the person has it here, as JSON text; null when it is no list. */
const listOf = (name: string) =>
  `CASE WHEN json_type(pending, '$.attributes.${name}') IS NOT NULL ` +
  `THEN iif(json_type(pending, '$.attributes.${name}') = 'array', json_extract(pending, '$.attributes.${name}'), NULL) ` +
  `ELSE iif(json_type(base, '$.attributes.${name}') = 'array', json_extract(base, '$.attributes.${name}'), NULL) END`;
/** A phone number's digits only ("0171 / 12-34" as "01711234"), as searchTextOf adds them. */
const digits = (value: string) =>
  ['+', ' ', '-', '/', '(', ')', '.'].reduce(
    (text, sign) => `replace(${text}, '${sign}', '')`,
    `coalesce(${value}, '')`,
  );

export default `
  -- What a search finds a person by (names, member number, e-mail, phone numbers, the numbers
  -- also as digits only; folded as a search is), written by the row mapper; and the person's
  -- groups (a JSON array).
  ALTER TABLE users ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
  ALTER TABLE users ADD COLUMN gruppen TEXT;
  -- The people held already, from their stored attributes (local changes over the service's):
  -- an unchanged person is never rewritten by a sync. The row mapper (sync/resources/user.ts,
  -- searchTextOf) makes the same haystack for every person written from now on.
  UPDATE users SET
    gruppen = nullif(${listOf('gruppen_namen')}, '[]'),
    search_text = vorort_fold(trim(vorname || ' ' || nachname
      ${SEARCHED.map((name) => `|| ' ' || coalesce(${current(name)}, '')`).join(' ')}
      ${PHONES.map((name) => `|| ' ' || ${digits(current(name))}`).join(' ')}));
  -- Anywhere in a word, ignoring case and diacritics ("muller" finds "Müller", "4711" finds
  -- "M-4711"): trigrams over search_text, kept by the triggers below (the users' rowids are
  -- stable: rows are upserted in place, never replaced, and the replica is never vacuumed).
  CREATE VIRTUAL TABLE users_search USING fts5(search_text, content='users', content_rowid='rowid',
    tokenize='trigram remove_diacritics 1');
  INSERT INTO users_search (users_search) VALUES ('rebuild');
  -- The list's sorts by member number (people without one last) and by place, each page a
  -- range of an index; the name sort has users_sort (its rowid breaks ties).
  CREATE INDEX users_member_order ON users(mitgliednr IS NULL, mitgliednr, sort_name);
  CREATE INDEX users_ort_sort ON users(ort, sort_name);
  CREATE TRIGGER users_search_insert AFTER INSERT ON users BEGIN
    INSERT INTO users_search (rowid, search_text) VALUES (new.rowid, new.search_text);
  END;
  CREATE TRIGGER users_search_delete AFTER DELETE ON users BEGIN
    INSERT INTO users_search (users_search, rowid, search_text)
      VALUES ('delete', old.rowid, old.search_text);
  END;
  CREATE TRIGGER users_search_update AFTER UPDATE OF search_text ON users
    WHEN old.search_text IS NOT new.search_text BEGIN
    INSERT INTO users_search (users_search, rowid, search_text)
      VALUES ('delete', old.rowid, old.search_text);
    INSERT INTO users_search (rowid, search_text) VALUES (new.rowid, new.search_text);
  END;
  `;
