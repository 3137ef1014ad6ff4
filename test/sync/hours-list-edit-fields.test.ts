// hours.list gives what the hours screen's edit form shows besides its columns: the occasion's
// and the type's ids, the remark and the kilometres, as local truth (a remark changed offline
// shows the new one), so an edit starts from the entry as it is and sends only what changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HoursItem } from '../../sync/contract';
import { temporaryFiles } from '../support/temp-files';
import { call, startWorld, write, type World } from './outbox/world';

const tempFile = temporaryFiles('hours-list-edit-fields');

let world: World;
beforeAll(async () => {
  world = await startWorld(tempFile('replica.sqlite'));
});
afterAll(() => world.close());

const listed = async (id: string) =>
  (await call<{ items: HoursItem[] }>(world, 'hours.list', { limit: 1000 })).items.find(
    (item) => item.id === id,
  );

describe('hours.list: the fields of an edit form', () => {
  it('the service’s remark, kilometres, occasion and type of an entry', async () => {
    const entry = world.sandbox.store
      .all('helferstunden')
      .find((h) => typeof h.attributes.bemerkung === 'string' && h.attributes.bemerkung !== '')!;
    expect(entry).toBeDefined();
    const related = (name: string) =>
      (entry.relationships[name] as { id: string } | null | undefined)?.id ?? null;
    expect(await listed(entry.id)).toMatchObject({
      bemerkung: entry.attributes.bemerkung,
      anfahrtKm:
        typeof entry.attributes.anfahrt_km === 'number' ? entry.attributes.anfahrt_km : null,
      anlassId: related('anlass'),
      typId: related('typ'),
    });
  });

  it('an entry created and changed offline shows its own values', async () => {
    const occasion = world.sandbox.store.all('helferstunden_anlass')[0]!;
    const created = await write(world, 'helferstunden.create', {
      attributes: {
        von: '2026-11-20T08:00:00+01:00',
        stunden: 2,
        bemerkung: 'erst',
        anfahrt_km: 12.5,
      },
      relationships: {
        anlass: { data: { type: 'helferstunden_anlass', id: occasion.id } },
        typ: { data: { type: 'helferstunden_typ', id: '2' } },
      },
    });
    await write(world, 'helferstunden.update', {
      id: created.id,
      attributes: { bemerkung: 'korrigiert' },
    });
    expect(await listed(created.id)).toMatchObject({
      localState: 'created',
      bemerkung: 'korrigiert',
      anfahrtKm: 12.5,
      anlassId: occasion.id,
      typId: '2',
    });
  });
});
