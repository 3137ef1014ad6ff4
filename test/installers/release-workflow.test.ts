// The release workflow (.github/workflows/release.yml) cannot run here: GitHub's runners do.
// action-validator (from npm, WebAssembly: no network) checks it against the schema of GitHub's
// workflows, and the steps are checked to be the ones the installers need: Electron's binary,
// better-sqlite3 for Electron, the smoke test in a real window (Xvfb on Linux), the installers,
// the update files published; every npm script and file it names exists.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '..', '..');
const WORKFLOW = join(ROOT, '.github', 'workflows', 'release.yml');
const require = createRequire(join(ROOT, 'package.json'));
const text = readFileSync(WORKFLOW, 'utf8');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  'runs-on': string;
  needs?: string;
  if?: string;
  strategy?: { matrix: { include: { os: string; arches: string }[] } };
  steps: Step[];
}
const workflow = parse(text) as { on: Record<string, unknown>; jobs: Record<string, Job> };

/** action-validator's command line on a workflow file: its exit code and what it said. */
function validate(file: string): { code: number; output: string } {
  const cli = join(require.resolve('@action-validator/cli/package.json'), '..', 'cli.mjs');
  try {
    const output = execFileSync(process.execPath, [cli, file], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return { code: 0, output };
  } catch (error) {
    const failed = error as { status: number; stdout: string; stderr: string };
    return { code: failed.status, output: `${failed.stdout}${failed.stderr}` };
  }
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const installers = workflow.jobs.installers!;
const runs = installers.steps.flatMap((step) => (step.run ? [step.run] : []));
const stepRunning = (command: string) =>
  installers.steps.find((step) => step.run?.includes(command));

describe('the release workflow', () => {
  it('is a valid GitHub Actions workflow (action-validator)', () => {
    const result = validate(WORKFLOW);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
    // The validator is alive: a job without runs-on is refused.
    const dir = mkdtempSync(join(tmpdir(), 'vorort-workflow-'));
    dirs.push(dir);
    const broken = join(dir, 'release.yml');
    writeFileSync(broken, text.replace('    runs-on: ${{ matrix.os }}\n', ''));
    expect(validate(broken).code).not.toBe(0);
  }, 60_000);

  it('runs on tags and by hand, on Windows, macOS and Linux runners', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['push', 'workflow_dispatch']);
    const oses = installers.strategy!.matrix.include.map((entry) => entry.os);
    expect(oses.map((os) => os.split('-')[0]).sort()).toEqual(['macos', 'ubuntu', 'windows']);
    expect(installers['runs-on']).toBe('${{ matrix.os }}');
    // Windows holds x64 and arm64, the universal macOS app both halves.
    const arches = Object.fromEntries(
      installers.strategy!.matrix.include.map((entry) => [entry.os.split('-')[0], entry.arches]),
    );
    expect(arches).toEqual({ windows: 'x64 arm64', macos: 'x64 arm64', ubuntu: 'x64' });
  });

  it('installs with Electron’s binary and builds better-sqlite3 for Electron', () => {
    expect(text).not.toContain('ELECTRON_SKIP_BINARY_DOWNLOAD');
    const install = installers.steps.findIndex((step) => step.run?.startsWith('npm ci'));
    const binary = installers.steps.findIndex(
      (step) => step.run === 'node node_modules/electron/install.js',
    );
    const native = installers.steps.findIndex((step) =>
      step.run?.includes('npm run build:native-electron -- --arch "$arch"'),
    );
    expect(install).toBeGreaterThanOrEqual(0);
    expect(binary).toBeGreaterThan(install);
    expect(native).toBeGreaterThan(binary);
    expect(existsSync(join(ROOT, 'node_modules', 'electron', 'install.js'))).toBe(true);
  });

  it('runs the smoke test in a real window, under Xvfb on Linux, before the installers', () => {
    expect(existsSync(join(ROOT, 'test', 'electron-smoke.test.ts'))).toBe(true);
    const linux = stepRunning('xvfb-run');
    expect(linux?.if).toBe("runner.os == 'Linux'");
    expect(linux?.run).toMatch(/^xvfb-run .*npx vitest run test\/electron-smoke\.test\.ts$/);
    const others = installers.steps.find(
      (step) => step.run === 'npx vitest run test/electron-smoke.test.ts',
    );
    expect(others?.if).toBe("runner.os != 'Linux'");
    const dist = installers.steps.indexOf(stepRunning('npm run dist')!);
    expect(installers.steps.indexOf(linux!)).toBeLessThan(dist);
    expect(installers.steps.indexOf(others!)).toBeLessThan(dist);
    // Never Chromium's sandbox off.
    expect(text).not.toContain('--no-sandbox');
  });

  it('builds the installers and publishes them with the update files', () => {
    const upload = installers.steps.find((step) =>
      step.uses?.startsWith('actions/upload-artifact'),
    );
    const paths = String(upload?.with?.path).trim().split('\n');
    for (const kind of ['exe', 'dmg', 'zip', 'AppImage', 'deb', 'blockmap'])
      expect(paths).toContain(`out/installers/*.${kind}`);
    expect(paths).toContain('out/installers/latest*.yml');
    const builder = readFileSync(join(ROOT, 'build', 'electron-builder.yml'), 'utf8');
    expect(builder).toMatch(/^ {2}output: out\/installers$/m);
    const publish = workflow.jobs.publish!;
    expect(publish.needs).toBe('installers');
    expect(publish.if).toBe("startsWith(github.ref, 'refs/tags/v')");
    expect(publish.steps.map((step) => step.run ?? step.uses).join('\n')).toContain(
      'gh release create',
    );
  });

  it('names only npm scripts that exist', () => {
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    const named = runs.flatMap((run) => [...run.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]));
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) expect(scripts[name!], name).toBeDefined();
  });
});
