// `vorort sandbox`: starts the local implementation of the service and tells a person (or,
// with --json, a program) where it listens and which ready tokens the demo users have.
import { type Command, type CommanderError, Option } from 'commander';
import {
  CONFIDENTIAL_CLIENT_ID,
  CONFIDENTIAL_CLIENT_SECRET,
  CONFIDENTIAL_REDIRECT_URIS,
  type ClientRegistration,
} from './auth/index';
import {
  SCALE_NAMES,
  parseAnchorDate,
  parseClientRegistration,
  parseDataFile,
  parseFaults,
  parseHost,
  parsePageSize,
  parsePort,
  parsePrefix,
  parseRateLimitOption,
  parseSeed,
  parseShapesOption,
  parseTokenTtl,
} from './cli-options';
import type { Scale } from './data/generate';
import type { Shapes } from './http/shapes';
import { startSandbox, type RunningSandbox } from './server';

/** Usage errors exit with 2 (as most Unix tools), so scripts can tell them from failures (1). */
const USAGE_ERROR = 2;

interface SandboxCommandOptions {
  scale: Scale;
  seed: number;
  port: number;
  host: string;
  data?: string;
  prefix?: string;
  pageSize?: number;
  faults?: ReturnType<typeof parseFaults>;
  rateLimit?: ReturnType<typeof parseRateLimitOption>;
  shapes: Shapes;
  tokenTtl: number;
  withoutCourses: boolean;
  autoApprove: boolean;
  registerClient?: ClientRegistration[];
  clientIds: boolean;
  admin: boolean;
  anchorDate?: string;
  json: boolean;
}

/** The --json line: exactly these members, in this order, on the first line of stdout. */
function machineSummary(sandbox: RunningSandbox): string {
  return JSON.stringify({
    baseUrl: sandbox.baseUrl,
    authUrl: sandbox.authUrl,
    tokenUrl: sandbox.tokenUrl,
    issuer: sandbox.issuer,
    jwksUrl: sandbox.jwksUrl,
    clientId: sandbox.clientId,
    feedUrl: sandbox.feedUrl,
    users: sandbox.users.map(({ id, role, name, accessToken }) => ({
      id,
      role,
      name,
      accessToken,
    })),
    // Only with --admin, last, so the line is unchanged without it.
    ...(sandbox.admin ? { admin: sandbox.admin } : {}),
  });
}

function table(rows: readonly (readonly string[])[]): string {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows
    .map((row) =>
      `  ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}`.trimEnd(),
    )
    .join('\n');
}

function humanSummary(sandbox: RunningSandbox, options: SandboxCommandOptions): string {
  const users = table([
    ['Name', 'Role', 'Id', 'Access token'],
    ...sandbox.users.map((user) => [user.name, user.role, user.id, user.accessToken]),
  ]);
  const data = options.data ? `kept in ${options.data}` : 'in memory';
  const shapes =
    options.shapes === 'real'
      ? ', shapes of the real service'
      : options.shapes === 'robust'
        ? ', shapes for robustness tests'
        : '';
  const clientIds = options.clientIds ? ', client-generated ids accepted' : '';
  return `Vorort sandbox: demo data "${options.scale}", seed ${options.seed}, ${data}${shapes}${clientIds}

${table([
  ['API base URL', sandbox.baseUrl],
  ['Authorize URL', `${sandbox.origin}/oauth/v1/authorize`],
  ['Token URL', sandbox.tokenUrl],
  ['User info URL', `${sandbox.origin}/oauth/v1/userinfo`],
  ['JWKS URL', sandbox.jwksUrl],
  ['Issuer', sandbox.issuer],
  ['Client id', `${sandbox.clientId} (public: PKCE S256, any loopback redirect URI)`],
  [
    '',
    `${CONFIDENTIAL_CLIENT_ID} (confidential: client_secret ${CONFIDENTIAL_CLIENT_SECRET}, redirect ${CONFIDENTIAL_REDIRECT_URIS.join(', ')})`,
  ],
  ...(options.registerClient ?? []).map((client) => [
    '',
    `${client.id} (${client.secret === undefined ? 'public: PKCE S256' : 'confidential: its client_secret'}, redirect ${client.redirectUris.join(', ')})`,
  ]),
  ['iCal feed', sandbox.feedUrl],
  ...(sandbox.admin
    ? [
        ['Admin URL', `${sandbox.admin.url} (tests only, see sandbox/RESOURCES.md)`],
        ['Admin token', sandbox.admin.token],
      ]
    : []),
])}

Demo users with ready access tokens (valid ${options.tokenTtl} s):
${users}

Ctrl+C to stop.
`;
}

/** SIGINT and SIGTERM close the server and the store file, then exit 0; a second signal exits at once. */
function stopOnSignals(sandbox: RunningSandbox): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    process.stderr.write(`vorort sandbox: ${signal} received, stopping\n`);
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`vorort sandbox: could not stop cleanly: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function run(options: SandboxCommandOptions): Promise<void> {
  let sandbox: RunningSandbox;
  try {
    sandbox = await startSandbox({
      host: options.host,
      port: options.port,
      scale: options.scale,
      seed: options.seed,
      anchorDate: options.anchorDate,
      data: options.data,
      prefix: options.prefix,
      pageSize: options.pageSize,
      faults: options.faults,
      rateLimit: options.rateLimit,
      shapes: options.shapes,
      tokenTtlSeconds: options.tokenTtl,
      withoutCourses: options.withoutCourses,
      autoApprove: options.autoApprove,
      ...(options.registerClient ? { clients: options.registerClient } : {}),
      clientIds: options.clientIds,
      admin: options.admin,
    });
  } catch (error) {
    process.stderr.write(
      `vorort sandbox: could not start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
    return;
  }
  stopOnSignals(sandbox);
  if (options.json) {
    process.stdout.write(`${machineSummary(sandbox)}\n`);
    process.stderr.write('vorort sandbox: running; Ctrl+C to stop\n');
  } else {
    process.stdout.write(humanSummary(sandbox, options));
  }
}

export function registerSandboxCommand(program: Command): void {
  program
    .command('sandbox')
    .description(
      'Start the sandbox: the whole service interface with generated demo data on this machine, for demos, development and tests',
    )
    .addOption(
      new Option('--scale <scale>', 'size of the demo data').choices(SCALE_NAMES).default('small'),
    )
    .option('--seed <n>', 'seed of the demo data and of the injected faults', parseSeed, 1)
    .option('--port <port>', 'TCP port; 0 picks a free one', parsePort, 8787)
    .option('--host <host>', 'address to listen on', parseHost, '127.0.0.1')
    .option(
      '--data <file>',
      'SQLite file keeping the state across restarts (default: in memory)',
      parseDataFile,
    )
    .option(
      '--prefix <path>',
      'path under which the interface operations live, e.g. /core/v1 as on the real service; OAuth stays at /oauth/v1 (default: none)',
      parsePrefix,
    )
    .option(
      '--page-size <n>',
      'page every list with links.next (default: off, as on the real service)',
      parsePageSize,
    )
    .option(
      '--faults <spec>',
      'inject faults into interface requests at these rates, e.g. error=0.1,lost=0.05 (kinds: error, throttle, slow, malformed, lost, and unreadable: each record of a list answer unreadable at this rate; default: none)',
      parseFaults,
    )
    .option(
      '--shapes <shapes>',
      'uniform: every answer in one shape; real: answers vary per record and field only as public sources show the real service\'s do (an empty date also as 0000-00-00); robust: also in shapes no public source shows, for a client\'s tolerance (null, "" or absent for empty values, numbers for digit-only phones, a one-item list as its item, extra attributes, other type spellings); both seeded by --seed',
      parseShapesOption,
      'uniform',
    )
    .option(
      '--rate-limit <n/unit>',
      'answer 429 with Retry-After past this many requests per token, e.g. 30/min (units s, min, hour; default: none)',
      parseRateLimitOption,
    )
    .option('--token-ttl <seconds>', 'lifetime of access tokens in seconds', parseTokenTtl, 3600)
    .option(
      '--without-courses',
      'the organisation has no course module: its paths answer 423',
      false,
    )
    .option(
      '--auto-approve',
      'skip the login page: log in as the login_hint account or the first office user',
      false,
    )
    .option(
      '--register-client <spec>',
      'register an OAuth client besides the built-in ones, e.g. id=my-app,secret=s3cret,redirect=https://my.example/hiorg/rueckruf (repeat redirect= for more addresses; without secret= a public client that must use PKCE S256; name=… for the login page); repeat the option for more clients',
      parseClientRegistration,
    )
    .option(
      '--client-ids',
      "accept a client-generated id (a UUID in data.id) when creating, as an idempotency key: the resource keeps the service's id and answers meta.client_id, the same id again is 409 already_exists (default: off, any data.id on creation is 403 as on the real service)",
      false,
    )
    .option(
      '--admin',
      "serve the admin interface for tests at /_admin (loopback only, its own token, printed at start): the changes of the service's web interface, the service's clock, paging at run time, the change journal, backups",
      false,
    )
    .option(
      '--anchor-date <date>',
      'day the demo data is generated around, YYYY-MM-DD (default: today)',
      parseAnchorDate,
    )
    .option(
      '--json',
      'print one JSON line with the URLs and tokens first on stdout, for programs',
      false,
    )
    .exitOverride((error: CommanderError) => {
      // Help and version exit 0; every other error is about the command line.
      process.exit(error.exitCode === 0 ? 0 : USAGE_ERROR);
    })
    .action(run);
}
