// The host calls' schemas: each accepts a valid example and refuses bad ones with words in both
// languages; plain http is accepted for this computer only.
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  hostCalls,
  isHostCallName,
  isLinkableAddress,
  REAL_SERVICE_PRESET,
  type AppSettings,
  type AppState,
  type CallName,
  type CallResults,
  type CoreEvent,
  type ExportCreated,
  type FeedState,
  type HostCallArgs,
  type HostCallName,
  type SchedulerState,
} from '../contract';
import { refusedArguments } from '../core-error';

const SANDBOX = {
  baseUrl: 'http://127.0.0.1:4010/core/v1',
  authUrl: 'http://127.0.0.1:4010/oauth/v1/authorize',
  tokenUrl: 'http://127.0.0.1:4010/oauth/v1/token',
  clientId: 'vorort-desktop',
};

/** One valid example per host call (the mapped type makes a missing one a type error). */
const valid: { [N in HostCallName]: HostCallArgs<N> } = {
  'app.state': {},
  'account.configure': SANDBOX,
  'account.login': {},
  'account.cancelLogin': {},
  'account.demo': { role: 'trainer' },
  'demo.service': { online: true },
  'account.logout': { deleteLocalData: true },
  'account.pendingLoss': {},
  'sync.now': {},
  'app.visible': { visible: true },
  'settings.get': {},
  'settings.update': { profile: 'trainer', courseMonthsBack: 1, language: 'en', theme: 'dark' },
  'export.create': { request: { format: 'ics', what: 'courses', from: '2026-03-01' } },
  'feed.get': {},
  'feed.set': { url: null },
  'updates.state': {},
  'updates.check': {},
  'updates.install': {},
};

/** The refusal's words as the dispatcher shows them. */
function refusal(name: HostCallName, args: unknown): { de: string; en: string } {
  const schema = hostCalls[name];
  const parsed = schema.safeParse(args);
  expect(parsed.success).toBe(false);
  if (parsed.success) throw new Error('accepted');
  return refusedArguments(name, schema, args, parsed.error).messages;
}

describe('host calls', () => {
  it('accepts a valid example of every call', () => {
    for (const name of Object.keys(hostCalls) as HostCallName[]) {
      expect(hostCalls[name].safeParse(valid[name]).success, name).toBe(true);
      expect(isHostCallName(name)).toBe(true);
    }
    expect(isHostCallName('personnel.list')).toBe(false);
    expect(isHostCallName('__proto__')).toBe(false);
  });

  it('sign-out keeps the local data unless asked', () => {
    expect(hostCalls['account.logout'].parse({})).toEqual({ deleteLocalData: false });
    const words = refusal('account.logout', { deleteLocalData: 'yes' });
    expect(words.en).toContain('deleteLocalData');
    expect(words.de).toContain('deleteLocalData');
  });

  it('accepts the real service preset once a client id is given, and https anywhere', () => {
    const schema = hostCalls['account.configure'];
    expect(schema.safeParse({ ...REAL_SERVICE_PRESET, clientId: 'abc' }).success).toBe(true);
    const words = refusal('account.configure', REAL_SERVICE_PRESET);
    expect(words.en).toContain('clientId: the client id is missing');
    expect(words.de).toContain('clientId: die Client-ID fehlt');
  });

  it('accepts plain http on loopback hosts only, saying why in both languages', () => {
    const schema = hostCalls['account.configure'];
    for (const host of ['127.0.0.1:1', 'localhost:8080', '[::1]:9', '127.1.2.3'])
      expect(
        schema.safeParse({ ...SANDBOX, baseUrl: `http://${host}/core/v1` }).success,
        host,
      ).toBe(true);
    for (const host of ['example.org', '10.0.0.1', '127.0.0.1.example.org', '128.0.0.1']) {
      const words = refusal('account.configure', { ...SANDBOX, tokenUrl: `http://${host}/t` });
      expect(words.en, host).toContain('tokenUrl: plain http is allowed only on this computer');
      expect(words.de, host).toContain('tokenUrl: unverschlüsseltes http ist nur auf diesem');
    }
  });

  it('refuses what is not an https address, and missing members', () => {
    let words = refusal('account.configure', { ...SANDBOX, authUrl: 'not a url' });
    expect(words.en).toContain('authUrl: not an address (URL)');
    expect(words.de).toContain('authUrl: keine Adresse (URL)');
    words = refusal('account.configure', { ...SANDBOX, authUrl: 'ftp://example.org/a' });
    expect(words.en).toContain('must be an https address, not ftp');
    expect(words.de).toContain('muss eine https-Adresse sein, nicht ftp');
    words = refusal('account.configure', { clientId: 'x' });
    expect(words.en).toContain('baseUrl');
    expect(words.de).toContain('baseUrl');
    words = refusal('account.configure', { ...SANDBOX, baseUrl: `https://${'a'.repeat(3000)}` });
    expect(words.en).toContain('baseUrl');
  });

  it('a sign-in page is a link when https, or plain http on this computer; nothing else', () => {
    for (const address of [
      'https://api.hiorg-server.de/oauth/v1/authorize?client_id=a&state=b',
      'http://127.0.0.1:4010/oauth/v1/authorize',
      'http://localhost:8080/a',
      'http://[::1]:9/a',
    ])
      expect(isLinkableAddress(address), address).toBe(true);
    for (const address of [
      'http://example.org/oauth/v1/authorize',
      'http://10.0.0.1/a',
      'http://127.0.0.1.example.org/a',
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,<p>x',
      'file:///etc/passwd',
      'ftp://example.org/a',
      '//example.org/a',
      '/oauth/v1/authorize',
      '',
    ])
      expect(isLinkableAddress(address), address).toBe(false);
  });

  it('the demo’s service: online or offline, said as a boolean', () => {
    expect(hostCalls['demo.service'].parse({ online: false })).toEqual({ online: false });
    expect(refusal('demo.service', {}).en).toContain('online');
    expect(refusal('demo.service', { online: 'no' }).de).toContain('online');
    expect(hostCalls['account.cancelLogin'].parse({})).toEqual({});
  });

  it('demo roles and settings: office by default, each setting checked, unknown ones refused', () => {
    expect(hostCalls['account.demo'].parse({})).toEqual({ role: 'office' });
    expect(refusal('account.demo', { role: 'member' }).en).toContain('role');
    expect(hostCalls['settings.update'].parse({})).toEqual({});
    let words = refusal('settings.update', { theme: 'pink' });
    expect(words.en).toContain('theme');
    expect(words.de).toContain('theme');
    words = refusal('settings.update', { courseMonthsAhead: 0 });
    expect(words.en).toContain('courseMonthsAhead');
    words = refusal('settings.update', { courseMonthsBack: 25 });
    expect(words.de).toContain('courseMonthsBack');
    words = refusal('settings.update', { colour: 'red' });
    expect(words.en).toContain('colour');
    expect(refusal('settings.update', { language: 'fr' }).en).toContain('language');
  });

  it('export and feed: the request checked member by member, the delivery and the address required', () => {
    expect(hostCalls['export.create'].parse({ request: { format: 'csv', what: 'hours' } })).toEqual(
      {
        request: {
          format: 'csv',
          what: 'hours',
          includeCancelled: false,
          includeUnread: true,
          separator: ';',
          language: 'de',
        },
      },
    );
    let words = refusal('export.create', {
      request: { format: 'ics', what: 'courses', from: '2026-02-30' },
    });
    expect(words.en).toContain('request.from: expected a date YYYY-MM-DD');
    expect(words.de).toContain('request.from: erwartet ein Datum JJJJ-MM-TT');
    words = refusal('export.create', { request: { format: 'docx', what: 'courses' } });
    expect(words.en).toContain('request.format');
    words = refusal('export.create', { request: { format: 'ics', what: 'courses', colour: 1 } });
    expect(words.en).toContain('colour');
    words = refusal('export.create', {
      request: { format: 'ics', what: 'courses' },
      deliver: 'mail',
    });
    expect(words.de).toContain('deliver');
    expect(refusal('export.create', {}).en).toContain('request');
    expect(hostCalls['feed.set'].parse({ url: null })).toEqual({ url: null });
    expect(refusal('feed.set', {}).en).toContain('url');
    expect(refusal('feed.set', { url: `https://${'a'.repeat(2001)}` }).en).toContain('url');
  });

  it('types every call a UI may make and the host events', () => {
    expectTypeOf<'account.login'>().toExtend<CallName>();
    expectTypeOf<'personnel.list'>().toExtend<CallName>();
    expectTypeOf<'user.create'>().toExtend<CallName>();
    expectTypeOf<CallResults['account.demo']>().toEqualTypeOf<AppState>();
    expectTypeOf<CallResults['account.cancelLogin']>().toEqualTypeOf<AppState>();
    expectTypeOf<CallResults['demo.service']>().toEqualTypeOf<AppState>();
    expectTypeOf<CallResults['sync.now']>().toEqualTypeOf<SchedulerState>();
    expectTypeOf<CallResults['settings.update']>().toEqualTypeOf<AppSettings>();
    expectTypeOf<CallResults['export.create']>().toEqualTypeOf<ExportCreated>();
    expectTypeOf<CallResults['feed.set']>().toEqualTypeOf<FeedState>();
    expectTypeOf<{ type: 'settings.changed'; settings: AppSettings }>().toExtend<CoreEvent>();
    expectTypeOf<{ type: 'app.state'; state: AppState }>().toExtend<CoreEvent>();
    expectTypeOf<{
      type: 'notifications.new';
      items: { id: string; titel: string }[];
    }>().toExtend<CoreEvent>();
  });
});
