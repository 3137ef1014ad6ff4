// Migration 9: the office's view of everyone's hours (issue 23) counts and sums the entries of a
// filter, by person and by type, over 100,000 entries: two indexes holding every column those
// read, one ranged by `von` (a period), one in the order of people (the sums per person without
// sorting every entry), so neither reads the table's rows with their JSON.

export default `
  CREATE INDEX helferstunden_totals
    ON helferstunden(von, user_id, typ_id, stunden, freigegeben, anlass_id, local_state);
  CREATE INDEX helferstunden_person_totals
    ON helferstunden(user_id, von, typ_id, stunden, freigegeben, anlass_id, local_state);
`;
