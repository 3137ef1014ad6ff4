// The registry of the resources: it refuses two modules of one type or table, holds a writable
// module for every type the contract's writes change, and each module's table, keys and
// references are those of the real replica schema (the column lists are kept equal to their
// tables by the type system: see Columns in columns.ts).
import { afterAll, describe, expect, it } from 'vitest';
import { WRITE_COMMANDS } from '../contract';
import { openReplica } from '../db/open';
import {
  course,
  kalender,
  referencesTo,
  registry,
  RESOURCES,
  resourceOfTable,
  resourceOfType,
  WRITABLE_RESOURCES,
  writableResource,
} from '.';

const replica = openReplica(':memory:');
afterAll(() => replica.close());

interface ColumnInfo {
  name: string;
  pk: number;
}
const columnsOf = (table: string) =>
  replica.sqlite.prepare(`PRAGMA table_info(${table})`).all() as ColumnInfo[];

describe('the resource registry', () => {
  it('refuses two modules of one type, or of one table', () => {
    expect(() => registry([kalender, { ...course, type: 'kalender' }])).toThrow(
      'Two resource modules of type kalender',
    );
    expect(() => registry([kalender, { ...course, table: 'kalender' }])).toThrow(
      'Two resource modules of table kalender',
    );
    expect(registry([kalender, course]).byType.get('course')).toBe(course);
  });

  it('finds each module by its type and its table', () => {
    for (const module of RESOURCES) {
      expect(resourceOfType(module.type)).toBe(module);
      expect(resourceOfTable(module.table)).toBe(module);
    }
  });

  it('holds a writable module, listed with the others, for every type the writes change', () => {
    for (const [command, spec] of Object.entries(WRITE_COMMANDS)) {
      expect(writableResource(spec.type), command).toBeDefined();
    }
    for (const module of WRITABLE_RESOURCES) expect(RESOURCES).toContain(module);
  });

  it('names tables, keys and referencing columns of the replica’s schema', () => {
    for (const module of RESOURCES) {
      const columns = columnsOf(module.table);
      expect(columns.length, module.table).toBeGreaterThan(0);
      const key = columns
        .filter((column) => column.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((column) => column.name);
      expect(key, module.table).toEqual(module.keys);
      for (const reference of referencesTo(module)) {
        const names = columnsOf(reference.table).map((column) => column.name);
        expect(names, `${reference.table}.${reference.column}`).toContain(reference.column);
      }
    }
  });

  it('finds the columns that hold a resource’s ids where the referencing modules declare them', () => {
    for (const module of RESOURCES) {
      for (const type of Object.values(module.references ?? {})) {
        expect(resourceOfType(type), `${module.type} references ${type}`).toBeDefined();
      }
    }
    const columns = (type: string) =>
      referencesTo(resourceOfType(type)!)
        .map(({ table, column }) => `${table}.${column}`)
        .sort();
    expect(columns('user')).toEqual([
      'ausbildungen.user_id',
      'course_trainers.user_id',
      'ehrungen.user_id',
      'helferstunden.user_id',
      'kalender.user_id',
      'participations.user_id',
      'qualifikationen.user_id',
      'ueberpruefungen.user_id',
    ]);
    expect(columns('course')).toEqual([
      'course_dates.course_id',
      'course_trainers.course_id',
      'customfields.course_id',
      'participations.course_id',
    ]);
    expect(columns('client')).toEqual([
      'client_participants.client_id',
      'courses.client_id',
      'participations.client_id',
    ]);
    expect(columns('uvt')).toEqual(['companies.uvt_id', 'participations.uvt_id']);
    expect(columns('kalender')).toEqual([]);
  });
});
