// An amount of hours in words from the message looked up once (renderer/format.ts hoursWords): the
// same words as the message with the amount interpolated, in either language.
import { describe, expect, it } from 'vitest';
import { hoursWords } from '../../renderer/format';

describe('hoursWords', () => {
  it('puts the amount, formatted for the language, where the message has it', () => {
    const german = hoursWords(({ hours }) => `${hours} Std.`, 'de');
    expect([3.5, 12, 0.25, 1234.5].map(german)).toEqual([
      '3,5 Std.',
      '12 Std.',
      '0,25 Std.',
      '1.234,5 Std.',
    ]);
    expect(hoursWords(({ hours }) => `${hours} h`, 'en')(3.75)).toBe('3.75 h');
  });

  it('keeps the words on both sides of the amount', () => {
    const words = hoursWords(({ hours }) => `rund ${hours} Stunden`, 'de');
    expect(words(2.5)).toBe('rund 2,5 Stunden');
  });

  it('asks the message once, not per amount', () => {
    let asked = 0;
    const words = hoursWords(({ hours }) => {
      asked += 1;
      return `${hours} h`;
    }, 'en');
    for (let hours = 0; hours < 50; hours += 0.5) words(hours);
    expect(asked).toBe(1);
  });
});
