// Starts the sandbox: the store (demo data generated when it is empty), the OAuth server at
// /oauth/v1, the interface under its prefix and, with `admin`, the admin interface at /_admin,
// on one Fastify server. Tests and the CLI use the returned handle: URLs, a ready token per
// demo account, the store and the auth service (to act "as another user on the service"), and
// close().
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import type { AdminContext } from './admin/context';
import { isLoopbackHost } from './admin/guard';
import { Journal, JournaledStore } from './admin/journal';
import { ADMIN_PATH, adminPlugin } from './admin/plugin';
import { listAccounts } from './auth/accounts';
import { checkRegistrations, createAuthService, type ClientRegistration } from './auth/index';
import { PUBLIC_CLIENT_ID, type AuthService } from './auth/types';
import { SandboxClock } from './data/clock';
import { generateDemoData, type Scale } from './data/generate';
import { isStoreEmpty, openStore } from './data/memory-store';
import type { AccountAttributes, ResourceType, Role, Store } from './data/store';
import { isDate } from './http/berlin-time';
import type { ApiContext } from './http/context';
import { Renderer } from './http/document';
import { type FaultRates, parseFaultSpec } from './http/faults';
import { interfacePlugin, registerNotFound } from './http/app';
import { Links } from './http/links';
import { parseRateLimit, type RateLimitSpec } from './http/rate-limit';
import { type LoggedRequest, RequestLog } from './http/request-log';

export type { LoggedRequest } from './http/request-log';
export { APPROVAL_HEADER } from './auth/index';
import { parseShapes, ShapeVariation, type Shapes } from './http/shapes';
import { AnswerVariation, type UnreadableForm } from './http/variation';
import { createViews } from './http/views';

export interface SandboxOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Demo data size when the store is empty; default small. */
  scale?: Scale;
  /** Seed of the demo data and of the injected faults; default 1. */
  seed?: number;
  /** The day the demo data is generated around (YYYY-MM-DD); default today in Berlin. */
  anchorDate?: string;
  /** SQLite file keeping the state across restarts; in memory without. */
  data?: string;
  /** Path of the interface operations, e.g. /core/v1; default '' (OAuth stays at /oauth/v1). */
  prefix?: string;
  /** Page every list with links.next; default off, as the real service. */
  pageSize?: number;
  /**
   * Fault rates, as `error=0.1,throttle=0.05,...` or already parsed; `unreadable=RATE` makes
   * each resource object of a list answer unreadable with that probability.
   */
  faults?: string | FaultRates;
  /**
   * `uniform` (default): every answer as today. `real`: answers vary their shapes as public
   * sources show the real service's do; `robust`: also in shapes no public source shows, to
   * test a client's tolerance. Seeded by `seed` (see sandbox/RESOURCES.md, "Shapes of answers").
   */
  shapes?: Shapes;
  /** Delay of a `slow` fault in ms; default 3000. */
  slowMs?: number;
  /** Requests per access token, as `30/min` or already parsed. */
  rateLimit?: string | RateLimitSpec;
  /** Access-token lifetime; default 3600. */
  tokenTtlSeconds?: number;
  /** The organisation has no course module: 423 on courses, clients, custom fields, UVTs. */
  withoutCourses?: boolean;
  /** The OAuth login page logs in without asking (login_hint or the first office account). */
  autoApprove?: boolean;
  /**
   * Answer only requests addressed to this server at a loopback address: Host 127.0.0.1:PORT or
   * localhost:PORT, PORT its own or one given to acceptHostPort (a proxy in front of it); 421
   * otherwise. So a web page cannot reach it under a name of its own that resolves to 127.0.0.1
   * (DNS rebinding). The app's demo sets it; default off.
   */
  checkHost?: boolean;
  /**
   * New demo data gets random private feed secrets instead of the seed's (which every install
   * with the same seed shares); kept with the data. The app's demo sets it; default off.
   */
  randomFeedSecrets?: boolean;
  /**
   * The login (its page and its form) answers only requests that carry this secret in the
   * `x-sandbox-approval` header (APPROVAL_HEADER), 403 others: with autoApprove, no other program
   * of this computer gets a token by just asking. The app's demo sets a per-run secret only its
   * host knows; default none (anyone may log in, as tests and the development server need).
   */
  approvalSecret?: string;
  /**
   * OAuth clients to register besides the built-in ones: an id, a secret (confidential) or none
   * (public: PKCE S256), and the redirect URIs (see sandbox/RESOURCES.md, "OAuth clients").
   */
  clients?: readonly ClientRegistration[];
  /** Fastify's request log; default off. */
  logger?: boolean;
  /**
   * Creation accepts a client-generated id (a UUID in `data.id`) as an idempotency key: the
   * resource keeps the service's own id and answers `meta: { client_id }`; the same client id
   * again is 409 `already_exists`. Default off: any `data.id` on creation is 403 as on the real
   * service. See sandbox/RESOURCES.md, "Client-generated ids".
   */
  clientIds?: boolean;
  /**
   * The admin interface for tests at origin + /_admin (sandbox/RESOURCES.md, "Admin interface
   * (tests only)"): changes the service's web interface makes, the clock, paging at run time,
   * the change journal, backups. Default off. Only with a loopback host (else RangeError).
   */
  admin?: boolean;
  /** The admin interface's bearer token; default a random 32-byte hex per start. */
  adminToken?: string;
}

export interface SandboxUser {
  id: string;
  role: Role;
  name: string;
  accessToken: string;
}

export interface RunningSandbox {
  /** origin + prefix: the seed's {base_url}. */
  baseUrl: string;
  origin: string;
  /** The authorization endpoint (the seed's {auth_url}); userinfo and token live beside it under /oauth/v1. */
  authUrl: string;
  tokenUrl: string;
  /** The ID tokens' `iss`: origin + /oauth/v1. */
  issuer: string;
  /** The JWKS with the ID tokens' public key: origin + /oauth/v1/jwks. */
  jwksUrl: string;
  clientId: string;
  /** The private iCal feed of the (first) office account. */
  feedUrl: string;
  /** Every account, office first, with a ready access token carrying every scope of its role. */
  users: SandboxUser[];
  /** The store; with `admin`, every write through it is noted in the change journal. */
  store: Store;
  auth: AuthService;
  /** With `admin`: the admin interface (origin + /_admin) and its bearer token; else absent. */
  admin?: { url: string; token: string };
  /**
   * Renders this record (the stored `type`, e.g. `helferstunden`, and id) unreadable for a
   * client wherever it is primary data, until repaired: type, id and the envelope stay valid,
   * `attributes` becomes a string (default), a number, or (hour entries) `von` an object.
   * The store is not changed. Throws when there is no such record.
   */
  breakRecord(type: ResourceType, id: string, form?: UnreadableForm): void;
  /** Renders the record as usual again; true when it was broken. */
  repairRecord(type: ResourceType, id: string): boolean;
  /**
   * The requests the interface received (not /oauth) since start or the last clearRequests(),
   * oldest first, at most the latest 100,000: `{ method, path, status, at, fault? }` (see
   * LoggedRequest). Each read returns a fresh copy.
   */
  readonly requests: LoggedRequest[];
  /** Empties the request log. */
  clearRequests(): void;
  /**
   * With checkHost: requests addressed to this loopback port are answered too (a proxy in front
   * of this server, such as the demo's switch that takes it offline). Without: nothing to do.
   */
  acceptHostPort(port: number): void;
  /** Stops listening (letting running requests finish) and closes the store; safe to call twice. */
  close(): Promise<void>;
}

const DEFAULT_SLOW_MS = 3000;

function normalisedPrefix(prefix: string | undefined): string {
  const value = (prefix ?? '').replace(/\/+$/, '');
  if (value !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(value)) {
    throw new RangeError(`The prefix "${prefix}" is not a path like /core/v1.`);
  }
  return value;
}

function checkOptions(options: SandboxOptions): void {
  if (
    options.pageSize !== undefined &&
    !(Number.isInteger(options.pageSize) && options.pageSize > 0)
  ) {
    throw new RangeError(`The page size must be a positive whole number, got ${options.pageSize}.`);
  }
  if (options.anchorDate !== undefined && !isDate(options.anchorDate)) {
    throw new RangeError(`The anchor date must be YYYY-MM-DD, got "${options.anchorDate}".`);
  }
  if (options.slowMs !== undefined && !(options.slowMs >= 0)) {
    throw new RangeError(`slowMs must not be negative, got ${options.slowMs}.`);
  }
  if (options.shapes !== undefined) parseShapes(options.shapes);
  checkRegistrations(options.clients ?? []);
  const host = options.host ?? '127.0.0.1';
  if (options.admin && !isLoopbackHost(host)) {
    throw new RangeError(
      `The admin interface changes any data without OAuth, so it listens on loopback only (127.0.0.1, ::1 or localhost), not on "${host}".`,
    );
  }
  if (options.checkHost && host !== '127.0.0.1') {
    throw new RangeError(
      `checkHost answers only Host 127.0.0.1 or localhost (IPv4), so it listens on 127.0.0.1 only, not on "${host}".`,
    );
  }
  if (options.adminToken !== undefined && !/^[\x21-\x7e]+$/.test(options.adminToken)) {
    throw new RangeError(
      'The admin token must be printable characters without spaces (it is sent as a bearer token).',
    );
  }
  if (options.approvalSecret !== undefined && !/^[\x21-\x7e]{16,}$/.test(options.approvalSecret)) {
    throw new RangeError(
      'The approval secret must be at least 16 printable characters without spaces (it is sent as a header).',
    );
  }
}

function openFilledStore(options: SandboxOptions, clock: SandboxClock): Store {
  const store = openStore({
    ...(options.data === undefined ? {} : { file: options.data }),
    clock: () => new Date(clock.now()),
  });
  try {
    if (isStoreEmpty(store)) {
      generateDemoData(store, {
        scale: options.scale ?? 'small',
        seed: options.seed ?? 1,
        anchorDate: options.anchorDate ?? 'today',
        ...(options.randomFeedSecrets ? { feedSecret: () => randomBytes(16).toString('hex') } : {}),
      });
    }
  } catch (error) {
    store.close();
    throw error;
  }
  return store;
}

/** Whether a Host header names a loopback address of this server: 127.0.0.1 or localhost with one of its ports. */
function acceptedHost(header: string | undefined, ports: ReadonlySet<number>): boolean {
  const match = /^(?:127\.0\.0\.1|localhost):(\d{1,5})$/.exec((header ?? '').toLowerCase());
  return match !== null && ports.has(Number(match[1]));
}

/** The host for URLs: a wildcard address (listening everywhere) is reached over loopback. */
function urlHost(address: string, family: string): string {
  if (address === '0.0.0.0') return '127.0.0.1';
  if (address === '::') return '[::1]';
  return family === 'IPv6' ? `[${address}]` : address;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  checkOptions(options);
  const prefix = normalisedPrefix(options.prefix);
  const faults =
    typeof options.faults === 'string' ? parseFaultSpec(options.faults) : options.faults;
  const rateLimit =
    typeof options.rateLimit === 'string' ? parseRateLimit(options.rateLimit) : options.rateLimit;
  // One clock for the store's change times, "today" of the filters and the Date header; the
  // admin interface moves it. OAuth keeps real time (tokens do not expire when it moves).
  const clock = new SandboxClock();
  const journal = options.admin ? new Journal() : undefined;
  const filled = openFilledStore(options, clock);
  // Installed after the demo data is generated: the journal lists the changes since start.
  const store = journal ? new JournaledStore(filled, journal, clock) : filled;
  const auth = createAuthService({
    store,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    autoApprove: options.autoApprove ?? false,
    ...(options.approvalSecret === undefined ? {} : { approvalSecret: options.approvalSecret }),
    ...(options.clients ? { clients: options.clients } : {}),
  });
  const app = Fastify({ logger: options.logger ?? false });
  try {
    // Filled once listening: its own port, then those of acceptHostPort.
    const hostPorts = new Set<number>();
    if (options.checkHost)
      app.addHook('onRequest', async (request, reply) => {
        if (acceptedHost(request.headers.host, hostPorts)) return;
        return reply
          .code(421)
          .header('connection', 'close')
          .type('text/plain; charset=utf-8')
          .send('This service answers only at its own loopback address.');
      });
    auth.register(app);
    // The links need the origin, which is known only once listening: the context reads it late.
    const links = new Links('', prefix);
    const coursesLicensed = !options.withoutCourses;
    const seed = options.seed ?? 1;
    const variation = new AnswerVariation(links, {
      ...(options.shapes && options.shapes !== 'uniform'
        ? { shapes: new ShapeVariation(seed, options.shapes) }
        : {}),
      unreadableRate: faults?.unreadable ?? 0,
      seed,
    });
    const context: ApiContext = {
      store,
      links,
      renderer: new Renderer(store, links, createViews(store, links, coursesLicensed), variation),
      pageSize: options.pageSize,
      coursesLicensed,
      clientIds: options.clientIds ?? false,
      clock: () => clock.now(),
    };
    const requestLog = new RequestLog();
    await app.register(
      interfacePlugin({
        context,
        auth,
        ...(faults
          ? {
              faults: {
                rates: faults,
                seed: options.seed ?? 1,
                slowMs: options.slowMs ?? DEFAULT_SLOW_MS,
              },
            }
          : {}),
        ...(rateLimit ? { rateLimit } : {}),
        requestLog,
      }),
      { prefix },
    );
    if (prefix !== '') registerNotFound(app);
    const adminToken = journal
      ? (options.adminToken ?? randomBytes(32).toString('hex'))
      : undefined;
    if (journal && adminToken) {
      const admin: AdminContext = { api: context, clock, journal, backups: new Map() };
      await app.register(adminPlugin({ admin, token: adminToken }), { prefix: ADMIN_PATH });
    }
    await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
    const address = app.server.address();
    if (address === null || typeof address === 'string')
      throw new Error('The sandbox listens on no TCP port.');
    links.origin = `http://${urlHost(address.address, address.family)}:${address.port}`;
    auth.setOrigin(links.origin);
    hostPorts.add(address.port);
    return running(app, store, auth, links, variation, requestLog, adminToken, hostPorts);
  } catch (error) {
    await app.close();
    store.close();
    throw error;
  }
}

function running(
  app: ReturnType<typeof Fastify>,
  store: Store,
  auth: AuthService,
  links: Links,
  variation: AnswerVariation,
  requestLog: RequestLog,
  adminToken: string | undefined,
  hostPorts: Set<number>,
): RunningSandbox {
  const accounts = listAccounts(store);
  const office = accounts.find((account) => account.role === 'office');
  const officeAccount = office
    ? (store.get('account', office.userId)?.attributes as AccountAttributes | undefined)
    : undefined;
  let closing: Promise<void> | undefined;
  return {
    baseUrl: links.base,
    origin: links.origin,
    authUrl: `${links.origin}/oauth/v1/authorize`,
    tokenUrl: `${links.origin}/oauth/v1/token`,
    issuer: auth.issuer(),
    jwksUrl: `${links.origin}/oauth/v1/jwks`,
    clientId: PUBLIC_CLIENT_ID,
    feedUrl: officeAccount ? links.feed(officeAccount.feedHash) : '',
    users: accounts.map((account) => ({
      id: account.userId,
      role: account.role,
      name: account.name,
      accessToken: auth.issueAccessToken(account.userId),
    })),
    store,
    auth,
    ...(adminToken ? { admin: { url: links.origin + ADMIN_PATH, token: adminToken } } : {}),
    breakRecord(type, id, form) {
      if (!store.get(type, id)) throw new RangeError(`The sandbox holds no ${type} ${id}.`);
      variation.breakRecord(type, id, form);
    },
    repairRecord(type, id) {
      return variation.repairRecord(type, id);
    },
    get requests() {
      return requestLog.list();
    },
    clearRequests() {
      requestLog.clear();
    },
    acceptHostPort(port) {
      if (!(Number.isInteger(port) && port > 0 && port < 65536))
        throw new RangeError(`A port is a whole number from 1 to 65535, got ${port}.`);
      hostPorts.add(port);
    },
    close() {
      return (closing ??= app.close().finally(() => store.close()));
    },
  };
}
