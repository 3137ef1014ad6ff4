// `--pace`: requests a minute in the forms people write them, or none; anything else is refused
// with a message that names the option.
import { describe, expect, it } from 'vitest';
import { CliInputError } from './exit-codes';
import { parsePace } from './parse';

describe('--pace', () => {
  it('reads requests a minute, per second or per hour, and none', () => {
    expect(parsePace('30', '--pace')).toBe(30);
    expect(parsePace('30/min', '--pace')).toBe(30);
    expect(parsePace('1/s', '--pace')).toBe(60);
    expect(parsePace('0.5', '--pace')).toBe(0.5);
    expect(parsePace('600/hour', '--pace')).toBe(10);
    expect(parsePace(' None ', '--pace')).toBe('none');
  });

  it('refuses zero, negative and unknown forms', () => {
    for (const wrong of ['0', '-5', 'fast', '30/day', '', '1e3'])
      expect(() => parsePace(wrong, '--pace'), wrong).toThrow(CliInputError);
    expect(() => parsePace('0', '--pace')).toThrow(/^--pace must be a number of requests a minute/);
  });
});
