// The iCalendar writer: escaping, folding at 75 octets without splitting a character, CRLF.
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { escapeText, foldLine, renderCalendar, utcStamp } from './ical';

describe('iCalendar text', () => {
  it('escapes backslashes, semicolons, commas and line breaks', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
  });

  it('folds at 75 octets and never inside a UTF-8 character', () => {
    const line = `SUMMARY:${'Übung für Sanitäter – Großschadenslage '.repeat(5)}`;
    const folded = foldLine(line);
    const physical = folded.split('\r\n');
    expect(physical.length).toBeGreaterThan(2);
    for (const part of physical) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
    expect(physical.slice(1).every((part) => part.startsWith(' '))).toBe(true);
    expect(physical.map((part, index) => (index === 0 ? part : part.slice(1))).join('')).toBe(line);
    expect(folded).not.toContain('\uFFFD');
  });

  it('writes UTC stamps and a calendar an independent parser reads back', () => {
    expect(utcStamp(Date.parse('2026-03-01T08:00:00+01:00'))).toBe('20260301T070000Z');
    const summary = 'Dienst; Stadtfest, Bühne\nNord '.repeat(4);
    const text = renderCalendar('Test', [
      {
        uid: 'dienst-1@test',
        category: 'Dienst',
        stamp: Date.parse('2026-02-01T10:00:00Z'),
        start: Date.parse('2026-03-01T08:00:00+01:00'),
        end: Date.parse('2026-03-01T12:00:00+01:00'),
        summary,
        location: 'Marktplatz, Musterstadt',
        organizer: { name: 'DRK: Ortsverein', email: 'info@example.org' },
      },
    ]);
    expect(text.endsWith('\r\n')).toBe(true);
    const event = new ICAL.Component(ICAL.parse(text) as unknown[]).getFirstSubcomponent('vevent')!;
    expect(event.getFirstPropertyValue('summary')).toBe(summary);
    expect(event.getFirstPropertyValue('location')).toBe('Marktplatz, Musterstadt');
    expect(event.getFirstProperty('organizer')?.getParameter('cn')).toBe('DRK: Ortsverein');
    expect(event.getFirstPropertyValue('description')).toBeNull();
  });
});
