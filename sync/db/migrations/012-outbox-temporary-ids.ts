// Migration 12: the open operations that name a temporary id, indexed (issue 25). When the service
// accepts a record created offline, its temporary id is replaced in every open operation's
// arguments; finding them read the arguments of every open operation (1 ms per accepted create
// with 1,000 queued). Only an operation on or about a record created offline names one, so the
// index holds few entries. The replace in sync/outbox/adopt.ts repeats this WHERE clause word for
// word, as SQLite uses a partial index only for a query whose terms include the index's.

export default `
  CREATE INDEX outbox_open_temporary ON outbox(id)
    WHERE state <> 'done' AND instr(args, '"local-') > 0;
  `;
