// Migration 8: the due list (Fällig, issue 22) reads trainings and checks by the day they fall
// due, across everyone: a range of these indexes, not a scan of every person's records.

export default `
  CREATE INDEX ausbildungen_gueltig_bis ON ausbildungen(gueltig_bis) WHERE gueltig_bis IS NOT NULL;
  CREATE INDEX ueberpruefungen_naechste ON ueberpruefungen(naechste_pruefung)
    WHERE naechste_pruefung IS NOT NULL;
`;
