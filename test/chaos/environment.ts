// The chaos test's surroundings: the sandbox in this process (its store is the truth the run is
// compared with; its fault rates can be switched on and off while it runs), a login through the
// OAuth flow that gives the syncing process a token file with a refresh token, and the syncing
// process itself, `vorort sync`, as a child that can be killed at any moment.
import { spawn, type ChildProcess } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import {
  authorizeUrl,
  fetchNoRedirect,
  LOOPBACK_REDIRECT,
  pkcePair,
  postToken,
  redirectParameters,
} from '../../sandbox/auth/oauth-test-client';
import { parseFaultSpec, REQUEST_FAULT_KINDS, type FaultRates } from '../../sandbox/http/faults';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { CLI } from '../support/bundled';

export interface ChaosSandbox {
  sandbox: RunningSandbox;
  /** Switches the injected faults on (the run's rates) or off (the initial pull, the final drain). */
  faults(on: boolean): void;
}

/**
 * The sandbox with a fault plan whose rates this handle changes in place: the plan keeps the
 * object it was given, so the same service (and store) serves the pull, the chaos and the drain.
 */
export async function startChaosSandbox(options: {
  seed: number;
  faults: string;
  tokenTtlSeconds: number;
  slowMs: number;
}): Promise<ChaosSandbox> {
  const wanted = parseFaultSpec(options.faults);
  const rates = Object.fromEntries(REQUEST_FAULT_KINDS.map((kind) => [kind, 0])) as Record<
    (typeof REQUEST_FAULT_KINDS)[number],
    number
  >;
  const sandbox = await startSandbox({
    port: 0,
    scale: 'small',
    seed: options.seed,
    faults: rates as FaultRates,
    slowMs: options.slowMs,
    tokenTtlSeconds: options.tokenTtlSeconds,
    autoApprove: true,
  });
  return {
    sandbox,
    faults(on) {
      for (const kind of REQUEST_FAULT_KINDS) rates[kind] = on ? wanted[kind] : 0;
    },
  };
}

export interface TokenFileContent {
  access_token: string;
  refresh_token: string;
  client_id: string;
  oauth_url: string;
}

/** Logs the office account in (authorization code with PKCE, auto-approved) and writes the token file. */
export async function login(sandbox: RunningSandbox, file: string): Promise<void> {
  const office = sandbox.users.find((user) => user.role === 'office');
  if (!office) throw new Error('the demo data has no office account');
  const pkce = pkcePair();
  const response = await fetchNoRedirect(
    authorizeUrl(sandbox.authUrl, {
      response_type: 'code',
      client_id: sandbox.clientId,
      redirect_uri: LOOPBACK_REDIRECT,
      state: 'chaos',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      login_hint: office.id,
    }),
  );
  const code = redirectParameters(response).get('code');
  if (!code) throw new Error(`the login gave no code (status ${response.status})`);
  const answer = await postToken(sandbox.tokenUrl, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: LOOPBACK_REDIRECT,
    client_id: sandbox.clientId,
    code_verifier: pkce.verifier,
  });
  if (answer.status !== 200) throw new Error(`token request: ${JSON.stringify(answer.body)}`);
  const content: TokenFileContent = {
    access_token: String(answer.body.access_token),
    refresh_token: String(answer.body.refresh_token),
    client_id: sandbox.clientId,
    oauth_url: `${sandbox.origin}/oauth/v1`,
  };
  writeFileSync(`${file}.login`, JSON.stringify(content, null, 2));
  renameSync(`${file}.login`, file);
}

export interface SyncChild {
  child: ChildProcess;
  /** Resolves when the process has ended: its exit code (null when killed) and its last line. */
  ended: Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    last: string;
    stderr: string;
  }>;
}

/** `vorort sync [--push-only] --db --server --token-file --json` as a child process. */
export function spawnSync(options: {
  db: string;
  server: string;
  tokenFile: string;
  pushOnly: boolean;
}): SyncChild {
  const child = spawn(
    process.execPath,
    [
      CLI,
      'sync',
      ...(options.pushOnly ? ['--push-only'] : []),
      '--db',
      options.db,
      '--server',
      options.server,
      '--token-file',
      options.tokenFile,
      '--json',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-20_000);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  const ended = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    last: string;
    stderr: string;
  }>((resolve) => {
    child.once('close', (code, signal) => {
      const lines = out.trim().split('\n');
      resolve({ code, signal, last: lines[lines.length - 1] ?? '', stderr });
    });
  });
  return { child, ended };
}
