import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateDemoData } from './generate';
import { openStore } from './memory-store';
import { DOCUMENTED_ATTRIBUTES, OPTIONAL_ATTRIBUTES, SERVED_TYPES, type ServedType } from './model';

/** Each `### ` section of RESOURCES.md, by every type name written in backticks in its heading. */
function resourceSections(): Map<string, string> {
  const markdown = readFileSync(new URL('../RESOURCES.md', import.meta.url), 'utf8');
  const sections = new Map<string, string>();
  for (const chunk of markdown.split(/^(?=#{2,3} )/m)) {
    const [heading = '', ...body] = chunk.split('\n');
    if (!heading.startsWith('### ')) continue;
    for (const match of heading.matchAll(/`([a-z_]+)`/g)) sections.set(match[1]!, body.join('\n'));
  }
  return sections;
}

describe('DOCUMENTED_ATTRIBUTES', () => {
  const sections = resourceSections();

  it.each(SERVED_TYPES)('%s: every attribute is documented in its RESOURCES.md section', (type) => {
    const section = sections.get(type);
    expect(section, `RESOURCES.md has no section for ${type}`).toBeDefined();
    const undocumented = DOCUMENTED_ATTRIBUTES[type]!.filter(
      (name) => !section!.includes(`\`${name}\``),
    );
    expect(undocumented).toEqual([]);
  });
});

describe('generated records', () => {
  // Medium, not small: rare variants (an address without geo, a cancelled course) must occur.
  const store = openStore();
  generateDemoData(store, { scale: 'medium', seed: 7, anchorDate: '2026-03-15' });

  it.each(SERVED_TYPES)(
    '%s: every record has exactly the documented attributes',
    (type: ServedType) => {
      const records = store.all(type);
      expect(records.length).toBeGreaterThan(0);
      const documented: string[] = [...DOCUMENTED_ATTRIBUTES[type]!].sort();
      const optional = new Set(OPTIONAL_ATTRIBUTES[type] ?? []);
      const shapes = new Set<string>();
      for (const record of records) {
        const keys = Object.keys(record.attributes);
        const missing = documented.filter((name) => !keys.includes(name) && !optional.has(name));
        const extra = keys.filter((name) => !documented.includes(name));
        if (missing.length > 0 || extra.length > 0)
          shapes.add(`${record.id}: missing ${missing} extra ${extra}`);
      }
      expect([...shapes]).toEqual([]);
    },
  );

  it('omits geo on some addresses and has it on most', () => {
    const withGeo = store.all('address').filter((a) => 'geo' in a.attributes).length;
    expect(withGeo).toBeGreaterThan(store.count('address') / 2);
    expect(withGeo).toBeLessThan(store.count('address'));
  });
});
