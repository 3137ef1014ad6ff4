// Browser mode's entry (`npm start` where Electron cannot run, or `npm start -- --browser`): the
// app session (sync/host/session.ts) with the demo (./demo.ts) and its tokens in a 0600 file,
// served by sync/host/browser-server.ts on 127.0.0.1; prints the page's address with a launch
// token (good for one connection) and opens the default browser where there is a display. Plain
// Node: no Electron here (it sits in electron/ because it starts the sandbox for the demo, as the
// lint rooms allow).
//
// The browser is opened through a small page in the user data folder (0600) that forwards to the
// address, as Jupyter does: the token then never stands in a command line that `ps` shows to
// other users of this computer.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve, win32 } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { isLinkableAddress } from '../sync/contract';
import { startBrowserServer, type BrowserServer } from '../sync/host/browser-server';
import { writePrivateFile } from '../sync/host/files';
import {
  fileSecretStore,
  openHostSession,
  type DemoProvider,
  type HostSession,
} from '../sync/host/session';
import { sandboxDemo } from './demo';

export const APP_NAME = 'Vorort';

/** The OS's usual place for an app's data: ~/.config/Vorort, ~/Library/Application Support/Vorort, %APPDATA%\Vorort. */
export function defaultUserDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), APP_NAME);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_NAME);
  const config =
    env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.startsWith('/')
      ? env.XDG_CONFIG_HOME
      : join(home, '.config');
  return join(config, APP_NAME);
}

/** Whether a browser window can appear: always on macOS and Windows, with X11 or Wayland elsewhere. */
export function hasDisplay(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/**
 * The address a browser may be given (https, or http on this computer, as the Electron host's
 * opener allows), written by the URL parser (no space or quote left); null for anything else.
 */
export function browserAddress(address: string): string | null {
  if (!isLinkableAddress(address)) return null;
  return new URL(address).href;
}

/**
 * The system's opener for a URL (a browser address, or the launcher's file: URL), as [command,
 * args]. Never through a shell: on Windows `cmd /c start` would read every `&` of a sign-in
 * address as a command separator, so url.dll's FileProtocolHandler (ShellExecute, what Electron's
 * shell.openExternal does) gets it as one argument, by its full path (Windows looks for a bare
 * name in the working folder first).
 */
export function openerFor(
  target: string,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): [string, string[]] {
  if (platform === 'darwin') return ['open', [target]];
  if (platform === 'win32') {
    const root = env.SystemRoot ?? env.windir ?? 'C:\\Windows';
    return [win32.join(root, 'System32', 'rundll32.exe'), ['url.dll,FileProtocolHandler', target]];
  }
  return ['xdg-open', [target]];
}

/** Opens `target` with the system's opener; false (never a throw) when there is none or it fails. */
function openWithSystem(target: string): Promise<boolean> {
  const [command, args] = openerFor(target);
  return new Promise((done) => {
    let child;
    try {
      child = spawn(command, args, { stdio: 'ignore', detached: true, windowsHide: true });
    } catch {
      done(false);
      return;
    }
    child.once('error', () => done(false));
    child.once('exit', (code) => done(code === 0));
    child.unref();
  });
}

/** Opens a web address in the system browser: https, or http on this computer; false for anything else. */
export function openAddress(address: string): Promise<boolean> {
  const url = browserAddress(address);
  return url === null ? Promise.resolve(false) : openWithSystem(url);
}

/** A page that forwards to `url` (the token stays out of command lines): written 0600. */
export function writeLauncher(dir: string, url: string): string {
  const path = join(dir, 'open-vorort.html');
  const escaped = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  writePrivateFile(
    path,
    `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer">` +
      `<meta http-equiv="refresh" content="0;url=${escaped}"><title>Vorort</title>` +
      `<p><a href="${escaped}">Vorort öffnen / open Vorort</a></p>\n`,
  );
  return path;
}

export interface BrowserModeOptions {
  /** The user data folder (replica, settings, tokens, demo data). */
  userDataDir: string;
  /** 0 (the default): any free port. */
  port?: number;
  /** The built renderer; default dist/renderer/ of this checkout. */
  rendererDir?: string;
  /** The embedded sandbox for "Demo"; default ./demo.ts's. */
  demo?: DemoProvider;
  /** How a login opens the system browser; default the system's opener. */
  openExternal?: (url: string) => Promise<void>;
  /** The sync worker's entry; default the sources through tsx. */
  workerUrl?: URL;
}

export interface BrowserMode {
  /** http://127.0.0.1:PORT/#token=...: a new single-use address each time it is read (the server's). */
  readonly url: string;
  server: BrowserServer;
  session: HostSession;
  /** Stops the server, then the session (its running transaction finishes). Idempotent. */
  close(): Promise<void>;
}

export async function startBrowserMode(options: BrowserModeOptions): Promise<BrowserMode> {
  const userDataDir = resolve(options.userDataDir);
  const session = await openHostSession({
    userDataDir,
    secrets: fileSecretStore(join(userDataDir, 'secrets.json')),
    demo: options.demo ?? sandboxDemo(),
    openExternal:
      options.openExternal ??
      (async (url) => {
        // A login: the person is at this computer's browser (the app's page is open in it).
        process.stderr.write(`Vorort: sign in at / Anmeldung unter: ${url}\n`);
        if (browserAddress(url) === null)
          throw new Error('Refusing to open an address that is neither https nor on this computer');
        if (hasDisplay()) await openAddress(url);
      }),
    ...(options.workerUrl ? { workerUrl: options.workerUrl } : {}),
  });
  let server: BrowserServer;
  try {
    server = await startBrowserServer({
      session,
      port: options.port ?? 0,
      ...(options.rendererDir ? { rendererDir: options.rendererDir } : {}),
    });
  } catch (error) {
    await session.close();
    throw error;
  }
  let closing: Promise<void> | null = null;
  return {
    get url() {
      return server.url;
    },
    server,
    session,
    close() {
      closing ??= (async () => {
        await server.close();
        await session.close();
        rmSync(join(userDataDir, 'open-vorort.html'), { force: true });
      })();
      return closing;
    },
  };
}

interface Arguments {
  userDataDir: string;
  port: number;
  open: boolean;
  loopStats: boolean;
  /** The demo's data size (small: a club's worth; large: for measuring, see test/bench/ui-host-bench.ts). */
  demoScale: 'small' | 'medium' | 'large';
}

const USAGE = `Usage: npm start -- --browser [options]

Runs Vorort in browser mode: the app's page on http://127.0.0.1 with a token of this run.
  --user-data DIR   the user data folder (default ${defaultUserDataDir()})
  --port N          the port (default: any free one)
  --no-open         do not open the browser
  --loop-stats      on exit, print the longest block of the event loop (ms)
  --demo-scale S    the demo's data: small (default), medium or large (for measuring;
                    a new scale needs a new --user-data folder: the demo keeps its data)
`;

export function parseArguments(argv: string[], env: NodeJS.ProcessEnv = process.env): Arguments {
  const args: Arguments = {
    userDataDir: env.VORORT_USER_DATA || defaultUserDataDir(),
    port: 0,
    open: true,
    loopStats: false,
    demoScale: 'small',
  };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const value = () => {
      const given = inline ?? argv[++i];
      if (given === undefined || given === '') throw new UsageError(`${flag} needs a value`);
      return given;
    };
    switch (flag) {
      case '--user-data':
        args.userDataDir = value();
        break;
      case '--port': {
        const port = Number(value());
        if (!Number.isInteger(port) || port < 0 || port > 65535)
          throw new UsageError('--port must be a whole number from 0 to 65535');
        args.port = port;
        break;
      }
      case '--no-open':
        args.open = false;
        break;
      case '--loop-stats':
        args.loopStats = true;
        break;
      case '--demo-scale': {
        const scale = value();
        if (scale !== 'small' && scale !== 'medium' && scale !== 'large')
          throw new UsageError('--demo-scale must be small, medium or large');
        args.demoScale = scale;
        break;
      }
      case '--browser':
        break;
      case '--help':
      case '-h':
        throw new UsageError('', 0);
      default:
        throw new UsageError(`unknown option ${flag}`);
    }
  }
  args.userDataDir = resolve(args.userDataDir);
  return args;
}

export class UsageError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

/** `npm start -- --browser`: runs until SIGINT or SIGTERM, then closes cleanly (exit 0). */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  let args: Arguments;
  try {
    args = parseArguments(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.message) process.stderr.write(`Vorort: ${error.message}\n\n`);
    process.stderr.write(USAGE);
    process.exit(error.exitCode);
  }
  const loop = args.loopStats ? monitorEventLoopDelay({ resolution: 10 }) : null;
  loop?.enable();

  let mode: BrowserMode;
  try {
    mode = await startBrowserMode({
      userDataDir: args.userDataDir,
      port: args.port,
      demo: sandboxDemo({ scale: args.demoScale }),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const text =
      code === 'EADDRINUSE'
        ? `port ${args.port} is taken (another Vorort?): choose another with --port, or leave it out`
        : error instanceof Error
          ? error.message
          : String(error);
    process.stderr.write(`Vorort could not start: ${text}\n`);
    process.exit(1);
  }

  process.stdout.write(
    `Vorort runs in browser mode. Open this address in a browser (it holds a key that opens the app once, keep it to yourself):\n\n` +
      `  ${mode.url}\n\n` +
      `User data: ${args.userDataDir}\nCtrl+C stops it.\n`,
  );
  if (args.open && hasDisplay()) {
    // An address of its own: the printed one stays good for another browser.
    const launcher = writeLauncher(args.userDataDir, mode.url);
    if (!(await openWithSystem(pathToFileURL(launcher).href)))
      process.stdout.write('(No browser could be opened here: open the address above yourself.)\n');
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`Vorort: ${signal} again, stopping at once.\n`);
      process.exit(1);
    }
    stopping = true;
    process.stderr.write(`\nVorort: stopping (${signal}): finishing the current transaction ...\n`);
    mode
      .close()
      .then(() => {
        if (loop) {
          loop.disable();
          process.stderr.write(
            `Vorort: the event loop's longest block: ${(loop.max / 1e6).toFixed(1)} ms ` +
              `(p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms)\n`,
          );
        }
        process.stderr.write('Vorort: stopped.\n');
        process.exit(0);
      })
      .catch((error: unknown) => {
        process.stderr.write(`Vorort: stopping failed: ${String(error)}\n`);
        process.exit(1);
      });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
}
